// The connector of `scripts/agents/agents-test.ts --connect scripts/agents/connect-hooks.ts`: connects an agent in
// the run's temporary HOME exactly as FD Refs: Connect an Agent does at user scope (the core's `connectPlan`: fdref's
// MCP server entry and its hook, or for Qwen Code and Continue, which have no hook that can rewrite a command, their
// instructions file), pointing at the built `dist/mcp.js` and `dist/cli.js` (`npm run build`). For Codex it also does
// the one step Connect leaves to the user: trusting the hook (see trustCodexHooks).
import { createHash } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { connectPlan, plannedPaths } from '../../src/core/agents/connectPlan';
import { hookAgent } from '../../src/core/agents/hooks/hookAgents';
import { isFdrefHookCommand } from '../../src/core/agents/hooks/wrapperCommand';
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
    clineDir: target.env['CLINE_DIR'],
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
  if (agent === 'codex') {
    const hooksFile = hookAgent('codex').file('user', locations);
    if (hooksFile !== undefined) await trustCodexHooks(target, hooksFile);
  }
  return {};
}

/**
 * Codex 0.171 runs a user's hook only once the user trusts it (the "Hooks need review" prompt of its interactive
 * CLI, or `/hooks`), which records the hook's hash in config.toml as
 * `[hooks.state."<hooks.json path>:pre_tool_use:<group>:<handler>"] trusted_hash = "sha256:…"`; `codex exec` never
 * asks and silently skips an untrusted hook. A test has no user, so this trusts fdref's handlers the same way, in
 * the run's temporary CODEX_HOME. `bypass_hook_trust = true` in config.toml does not do it: Codex 0.171 warns that
 * the setting is unrecognized and ignores it (bypassing is only the `--dangerously-bypass-hook-trust` flag, for
 * every hook). Connect an Agent never trusts a hook for the user: its note tells them to.
 */
async function trustCodexHooks(target: ConnectTarget, hooksFile: string): Promise<void> {
  const config = path.join(target.env['CODEX_HOME'] ?? path.join(target.home, '.codex'), 'config.toml');
  const existing = await fs.readFile(config, 'utf8').catch(() => '');
  const tables = codexTrustTables(hooksFile, await fs.readFile(hooksFile, 'utf8')).filter(
    (table) => !existing.includes(table.split('\n')[0] as string),
  );
  if (tables.length === 0) return;
  await fs.mkdir(path.dirname(config), { recursive: true });
  await fs.writeFile(config, `${existing.replace(/\n*$/, existing === '' ? '' : '\n\n')}${tables.join('\n')}`);
}

/** A matcher group of Codex's hooks.json. */
export interface CodexMatcherGroup {
  readonly matcher?: string;
  readonly hooks: readonly Readonly<Record<string, unknown>>[];
}

/**
 * The config.toml tables that trust each of fdref's `PreToolUse` handlers in Codex's hooks.json at `hooksFile` (its
 * text `hooksJson`): the key is the file's path, the event's label and the handler's place
 * (codex-rs/hooks/src/lib.rs `hook_key`, codex-rs/hooks/src/engine/discovery.rs `append_matcher_groups`).
 */
export function codexTrustTables(hooksFile: string, hooksJson: string): string[] {
  const file = JSON.parse(hooksJson) as { hooks?: { PreToolUse?: CodexMatcherGroup[] } };
  return (file.hooks?.PreToolUse ?? []).flatMap((group, groupIndex) =>
    group.hooks.flatMap((handler, handlerIndex) =>
      isFdrefHookCommand(handler['command'])
        ? [
            `[hooks.state.${JSON.stringify(`${hooksFile}:pre_tool_use:${groupIndex}:${handlerIndex}`)}]\n` +
              `trusted_hash = ${JSON.stringify(codexHookHash('pre_tool_use', group, handler))}\n`,
          ]
        : [],
    ),
  );
}

/**
 * Codex's trust hash of one command handler of a matcher group (codex-rs/hooks/src/engine/discovery.rs
 * `command_hook_hash`, codex-rs/config/src/fingerprint.rs `version_for_toml`): the SHA-256 of the compact JSON, keys
 * sorted, of `{ event_name, matcher, hooks: [handler] }`, the handler as Codex normalizes it (`timeout` always there,
 * 600 s by default; `async` false by default; unset optional fields left out, as TOML has no null).
 */
export function codexHookHash(
  event: string,
  group: CodexMatcherGroup,
  handler: Readonly<Record<string, unknown>>,
): string {
  const normalized: Record<string, unknown> = {
    type: 'command',
    command: handler['command'],
    timeout: typeof handler['timeout'] === 'number' ? Math.max(1, handler['timeout']) : 600,
    async: handler['async'] === true,
  };
  for (const optional of ['statusMessage', 'additionalContextLimit'])
    if (handler[optional] !== undefined && handler[optional] !== null) normalized[optional] = handler[optional];
  const identity = {
    event_name: event,
    ...(group.matcher === undefined ? {} : { matcher: group.matcher }),
    hooks: [normalized],
  };
  return `sha256:${createHash('sha256')
    .update(JSON.stringify(sortedKeys(identity)))
    .digest('hex')}`;
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.keys(record)
      .sort()
      .map((key) => [key, sortedKeys(record[key])]),
  );
}
