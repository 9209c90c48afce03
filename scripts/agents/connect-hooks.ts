// The connector of `scripts/agents/agents-test.ts --connect scripts/agents/connect-hooks.ts`: installs fdref's hook
// for an agent into the run's temporary HOME as Connect an Agent does at user scope (the core's `installEdit`, the
// same file and entry), pointing at the built `dist/cli.js` (`npm run build` with the command-line tool's `hook` and
// `run`). Qwen Code and Continue get their instructions file: they have no hook that can rewrite a command.
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { hookAgent, installEdit } from '../../src/core/agents/hooks/hookAgents';
import { hookCommandLine } from '../../src/core/agents/hooks/wrapperCommand';
import type { AgentName, ConnectTarget } from './agents-test';

const repo = path.resolve(__dirname, '..', '..');

export async function connectAgent(agent: AgentName, target: ConnectTarget): Promise<{ env?: Record<string, string> }> {
  const cli = path.join(repo, 'dist', 'cli.js');
  if (!existsSync(cli)) throw new Error(`${cli} is missing: run \`npm run build\` first`);
  const spec = hookAgent(agent);
  const file = spec.file('user', {
    home: target.home,
    workspace: target.workspace,
    codexHome: target.env['CODEX_HOME'],
  });
  if (file === undefined) throw new Error(`${spec.label} has no user-scope file`);
  const existing = await fs.readFile(file, 'utf8').catch(() => undefined);
  const command = hookCommandLine({
    node: process.execPath,
    cli,
    store: target.store,
    agent,
    previewChars: spec.previewChars,
  });
  const edit = installEdit(spec, existing, command, file);
  if (edit.kind === 'write') {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(file, edit.text, { mode: spec.install.kind === 'script' ? 0o755 : 0o644 });
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
