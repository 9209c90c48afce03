// `npm start`: opens a real VS Code (VS Code's server from code-server, in the browser) on 127.0.0.1 with fdref
// loaded from this checkout, a copy of demo/ as the workspace, the Structs API emulator for entity ids and the
// loopback model endpoint (scripted answers over the Anthropic and OpenAI protocols) for the chat, and prints
// the URL. Ctrl+C stops it. Everything it makes (the workspace copy, VS Code's profile with fdref's chats and sessions)
// lives in one temporary folder, removed when it stops; it says so when it starts and when it has stopped.
// Connect an Agent writes into <that folder>/home (FDREF_AGENT_HOME), never the real home folder.
// FDREF_PORT picks the port; FDREF_VSCODE picks the VS Code version (default: the newest in versions.mjs).
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoEnvironment, demoSettings } from './demo.mjs';
import { startModelEndpoint, startServer, startStructsApi } from './host.mjs';
import { VSCODE_BUILDS } from './versions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wanted = process.env.FDREF_VSCODE;
const build = wanted ? VSCODE_BUILDS.find((b) => b.vscode === wanted) : VSCODE_BUILDS[VSCODE_BUILDS.length - 1];
if (!build) {
  console.error(`FDREF_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`);
  process.exit(1);
}

// The demo's entity ids (demo/fleet.json) are looked up in a local Structs API emulator.
const structsApi = await startStructsApi({ repo });
// The chat talks to a local scripted model endpoint, labelled as a demo in the model picker.
const models = await startModelEndpoint({ repo });
const server = await startServer({
  build,
  workspaceTemplate: path.join(repo, 'demo'),
  settings: demoSettings({ structsApi, models }),
  // Connect an Agent writes into the demo's temporary profile, never the real home folder.
  env: demoEnvironment,
  // Loaded as an installed extension, without the smoke-test driver that hides notifications on VS Code 1.139.
  smokeTestDriver: false,
  installed: [repo],
  port: process.env.FDREF_PORT ? Number(process.env.FDREF_PORT) : undefined,
  log: (line) => {
    if (process.env.FDREF_VERBOSE) console.log(`[server] ${line}`);
  },
});
const url = server.url(server.workspace);
console.log(`\nfdref is running in VS Code ${build.vscode}. Open this URL in a browser on this machine:\n\n  ${url}\n`);
const profile = path.dirname(server.workspace);
console.log(
  `The demo is temporary: its workspace (a copy of demo/) and VS Code profile, with fdref's chats and sessions, are in ${profile} and are removed when you stop.`,
);
console.log(
  `FD Refs: Connect an Agent writes agents' configurations into ${path.join(profile, 'home')} (FDREF_AGENT_HOME), not your home folder.`,
);
console.log(`Entity ids are looked up in the Structs API emulator at ${structsApi}.`);
console.log(
  `The chat (the FD Refs side bar, or Ctrl+Alt+;) talks to the demo model endpoint at ${models.url} (scripted answers). Press Ctrl+C to stop.`,
);
// host.mjs removes the temporary folder on Ctrl+C, then exits: the last line says it is done.
process.once('exit', () => {
  console.log(
    existsSync(profile)
      ? `\nThe fdref demo has stopped; ${profile} could not be removed (see above).`
      : `\nThe fdref demo has stopped; ${profile} was removed, with the demo's chats and sessions.`,
  );
});
await new Promise(() => {});
