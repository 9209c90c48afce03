// The connector of `scripts/agents/agents-test.ts --connect scripts/agents/connect-hooks.ts`: connects an agent in
// the run's temporary HOME exactly as FD Refs: Connect an Agent does at user scope (the core's `connectPlan`: fdref's
// MCP server entry and its hook, or for Qwen Code and Continue, which have no hook that can rewrite a command, their
// instructions file), pointing at the built `dist/mcp.js` and `dist/cli.js` (`npm run build`).
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { connectPlan, plannedPaths } from '../../src/core/agents/connectPlan';
import { serverLaunch } from '../../src/core/agents/serverLaunch';
import type { AgentName, ConnectTarget } from './agents-test';

const repo = path.resolve(__dirname, '..', '..');

export async function connectAgent(agent: AgentName, target: ConnectTarget): Promise<{ env?: Record<string, string> }> {
  const cli = path.join(repo, 'dist', 'cli.js');
  const mcp = path.join(repo, 'dist', 'mcp.js');
  for (const bundle of [cli, mcp])
    if (!existsSync(bundle)) throw new Error(`${bundle} is missing: run \`npm run build\` first`);
  const locations = {
    home: target.home,
    workspace: target.workspace,
    globalStorage: path.join(target.home, '.vscode-global-storage'),
    codexHome: target.env['CODEX_HOME'],
    continueDir: target.env['CONTINUE_GLOBAL_DIR'],
  };
  const server = serverLaunch({
    runtime: { kind: 'node', path: process.execPath },
    launcher: mcp,
    store: target.store,
    workspaces: [target.workspace],
  });
  // The plan is made over the files as they are (the harness wrote each agent's own settings before).
  const texts = new Map<string, string | undefined>();
  for (const file of plannedPaths(agent, 'user', locations)) {
    texts.set(file, await fs.readFile(file, 'utf8').catch(() => undefined));
  }
  const launches = { server, cli: { node: process.execPath, cli, store: target.store } };
  const plan = connectPlan(agent, 'user', locations, launches, (file) => texts.get(file));
  for (const file of plan.files) {
    if (file.after === undefined) continue;
    await fs.mkdir(path.dirname(file.path), { recursive: true });
    await fs.writeFile(file.path, file.after, { mode: file.mode ?? 0o644 });
  }
  // The hook has no opinion when the store is not there (as for a store deleted under Connect's feet).
  await fs.mkdir(target.store, { recursive: true });
  if (agent === 'codex') await trustCodexHooks(target);
  return {};
}

/**
 * Codex runs a user's hook only once the user trusts it in `/hooks`; a test has no user, so this temporary HOME
 * trusts every hook (`bypass_hook_trust`, a top-level key: it goes before the file's first table). Connect an Agent
 * never writes this: it tells the user to trust fdref's hook.
 */
async function trustCodexHooks(target: ConnectTarget): Promise<void> {
  const config = path.join(target.env['CODEX_HOME'] ?? path.join(target.home, '.codex'), 'config.toml');
  const text = await fs.readFile(config, 'utf8').catch(() => '');
  if (/^\s*bypass_hook_trust\s*=/m.test(text)) return;
  await fs.mkdir(path.dirname(config), { recursive: true });
  await fs.writeFile(config, `bypass_hook_trust = true\n${text}`);
}
