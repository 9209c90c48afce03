import { promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
  type AgentClientId,
  agentClient,
  claudeCliCommands,
  configFilePath,
  configurationSnippet,
  type ConfigLocations,
  SERVER_NAME,
  shellQuote,
} from '../core/agents/agentClients';
import { BACKUP_SUFFIX, readConfigFile, replaceConfigFile } from '../core/agents/configFile';
import { refreshExistingLauncher } from '../core/agents/launcher';
import { AgentConfigError } from '../core/agents/mergeServerEntry';
import { mergeServerEntryOffThread } from '../core/agents/mergeOffThread';
import { findOnPath, type ServerLaunch } from '../core/agents/serverLaunch';
import { errorMessage, UserError } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import type { Command } from '../common/command';
import { agentServerLaunch, launcherFolder, pathSearch, run, serverBundle } from './serverLauncher';

/** What the command connects: one of the clients, or the snippet copied to the clipboard. */
export type ConnectTarget = AgentClientId | 'copy';

/**
 * Arguments a test (or a script) gives instead of answering the pickers: which agent, and where the files are.
 * `confirm: true` writes without the confirmation dialog (the diff is still shown).
 */
export interface ConnectAgentArguments {
  readonly agent?: ConnectTarget;
  readonly home?: string;
  readonly globalStorage?: string;
  /** The `PATH` searched for `node` and `claude` (default: the extension host's). */
  readonly searchPath?: string;
  readonly confirm?: boolean;
}

export interface ConnectAgentResult {
  readonly agent: ConnectTarget;
  readonly launch: ServerLaunch;
  /** Whether a configuration was changed. */
  readonly written: boolean;
  /** The file shown and written (not for `claude mcp add` nor the clipboard). */
  readonly file?: string;
  /** The `claude` command lines run, each as its arguments after the program. */
  readonly commands?: readonly (readonly string[])[];
  /** An fdref entry was there and was replaced. */
  readonly replaced?: boolean;
}

/** The scheme of the read-only documents the diff shows: the file as it is, and as it will be. */
const PREVIEW_SCHEME = 'fdref-agent-config';
const CLI_TIMEOUT_MS = 60_000;

/**
 * `FD Refs: Connect an Agent...`: configures Claude Code, Cursor or Cline to start fdref's MCP server on this
 * workspace's store, showing the change (a diff, or the `claude` command line) before making it, or copies the
 * configuration. Constructing it registers the preview documents and brings an existing launcher up to date with
 * this version of the extension.
 */
export class ConnectAgentCommand implements Command {
  readonly id = 'fdref.connectAgent';
  private readonly previews = new Map<string, string>();
  private previewCount = 0;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly storeFolder: () => string,
    private readonly messages: UserMessages,
  ) {
    context.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(PREVIEW_SCHEME, {
        provideTextDocumentContent: (uri) => this.previews.get(uri.toString()),
      }),
    );
    refreshExistingLauncher(this.bundle, this.launcherFolder).then(
      (refresh) => {
        if (refresh === 'updated') this.messages.log.info('Updated the MCP server launcher that connected agents run.');
      },
      (error: unknown) => this.messages.log.warn(`Could not update the MCP server launcher: ${errorMessage(error)}`),
    );
  }

  async execute(arg?: unknown): Promise<ConnectAgentResult | undefined> {
    const given = parseArguments(arg);
    if (!vscode.workspace.isTrusted) {
      throw new UserError(
        'FD Refs connects agents only in a trusted workspace: the server they start runs commands and writes files in it.',
      );
    }
    const locations: ConfigLocations = {
      home: given.home ?? homedir(),
      globalStorage: given.globalStorage ?? path.dirname(this.context.globalStorageUri.fsPath),
      claudeConfigDir: given.home === undefined ? process.env['CLAUDE_CONFIG_DIR'] : undefined,
    };
    const searchPath = given.searchPath ?? process.env['PATH'];
    const agent = given.agent ?? (await this.pickAgent(locations));
    if (agent === undefined) return undefined;
    const launch = await this.launch(searchPath);
    if (agent === 'copy') {
      await vscode.env.clipboard.writeText(configurationSnippet(launch));
      void this.messages.info(
        `FD Refs copied the MCP configuration of its server ("${SERVER_NAME}" under "mcpServers") to the clipboard.`,
      );
      return { agent, launch, written: false };
    }
    if (agent === 'claude') {
      const claude = await findOnPath('claude', pathSearch(searchPath));
      if (claude !== undefined) return this.connectClaudeCli(claude, launch, locations, given);
    }
    return this.connectByFile(agent, launch, locations, given);
  }

  private get bundle(): string {
    return serverBundle(this.context);
  }

  private get launcherFolder(): string {
    return launcherFolder(this.context);
  }

  private async pickAgent(locations: ConfigLocations): Promise<ConnectTarget | undefined> {
    const items: (vscode.QuickPickItem & { target: ConnectTarget })[] = [
      {
        target: 'claude',
        label: 'Claude Code',
        description: `claude mcp add, or ${displayPath(configFilePath('claude', locations), locations.home)}`,
      },
      {
        target: 'cursor',
        label: 'Cursor',
        description: displayPath(configFilePath('cursor', locations), locations.home),
      },
      { target: 'cline', label: 'Cline', description: displayPath(configFilePath('cline', locations), locations.home) },
      { target: 'copy', label: 'Copy the configuration', description: 'the JSON for any other MCP client' },
    ];
    const picked = await vscode.window.showQuickPick(items, {
      title: 'Connect an Agent',
      placeHolder: 'The agent that should start fdref’s MCP server on this workspace',
    });
    return picked?.target;
  }

  /** The server's command line: the launcher (brought up to date), run by Node from the PATH or VS Code's runtime. */
  private launch(searchPath: string | undefined): Promise<ServerLaunch> {
    return agentServerLaunch(this.context, this.storeFolder(), searchPath);
  }

  private async connectByFile(
    agent: AgentClientId,
    launch: ServerLaunch,
    locations: ConfigLocations,
    given: ConnectAgentArguments,
  ): Promise<ConnectAgentResult> {
    const client = agentClient(agent);
    const file = configFilePath(agent, locations);
    const label = displayPath(file, locations.home);
    const state = await readConfigFile(file, label).catch(asUserError);
    // On a worker thread: a configuration can be megabytes (Claude Code's state), and this thread runs every extension.
    const merge = await mergeServerEntryOffThread(
      { existing: state.text, entry: client.entry(launch), allowsComments: client.allowsComments, fileLabel: label },
      this.context.asAbsolutePath(path.join('dist', 'agentConfigMerge.js')),
    ).catch(asUserError);
    if (merge.merged === state.text) {
      void this.messages.info(`${client.label} is already connected: ${label} holds this configuration.`);
      return { agent, launch, written: false, file, replaced: false };
    }
    await this.showDiff(client.label, label, state.text ?? '', merge.merged);
    const change = merge.created
      ? `Creates ${label} with the "${SERVER_NAME}" server.`
      : `${merge.replaced ? `Replaces the "${SERVER_NAME}" server` : `Adds the "${SERVER_NAME}" server`} in ${label}; every other entry stays. The previous file is kept as ${path.basename(file)}${BACKUP_SUFFIX}.`;
    if (!(await this.confirmed(given, `Connect ${client.label} to FD Refs?`, change))) {
      return { agent, launch, written: false, file, replaced: merge.replaced };
    }
    await replaceConfigFile(state, merge.merged, label).catch(asUserError);
    void this.messages.info(
      `${client.label} will start FD Refs' MCP server ("${SERVER_NAME}" in ${label}); restart it or reload its MCP servers to use it.`,
    );
    return { agent, launch, written: true, file, replaced: merge.replaced };
  }

  private async connectClaudeCli(
    claude: string,
    launch: ServerLaunch,
    locations: ConfigLocations,
    given: ConnectAgentArguments,
  ): Promise<ConnectAgentResult> {
    const replacing = await hasClaudeEntry(configFilePath('claude', locations));
    const commands = claudeCliCommands(launch, replacing);
    const shown = commands.map((args) => shellQuote(['claude', ...args])).join('\n');
    if (!(await this.confirmed(given, 'Connect Claude Code to FD Refs? FD Refs will run:', shown))) {
      return { agent: 'claude', launch, written: false, commands };
    }
    const env = given.home === undefined ? process.env : { ...process.env, HOME: given.home, USERPROFILE: given.home };
    if (given.home !== undefined) delete env['CLAUDE_CONFIG_DIR'];
    for (const args of commands) {
      try {
        await run(claude, args, { env, timeout: CLI_TIMEOUT_MS, windowsHide: true });
      } catch (error) {
        const stderr = (error as { stderr?: unknown }).stderr;
        const said = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : errorMessage(error);
        throw new UserError(`\`${shellQuote(['claude', ...args])}\` failed: ${said}`);
      }
    }
    void this.messages.info(
      `Claude Code will start FD Refs' MCP server ("${SERVER_NAME}", user scope) in every project; start a new session to use it.`,
    );
    return { agent: 'claude', launch, written: true, commands, replaced: replacing };
  }

  private async showDiff(clientLabel: string, fileLabel: string, before: string, after: string): Promise<void> {
    this.previews.clear();
    const run = ++this.previewCount;
    const name = path.basename(fileLabel);
    const left = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/current/${name}`, query: String(run) });
    const right = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/with-fdref/${name}`, query: String(run) });
    this.previews.set(left.toString(), before);
    this.previews.set(right.toString(), after);
    await vscode.commands.executeCommand('vscode.diff', left, right, `${clientLabel}: ${fileLabel} ↔ with FD Refs`, {
      preview: true,
    });
  }

  private async confirmed(given: ConnectAgentArguments, question: string, detail: string): Promise<boolean> {
    if (given.confirm === true) return true;
    const answer = await this.messages.ask('info', question, detail, 'Connect');
    return answer === 'Connect';
  }
}

function parseArguments(arg: unknown): ConnectAgentArguments {
  if (typeof arg !== 'object' || arg === null) return {};
  const given = arg as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof given[key] === 'string' ? given[key] : undefined);
  const agent = text('agent');
  if (agent !== undefined && !['claude', 'cursor', 'cline', 'copy'].includes(agent)) {
    throw new UserError(`There is no agent "${agent}" to connect: claude, cursor, cline or copy.`);
  }
  const home = text('home');
  const globalStorage = text('globalStorage');
  const searchPath = text('searchPath');
  return {
    ...(agent === undefined ? {} : { agent: agent as ConnectTarget }),
    ...(home === undefined ? {} : { home }),
    ...(globalStorage === undefined ? {} : { globalStorage }),
    ...(searchPath === undefined ? {} : { searchPath }),
    confirm: given['confirm'] === true,
  };
}

/** Whether Claude Code's user configuration has an fdref server now (then `claude mcp add` must be preceded by remove). */
async function hasClaudeEntry(file: string): Promise<boolean> {
  try {
    const config = JSON.parse(await fs.readFile(file, 'utf8')) as { mcpServers?: Record<string, unknown> } | null;
    return typeof config?.mcpServers === 'object' && Object.hasOwn(config.mcpServers, SERVER_NAME);
  } catch {
    return false; // no file, or one `claude` itself will complain about
  }
}

/** `~/.cursor/mcp.json` for a file under the home folder, the full path otherwise. */
function displayPath(file: string, home: string): string {
  return file.startsWith(home + path.sep) ? `~${path.sep}${path.relative(home, file)}` : file;
}

/** The configuration errors are the user's to fix: shown as they are. */
function asUserError(error: unknown): never {
  if (error instanceof AgentConfigError) throw new UserError(error.message);
  throw error;
}
