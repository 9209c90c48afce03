/**
 * What `FD Refs: Connect an Agent...` and `Disconnect an Agent...` write, for each agent and scope: fdref's MCP
 * server entry in the agent's configuration, and its hook (or, for an agent without a usable hook, its instructions
 * file) from `HOOK_AGENTS`, as one list of file edits the command shows as diffs and then writes. Disconnect takes
 * out exactly fdref's entries, so a file Connect changed gets back its text byte for byte (a file Connect created is
 * deleted). A file fdref will not edit (unreadable JSON, someone else's hook script) throws `AgentConfigError`
 * before anything is planned, so nothing is written.
 */
import * as path from 'node:path';
import { agentClient, CLINE_EXTENSION_ID, SERVER_NAME } from './agentClients';
import { CLIENT_BUDGETS } from './clientBudgets';
import {
  hookAgent,
  type HookAgent,
  type HookLocations,
  type HookScope,
  installEdit,
  removeEdit,
} from './hooks/hookAgents';
import { type CliLaunch, hookCommandLine, type HookAgentId } from './hooks/wrapperCommand';
import {
  markedBlock,
  markedSpan,
  refuseBrokenMarkers,
  removeMarked,
  setMarked,
  tomlString,
  withoutMarked,
} from './markedLines';
import { AgentConfigError, mergeServerEntry } from './mergeServerEntry';
import { removeServerEntry } from './removeServerEntry';
import { type ServerLaunch, withResultChars } from './serverLaunch';
import { FDREF_MCP_TOOLS, mergeVisibleTools, qwenToolName, removeVisibleTools } from './visibleTools';

/** The agents Connect an Agent knows: every hook agent, and Cursor (its server only). */
export type ConnectAgentId = HookAgentId | 'cursor';

export const CONNECT_AGENT_IDS: readonly ConnectAgentId[] = [
  'claude-code',
  'codex',
  'gemini-cli',
  'qwen-code',
  'cline',
  'copilot',
  'continue',
  'cursor',
];

export interface ConnectLocations extends HookLocations {
  /** The folder holding every VS Code extension's global storage (the Cline extension's MCP settings are in it). */
  readonly globalStorage: string;
  /** `CONTINUE_GLOBAL_DIR`, Continue's folder (`~/.continue`). */
  readonly continueDir?: string | undefined;
}

/**
 * The two command lines an agent is given: the MCP server's, and the command-line tool's that hooks run, or why
 * there is none (then the agent gets no hook, and the plan's notes say why).
 */
export interface ConnectLaunches {
  readonly server: ServerLaunch;
  readonly cli: CliLaunch | { readonly missing: string };
}

/** One file's change: its text before (undefined: no file) and after (undefined: delete it). */
export interface PlannedFile {
  readonly path: string;
  /** The path as the user knows it (`~/.codex/config.toml`). */
  readonly label: string;
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** Permission bits for a file created (Cline's hook script must be executable). */
  readonly mode?: number;
  /** What of fdref's the file gets or loses (`fdref's MCP server`, `fdref's PreToolUse hook`). */
  readonly entries: readonly string[];
  /** The file held fdref's entries before (Connect replaces them). */
  readonly hadFdref: boolean;
}

export interface ConnectPlan {
  readonly agent: ConnectAgentId;
  readonly scope: HookScope;
  /** The files that change (none when the agent is connected, or disconnected, already). */
  readonly files: readonly PlannedFile[];
  /** What the user must know beside the diffs: a step left to them, what is not caught. */
  readonly notes: readonly string[];
}

/** A file's text as it is now, undefined when there is none. */
export type ReadText = (file: string) => string | undefined;

/** How a file holds fdref's entry: the edit that sets it, and the one that takes it out. */
interface Part {
  readonly file: string;
  readonly entry: string;
  readonly mode?: number;
  connect(existing: string | undefined, label: string): string | undefined;
  /** The text without fdref's entry; `undefined` for "delete the file"; `existing` itself when it had none. */
  disconnect(existing: string | undefined, label: string): string | undefined;
}

const budget = (label: string): number | undefined => CLIENT_BUDGETS.find((b) => b.label === label)?.resultChars;

/** Who the agent is, for the picker: its product name, and what Connect gives it. */
export function connectAgentSummary(agent: ConnectAgentId): { label: string; gets: string } {
  if (agent === 'cursor')
    return { label: 'Cursor', gets: 'server (Cursor’s own shell tool’s long output is still cut)' };
  const spec = hookAgent(agent);
  const server = agent === 'copilot' ? 'hook (the server comes from the FD Refs extension)' : 'server + ';
  if (spec.install.kind === 'instructions') {
    return { label: spec.label, gets: `${server}instructions: its own shell tool's long output is still cut` };
  }
  return { label: spec.label, gets: agent === 'copilot' ? server : `${server}hook that keeps its shell output` };
}

/** The files Connect or Disconnect reads and may write for `agent` at `scope`. */
export function plannedPaths(agent: ConnectAgentId, scope: HookScope, locations: ConnectLocations): string[] {
  return [...new Set(parts(agent, scope, locations, undefined).map((part) => part.file))];
}

/** The edits that connect `agent` at `scope` (see the file comment); throws {@link AgentConfigError}. */
export function connectPlan(
  agent: ConnectAgentId,
  scope: HookScope,
  locations: ConnectLocations,
  launches: ConnectLaunches,
  read: ReadText,
): ConnectPlan {
  return plan(agent, scope, locations, launches, read, 'connect');
}

/** The edits that take fdref's entries for `agent` at `scope` out again; throws {@link AgentConfigError}. */
export function disconnectPlan(
  agent: ConnectAgentId,
  scope: HookScope,
  locations: ConnectLocations,
  read: ReadText,
): ConnectPlan {
  return plan(agent, scope, locations, undefined, read, 'disconnect');
}

function plan(
  agent: ConnectAgentId,
  scope: HookScope,
  locations: ConnectLocations,
  launches: ConnectLaunches | undefined,
  read: ReadText,
  direction: 'connect' | 'disconnect',
): ConnectPlan {
  const all = parts(agent, scope, locations, launches);
  const files: PlannedFile[] = [];
  for (const file of [...new Set(all.map((part) => part.file))]) {
    const label = displayPath(file, locations);
    const before = read(file);
    const mine = all.filter((part) => part.file === file);
    let after: string | undefined = before;
    for (const part of mine) {
      after = direction === 'connect' ? part.connect(after, label) : part.disconnect(after, label);
      if (after === undefined) break;
    }
    if (direction === 'disconnect' && after !== undefined && after !== before && isEmptyJsonObject(after)) {
      after = undefined; // a settings file that held nothing but fdref's entries was created by Connect
    }
    if (after === before || (after === undefined && before === undefined)) continue;
    const mode = mine.find((part) => part.mode !== undefined)?.mode;
    const hadFdref = mine.some((part) => part.disconnect(before, label) !== before);
    files.push({
      path: file,
      label,
      before,
      after,
      ...(mode === undefined ? {} : { mode }),
      entries: mine.map((part) => part.entry),
      hadFdref,
    });
  }
  const missing = launches !== undefined && 'missing' in launches.cli ? launches.cli.missing : undefined;
  const skipped = missing !== undefined && agent !== 'cursor' && hookAgent(agent).protocol !== undefined;
  return { agent, scope, files, notes: [...(skipped ? [`No hook: ${missing}`] : []), ...notes(agent, scope)] };
}

function isEmptyJsonObject(text: string): boolean {
  return /^\uFEFF?\s*\{\s*\}\s*$/.test(text);
}

function notes(agent: ConnectAgentId, scope: HookScope): string[] {
  const own = agent === 'cursor' ? [] : [...hookAgent(agent).notes];
  if (agent === 'cline' && scope === 'project') {
    own.push("Cline keeps its MCP servers only in its user settings, so fdref's server is added there.");
    own.push('Cline CLI reads its own ~/.cline settings: connect at user scope for it.');
  }
  if (agent === 'continue' && scope === 'project') {
    own.push(
      "Continue's IDE extension reads the server from .continue/mcpServers/fdref.yaml; Continue CLI reads only ~/.continue/config.yaml (connect at user scope for it).",
    );
  }
  if (agent === 'claude-code' && scope === 'project') {
    own.push('Claude Code asks once before it starts a server from a project’s .mcp.json.');
  }
  if (agent === 'copilot') own.push("VS Code's Copilot gets fdref's MCP server from the FD Refs extension itself.");
  return own;
}

/** Every entry of fdref for `agent` at `scope`: its server's first, then its hook or instructions. */
function parts(
  agent: ConnectAgentId,
  scope: HookScope,
  locations: ConnectLocations,
  launches: ConnectLaunches | undefined,
): Part[] {
  const server = serverPart(agent, scope, locations, launches?.server);
  if (agent === 'cursor') return server === undefined ? [] : [server];
  const spec = hookAgent(agent);
  const noCli = launches !== undefined && 'missing' in launches.cli && spec.install.kind !== 'instructions';
  const hook = noCli
    ? undefined
    : hookPart(spec, scope, locations, launches, server !== undefined || agent === 'copilot');
  // Qwen Code shows a server's tools only through its tool_search / tool_call tools unless `tools.visible` names them.
  const visible = agent === 'qwen-code' && server !== undefined ? [qwenVisibleTools(server.file)] : [];
  // Cline CLI reads its own settings file, not the VS Code extension's.
  const clineCli = agent === 'cline' && scope === 'user' ? [clineCliServer(locations, launches?.server)] : [];
  return [...(server === undefined ? [] : [server]), ...visible, ...clineCli, ...(hook === undefined ? [] : [hook])];
}

/**
 * Cline CLI's server: `mcpServers.fdref` in `$CLINE_DIR/data/settings/cline_mcp_settings.json` (`~/.cline`), in the
 * shape `cline mcp add` writes (the launch under `transport`), with Cline's `--result-chars`.
 */
function clineCliServer(locations: ConnectLocations, launch: ServerLaunch | undefined): Part {
  const folder = locations.clineDir || path.join(locations.home, '.cline');
  const file = path.join(folder, 'data', 'settings', 'cline_mcp_settings.json');
  return jsonServer(file, `fdref's MCP server (Cline CLI)`, false, () => {
    if (launch === undefined) throw new Error('connect without launches');
    return { transport: { type: 'stdio', ...plainEntry(withResultChars(launch, budget('Cline'))) } };
  });
}

/** fdref's tools, by Qwen Code's names for them, in `tools.visible` of the settings.json holding its server. */
function qwenVisibleTools(file: string): Part {
  const names = (): string[] => FDREF_MCP_TOOLS.map(qwenToolName);
  return {
    file,
    entry: `fdref's tools in tools.visible`,
    connect: (existing, label) => mergeVisibleTools(existing, names(), true, label),
    disconnect: (existing, label) => removeVisibleTools(existing, names(), true, label),
  };
}

function hookPart(
  spec: HookAgent,
  scope: HookScope,
  locations: ConnectLocations,
  launches: ConnectLaunches | undefined,
  mcp: boolean,
): Part | undefined {
  const file = spec.file(scope, locations);
  if (file === undefined) return undefined;
  const entry =
    spec.install.kind === 'instructions'
      ? `fdref's instructions`
      : spec.install.kind === 'script'
        ? `fdref's PreToolUse hook script`
        : `fdref's ${spec.install.event} hook`;
  return {
    file,
    entry,
    ...(spec.install.kind === 'script' ? { mode: 0o755 } : {}),
    connect: (existing, label) => {
      const cli = launches?.cli;
      // Instructions run nothing: they need no command line.
      const command =
        cli === undefined || 'missing' in cli
          ? ''
          : hookCommandLine({ ...cli, agent: spec.id, previewChars: spec.previewChars, mcp });
      if (command === '' && spec.install.kind !== 'instructions') throw new Error('a hook without its command line');
      const edit = installEdit(spec, existing, command, label);
      return edit.kind === 'write' ? edit.text : existing;
    },
    disconnect: (existing, label) => {
      const edit = removeEdit(spec, existing, label);
      return edit.kind === 'write' ? edit.text : edit.kind === 'delete' ? undefined : existing;
    },
  };
}

function inWorkspace(locations: ConnectLocations, ...names: string[]): string | undefined {
  return locations.workspace === undefined ? undefined : path.join(locations.workspace, ...names);
}

/** fdref's server entry for `agent`; undefined where the agent gets none (VS Code's Copilot: the extension gives it). */
function serverPart(
  agent: ConnectAgentId,
  scope: HookScope,
  locations: ConnectLocations,
  launch: ServerLaunch | undefined,
): Part | undefined {
  const user = scope === 'user';
  const need = (): ServerLaunch => {
    if (launch === undefined) throw new Error('connect without launches');
    return launch;
  };
  const entry = `fdref's MCP server`;
  switch (agent) {
    case 'claude-code': {
      const file = user
        ? path.join(locations.claudeConfigDir || locations.home, '.claude.json')
        : inWorkspace(locations, '.mcp.json');
      return file === undefined ? undefined : jsonServer(file, entry, false, () => agentClient('claude').entry(need()));
    }
    case 'cursor': {
      const file = user
        ? path.join(locations.home, '.cursor', 'mcp.json')
        : inWorkspace(locations, '.cursor', 'mcp.json');
      return file === undefined ? undefined : jsonServer(file, entry, true, () => agentClient('cursor').entry(need()));
    }
    case 'cline': {
      const file = path.join(locations.globalStorage, CLINE_EXTENSION_ID, 'settings', 'cline_mcp_settings.json');
      return jsonServer(file, entry, false, () => agentClient('cline').entry(need()), true);
    }
    case 'gemini-cli':
    case 'qwen-code': {
      const folder = agent === 'gemini-cli' ? '.gemini' : '.qwen';
      const file = user
        ? path.join(locations.home, folder, 'settings.json')
        : inWorkspace(locations, folder, 'settings.json');
      const resultChars = budget(agent === 'gemini-cli' ? 'Gemini CLI' : 'Qwen Code');
      return file === undefined
        ? undefined
        : jsonServer(file, entry, true, () => plainEntry(withResultChars(need(), resultChars)));
    }
    case 'codex': {
      const file = user
        ? path.join(locations.codexHome || path.join(locations.home, '.codex'), 'config.toml')
        : inWorkspace(locations, '.codex', 'config.toml');
      return file === undefined ? undefined : codexServer(file, entry, () => withResultChars(need(), budget('Codex')));
    }
    case 'continue':
      return continueServer(scope, locations, entry, () => withResultChars(need(), budget('Continue')));
    case 'copilot':
      return undefined;
  }
}

function plainEntry(launch: ServerLaunch): Record<string, unknown> {
  return {
    command: launch.command,
    args: [...launch.args],
    ...(Object.keys(launch.env).length === 0 ? {} : { env: { ...launch.env } }),
  };
}

function jsonServer(
  file: string,
  entry: string,
  allowsComments: boolean,
  value: () => Record<string, unknown>,
  keepEmptyServers = false,
): Part {
  return {
    file,
    entry,
    connect: (existing, label) =>
      mergeServerEntry({ existing, entry: value(), allowsComments, fileLabel: label }).merged,
    disconnect: (existing, label) =>
      removeServerEntry({ existing, allowsComments, fileLabel: label, keepEmptyServers }) ?? existing,
  };
}

/** A file's lines outside fdref's block that already configure a server named fdref, or `mcp_servers` inline. */
function refuseOtherCodexServer(text: string, label: string): void {
  const outside = withoutMarked(text);
  let inServersTable = false;
  for (const line of outside.split(/\r?\n/)) {
    const header = /^\s*\[\[?\s*([^\]]*?)\s*\]\]?/.exec(line);
    if (header !== null) {
      const name = (header[1] ?? '').replace(/\s+/g, '').replace(/"fdref"/g, 'fdref');
      if (name === 'mcp_servers.fdref' || name.startsWith('mcp_servers.fdref.'))
        return refuseToml(label, '[mcp_servers.fdref]');
      inServersTable = name === 'mcp_servers';
      continue;
    }
    const key = /^\s*([A-Za-z0-9_."-]+?)\s*=/.exec(line)?.[1]?.replace(/"fdref"/g, 'fdref');
    if (key === undefined) continue;
    if (
      inServersTable
        ? key === 'fdref' || key.startsWith('fdref.')
        : key === 'mcp_servers' || key.startsWith('mcp_servers.fdref')
    ) {
      return refuseToml(label, key === 'mcp_servers' ? 'an inline mcp_servers table' : `a server named fdref`);
    }
  }
}

function refuseToml(label: string, what: string): never {
  throw new AgentConfigError(
    `${label} already has ${what} that fdref did not write. Remove it (or edit it by hand), then connect again; nothing was written.`,
  );
}

/** Codex's `[mcp_servers.fdref]` table in `config.toml`, appended between fdref's markers. */
function codexServer(file: string, entry: string, launch: () => ServerLaunch): Part {
  return {
    file,
    entry,
    connect: (existing, label) => {
      const text = existing ?? '';
      refuseBrokenMarkers(text, label);
      refuseOtherCodexServer(text, label);
      const server = launch();
      const env = Object.entries(server.env);
      const lines = [
        `[mcp_servers.${SERVER_NAME}]`,
        `command = ${tomlString(server.command)}`,
        `args = [${server.args.map(tomlString).join(', ')}]`,
        ...(env.length === 0
          ? []
          : [`env = { ${env.map(([k, v]) => `${tomlString(k)} = ${tomlString(v)}`).join(', ')} }`]),
      ];
      return setMarked(text, markedBlock(lines, '', text.includes('\r\n') ? '\r\n' : '\n'), undefined);
    },
    disconnect: (existing, label) => {
      if (existing === undefined) return undefined;
      refuseBrokenMarkers(existing, label);
      const text = removeMarked(existing);
      return text === undefined ? existing : text === '' ? undefined : text;
    },
  };
}

/** fdref's item of Continue's `mcpServers` list, as YAML lines (strings double-quoted, as JSON writes them). */
function continueItem(launch: ServerLaunch): string[] {
  const env = Object.entries(launch.env);
  return [
    `- name: ${SERVER_NAME}`,
    `  command: ${JSON.stringify(launch.command)}`,
    '  args:',
    ...launch.args.map((arg) => `    - ${JSON.stringify(arg)}`),
    ...(env.length === 0 ? [] : ['  env:', ...env.map(([k, v]) => `    ${JSON.stringify(k)}: ${JSON.stringify(v)}`)]),
  ];
}

/**
 * Continue's server: at user scope an item of `mcpServers` in `config.yaml` (what Continue CLI reads), inserted as
 * the list's first item (or a new `mcpServers` appended); at project scope a block file of fdref's own,
 * `.continue/mcpServers/fdref.yaml` (what Continue's IDE extension reads).
 */
function continueServer(
  scope: HookScope,
  locations: ConnectLocations,
  entry: string,
  launch: () => ServerLaunch,
): Part | undefined {
  const disconnect = (existing: string | undefined, label: string): string | undefined => {
    if (existing === undefined) return undefined;
    refuseBrokenMarkers(existing, label);
    const text = removeMarked(existing);
    return text === undefined ? existing : text === '' ? undefined : text;
  };
  if (scope === 'project') {
    const file = inWorkspace(locations, '.continue', 'mcpServers', `${SERVER_NAME}.yaml`);
    if (file === undefined) return undefined;
    return {
      file,
      entry,
      connect: (existing, label) => {
        if (existing !== undefined && existing.trim() !== '' && markedSpan(existing) === undefined) {
          throw new AgentConfigError(
            `${label} is not fdref's; fdref does not replace it. Move it aside, then connect again; nothing was written.`,
          );
        }
        const lines = [
          'name: fdref',
          'version: 0.0.1',
          'schema: v1',
          'mcpServers:',
          ...continueItem(launch()).map((l) => `  ${l}`),
        ];
        return setMarked(existing ?? '', markedBlock(lines, '', '\n'), undefined);
      },
      disconnect,
    };
  }
  const file = path.join(locations.continueDir || path.join(locations.home, '.continue'), 'config.yaml');
  return {
    file,
    entry,
    connect: (existing, label) => {
      const text = existing ?? '';
      refuseBrokenMarkers(text, label);
      const outside = withoutMarked(text);
      if (/^\s*-?\s*name:\s*["']?fdref["']?\s*$/m.test(outside)) {
        throw new AgentConfigError(
          `${label} already has a server named fdref that fdref did not write. Remove it, then connect again; nothing was written.`,
        );
      }
      const eol = text.includes('\r\n') ? '\r\n' : '\n';
      const item = continueItem(launch());
      const span = markedSpan(text);
      if (span !== undefined) {
        // Replaced in place, at the indentation it has.
        const indent = /^[ \t]*/.exec(text.slice(span.start))?.[0] ?? '';
        const ownKey = text.slice(span.start, span.end).includes('mcpServers:');
        const lines = ownKey ? ['mcpServers:', ...item.map((l) => `  ${l}`)] : item;
        return setMarked(text, markedBlock(lines, indent, eol), undefined);
      }
      const key = /^mcpServers[ \t]*:[ \t]*(?:#.*)?$/m.exec(text);
      if (key === null) {
        if (/^mcpServers\b/m.test(text)) {
          throw new AgentConfigError(
            `${label}: "mcpServers" is not a block list fdref can add to. Add fdref's server by hand (Copy the configuration), or make it a "- " list; nothing was written.`,
          );
        }
        return setMarked(text, markedBlock(['mcpServers:', ...item.map((l) => `  ${l}`)], '', eol), undefined);
      }
      const afterKey = text.indexOf('\n', key.index) + 1;
      const next = /^([ \t]*)(\S.*)$/m.exec(text.slice(afterKey));
      if (afterKey === 0 || next === null || !next[2]?.startsWith('- ')) {
        throw new AgentConfigError(
          `${label}: "mcpServers" is not a block list fdref can add to. Add fdref's server by hand (Copy the configuration), or make it a "- " list; nothing was written.`,
        );
      }
      const lineStart = afterKey + (next.index ?? 0);
      return setMarked(text, markedBlock(item, next[1] ?? '', eol), lineStart);
    },
    disconnect,
  };
}

/** `~/.codex/config.toml` for a file under the home folder, the full path otherwise. */
export function displayPath(file: string, locations: { readonly home: string }): string {
  return file.startsWith(locations.home + path.sep) ? `~${path.sep}${path.relative(locations.home, file)}` : file;
}
