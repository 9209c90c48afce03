/**
 * The agents `FD Refs: Connect an Agent...` configures: where each keeps its user-level MCP servers and the shape
 * of one server's entry there. Every file keeps its servers under a top-level `mcpServers` object.
 */
import * as path from 'node:path';
import { CLIENT_BUDGETS } from './clientBudgets';
import { withResultChars, type ServerLaunch } from './serverLaunch';

export type AgentClientId = 'claude' | 'cursor' | 'cline';

/** The name fdref's server is configured under, in every client. */
export const SERVER_NAME = 'fdref';

export interface AgentClient {
  readonly id: AgentClientId;
  /** The product's name, as its users know it. */
  readonly label: string;
  /**
   * Whether the client reads its file as JSON with comments. Claude Code and Cline read theirs with
   * `JSON.parse`: a comment there is an error the client would stumble on too, so fdref refuses the file.
   */
  readonly allowsComments: boolean;
  /**
   * The server's `--result-chars` for this client (`CLIENT_BUDGETS`), so the budget holds whatever name the client
   * gives itself; undefined where the server chooses by name (Cursor: its entry is also the snippet for any client).
   */
  readonly resultChars?: number;
  /** The entry of fdref's server in this client's `mcpServers` (with `--result-chars` when it has one). */
  entry(launch: ServerLaunch): Record<string, unknown>;
}

/** Where the configuration files are: the user's home folder, and VS Code's global storage folder (Cline's is in it). */
export interface ConfigLocations {
  readonly home: string;
  /** The folder holding every extension's global storage (`.../User/globalStorage`). */
  readonly globalStorage: string;
  /** `CLAUDE_CONFIG_DIR`, which moves Claude Code's `.claude.json` out of the home folder when set. */
  readonly claudeConfigDir?: string | undefined;
}

/** Cline's extension id; its settings live in its global storage. */
export const CLINE_EXTENSION_ID = 'saoudrizwan.claude-dev';

const withEnv = (launch: ServerLaunch): Record<string, unknown> =>
  Object.keys(launch.env).length === 0 ? {} : { env: { ...launch.env } };

/** The budget `CLIENT_BUDGETS` gives the client called `label`. */
function budgetOf(label: string): number {
  const budget = CLIENT_BUDGETS.find((candidate) => candidate.label === label);
  if (budget === undefined) throw new Error(`no result budget for ${label}`);
  return budget.resultChars;
}

export const AGENT_CLIENTS: readonly AgentClient[] = [
  {
    id: 'claude',
    label: 'Claude Code',
    allowsComments: false,
    resultChars: budgetOf('Claude Code'),
    // What `claude mcp add -s user` writes.
    entry: (launch) => ({
      type: 'stdio',
      command: launch.command,
      args: withResultChars(launch, budgetOf('Claude Code')).args,
      env: { ...launch.env },
    }),
  },
  {
    id: 'cursor',
    label: 'Cursor',
    // Not verified that Cursor reads comments; a file that has them keeps them.
    allowsComments: true,
    entry: (launch) => ({ command: launch.command, args: [...launch.args], ...withEnv(launch) }),
  },
  {
    id: 'cline',
    label: 'Cline',
    allowsComments: false,
    resultChars: budgetOf('Cline'),
    entry: (launch) => ({
      type: 'stdio',
      command: launch.command,
      args: withResultChars(launch, budgetOf('Cline')).args,
      ...withEnv(launch),
      disabled: false,
    }),
  },
];

export function agentClient(id: AgentClientId): AgentClient {
  const client = AGENT_CLIENTS.find((candidate) => candidate.id === id);
  if (client === undefined) throw new Error(`no agent client ${id}`);
  return client;
}

/** The user-level configuration file of a client. */
export function configFilePath(id: AgentClientId, locations: ConfigLocations): string {
  switch (id) {
    case 'claude':
      return path.join(locations.claudeConfigDir || locations.home, '.claude.json');
    case 'cursor':
      return path.join(locations.home, '.cursor', 'mcp.json');
    case 'cline':
      return path.join(locations.globalStorage, CLINE_EXTENSION_ID, 'settings', 'cline_mcp_settings.json');
  }
}

/** The `mcpServers` snippet a user pastes into any client's configuration by hand. */
export function configurationSnippet(launch: ServerLaunch): string {
  return JSON.stringify({ mcpServers: { [SERVER_NAME]: agentClient('cursor').entry(launch) } }, null, 2);
}

/**
 * The Claude Code command lines that configure the server for the user (every project): `claude mcp add -s user`,
 * preceded by `claude mcp remove -s user` when an entry is there already (`add` refuses to replace one). The server's
 * command line follows `--`, so no argument of it is read as an option of `claude`; `--env` comes after the name,
 * since it takes every value up to the next option.
 */
export function claudeCliCommands(launch: ServerLaunch, replacing: boolean): string[][] {
  const env = Object.entries(launch.env).flatMap(([name, value]) => ['--env', `${name}=${value}`]);
  const args = withResultChars(launch, agentClient('claude').resultChars).args;
  const add = ['mcp', 'add', '--scope', 'user', SERVER_NAME, ...env, '--', launch.command, ...args];
  return replacing ? [['mcp', 'remove', '--scope', 'user', SERVER_NAME], add] : [add];
}

/** A command line as a POSIX shell would take it, for showing (it is run without a shell). */
export function shellQuote(argv: readonly string[]): string {
  return argv.map((arg) => (/^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`)).join(' ');
}
