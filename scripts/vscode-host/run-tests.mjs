// Runs the integration suite (out/test/integration, built by `npm run build:tests`) inside a real VS Code
// extension host: VS Code's server from code-server, the workbench in headless Chromium, the suite passed
// through the smoke-test `payload`. Runs on every build in versions.mjs (FDREF_VSCODE=1.100.3 picks one).
// Exits non-zero when a test fails, the host cannot start, or a run exceeds its time limit.
import { existsSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import { cleanupAll, launchBrowser, startServer, tempFolder } from './host.mjs';
import { VSCODE_BUILDS } from './versions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const suite = path.join(repo, 'out', 'test', 'integration');
const TIMEOUT_MS = Number(process.env.FDREF_TEST_TIMEOUT_MS || 8 * 60_000);
const LM_FIXTURE = path.join(repo, 'test', 'fixtures', 'lm-extension');

/**
 * The extensionDevelopmentPath of a run: fdref itself or, on the builds whose stable API lets an extension provide
 * chat models (VS Code 1.104+), a folder holding links to fdref and to the test-only extension with a scripted model
 * (test/fixtures/lm-extension, for chatLanguageModels.test.ts). The web workbench keeps a single
 * extensionDevelopmentPath (it reads the payload into a Map), and loads every extension in a folder without a package.json.
 * @param {import('./versions.mjs').VsCodeBuild} build
 */
function extensionsUnderDevelopment(build) {
  const [major, minor] = build.vscode.split('.').map(Number);
  if (major === 1 && minor < 104) return repo;
  const folder = tempFolder('fdref-extensions-');
  symlinkSync(repo, path.join(folder, 'fdref'), 'dir');
  symlinkSync(LM_FIXTURE, path.join(folder, 'lm-fixture'), 'dir');
  return folder;
}

/**
 * Workbench chatter that says nothing about the tests (connection setup, the offline gallery).
 * @param {string} text
 */
function isWorkbenchNoise(text) {
  return /^(Resolving connection token|Resolved connection token|Creating a socket|Updating additional builtin|ChatSessionStore|\[Service Worker\]|\[ChatModelSelection\])|open-vsx\.org|ENOTFOUND/.test(
    text,
  );
}

/**
 * The passes of the suite: every test in a trusted workspace, then the Restricted Mode tests in a workspace
 * that is not trusted (workspace trust on, no prompt).
 */
/** @type {{ name: string, settings: Record<string, unknown>, grep: string | undefined }[]} */
const PASSES = [
  { name: '', settings: {}, grep: undefined },
  {
    name: ', Restricted Mode',
    settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
    grep: 'Restricted Mode',
  },
];

/**
 * @param {import('./versions.mjs').VsCodeBuild} build
 * @param {(typeof PASSES)[number]} pass
 */
async function runOn(build, pass) {
  console.log(`\n== Integration tests on VS Code ${build.vscode} (code-server ${build.codeServer})${pass.name}`);
  /** @type {string[]} */
  const serverLog = [];
  const server = await startServer({
    build,
    workspaceTemplate: path.join(repo, 'test', 'fixtures', 'workspace'),
    settings: pass.settings,
    env: pass.grep ? { FDREF_TEST_GREP: pass.grep } : {},
    log: (line) => serverLog.push(line),
  });
  const browser = await launchBrowser();
  const page = browser.pages()[0] ?? (await browser.newPage());
  /** @type {NodeJS.Timeout | undefined} */
  let timer;
  /** @type {(code: number) => void} */
  let finish;
  /** @type {Promise<number | 'timeout'>} */
  const exitCode = new Promise((resolve) => {
    finish = resolve;
    timer = setTimeout(() => resolve('timeout'), TIMEOUT_MS);
  });
  // Both bindings must be in place before the workbench loads, or the exit code is never heard.
  await page.exposeFunction('codeAutomationLog', (/** @type {unknown} */ type, /** @type {unknown} */ args) => {
    const text = format(...(Array.isArray(args) ? args : [args]));
    if (isWorkbenchNoise(text)) return;
    for (const line of text.split('\n')) console.log(line);
  });
  await page.exposeFunction('codeAutomationExit', (/** @type {unknown} */ code) => finish(Number(code)));
  const payload = [
    ['extensionDevelopmentPath', server.remote(extensionsUnderDevelopment(build))],
    ['extensionTestsPath', server.remote(suite)],
  ];
  await page.goto(server.url(server.workspace, payload));
  const code = await exitCode;
  clearTimeout(timer);
  if (code === 'timeout') {
    console.error(
      `The integration tests on VS Code ${build.vscode} did not finish within ${TIMEOUT_MS / 1000} s; stopping them.`,
    );
    console.error('Last lines of the VS Code server log:\n' + serverLog.slice(-30).join('\n'));
  } else if (code !== 0) {
    console.error(`The integration tests on VS Code ${build.vscode} failed (exit code ${code}).`);
  }
  await cleanupAll();
  return code === 0;
}

async function main() {
  if (!existsSync(path.join(suite, 'index.js'))) {
    throw new Error('out/test/integration/index.js is missing: run `npm run build:tests` first');
  }
  const wanted = process.env.FDREF_VSCODE;
  const builds = VSCODE_BUILDS.filter((b) => !wanted || wanted.split(',').includes(b.vscode));
  if (builds.length === 0)
    throw new Error(`FDREF_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`);
  let ok = true;
  // FDREF_TEST_GREP (for development) runs only the tests whose titles match it, in the trusted pass.
  const only = process.env.FDREF_TEST_GREP;
  const passes = only ? [{ ...PASSES[0], grep: only }] : PASSES;
  for (const build of builds) for (const pass of passes) ok = (await runOn(build, pass)) && ok;
  return ok;
}

main()
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch(async (error) => {
    console.error(`Integration tests could not run: ${error instanceof Error ? error.stack : error}`);
    await cleanupAll();
    process.exit(1);
  });
