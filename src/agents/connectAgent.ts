import { existsSync, promises as fs } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { claudeCliCommands, configurationSnippet, SERVER_NAME, shellQuote } from '../core/agents/agentClients';
import {
  BACKUP_SUFFIX,
  type ConfigFileState,
  deleteConfigFile,
  readConfigFile,
  replaceConfigFile,
} from '../core/agents/configFile';
import {
  CONNECT_AGENT_IDS,
  connectAgentSummary,
  type ConnectAgentId,
  type ConnectLaunches,
  type ConnectLocations,
  type ConnectPlan,
  displayPath,
  plannedPaths,
} from '../core/agents/connectPlan';
import type { HookScope } from '../core/agents/hooks/hookAgents';
import { refreshExistingLauncher, refreshLauncher } from '../core/agents/launcher';
import { AgentConfigError } from '../core/agents/mergeServerEntry';
import { planOffThread, type PlanRequest } from '../core/agents/mergeOffThread';
import { findOnPath, type ServerLaunch } from '../core/agents/serverLaunch';
import { errorMessage, UserError } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import type { Command } from '../common/command';
import { agentServerLaunch, launcherFolder, pathSearch, run, serverBundle } from './serverLauncher';

/** What the command connects: one of the agents, or the snippet copied to the clipboard. */
export type ConnectTarget = ConnectAgentId | 'copy';

/** The ids of 0.1 (`claude`), still taken from scripts and keybindings. */
const OLD_IDS: Readonly<Record<string, ConnectAgentId>> = { claude: 'claude-code' };

/**
 * The environment variable that moves the home folder Connect writes in: the `npm start` demo sets it to its
 * temporary profile, so connecting an agent there never touches the real home folder.
 */
export const AGENT_HOME_VARIABLE = 'FDREF_AGENT_HOME';

/**
 * Arguments a test (or a script) gives instead of answering the pickers: which agent, at which scope (user when an
 * agent is given without one, as before scopes), and where the files are. `confirm: true` writes without the
 * confirmation dialog (the diffs are still shown).
 */
export interface ConnectAgentArguments {
  readonly agent?: ConnectTarget;
  readonly scope?: HookScope;
  readonly home?: string;
  readonly globalStorage?: string;
  /** The `PATH` searched for `node` and `claude` (default: the extension host's). */
  readonly searchPath?: string;
  readonly confirm?: boolean;
}

export interface ConnectAgentResult {
  readonly agent: ConnectTarget;
  readonly scope?: HookScope;
  readonly launch: ServerLaunch;
  /** Whether a configuration was changed. */
  readonly written: boolean;
  /** The first file shown and written: the server's where the agent gets one (not for `claude mcp add`). */
  readonly file?: string;
  /** Every file shown and written (deleted, for Disconnect), in order. */
  readonly files?: readonly string[];
  /** The `claude` command lines run, each as its arguments after the program. */
  readonly commands?: readonly (readonly string[])[];
  /** An fdref entry was there and was replaced (Connect), or removed (Disconnect). */
  readonly replaced?: boolean;
  /** What the user was told beside the diffs. */
  readonly notes?: readonly string[];
}

/** The scheme of the read-only documents the diff shows: the file as it is, and as it will be. */
const PREVIEW_SCHEME = 'fdref-agent-config';
const CLI_TIMEOUT_MS = 60_000;

/** Where the agents' files are for one run of the command, and whether the home folder is the demo's. */
interface Where {
  readonly locations: ConnectLocations;
  /** Set when the home folder is not the user's (FDREF_AGENT_HOME): every message names it. */
  readonly movedHome?: string;
}

/**
 * `FD Refs: Connect an Agent...` and `FD Refs: Disconnect an Agent...`: configure an agent (Claude Code, Codex,
 * Gemini CLI, Qwen Code, Cline, VS Code's Copilot, Continue, Cursor) to start fdref's MCP server on this workspace's
 * store and to keep its own shell tool's output through fdref's hook (or its instructions file), at user or project
 * scope, showing each file's change before making it (`connectPlan.ts`); and take exactly that out again. Constructing
 * it registers the preview documents and brings an existing launcher up to date with this version of the extension.
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
    // Both launchers: the server's, and the command-line tool's that connected agents' hooks run.
    for (const [bundle, what] of [
      [this.bundle, 'MCP server launcher'],
      [this.cliBundle, 'command-line tool launcher'],
    ] as const) {
      refreshExistingLauncher(bundle, this.launcherFolder).then(
        (refresh) => {
          if (refresh === 'updated') this.messages.log.info(`Updated the ${what} that connected agents run.`);
        },
        (error: unknown) => this.messages.log.warn(`Could not update the ${what}: ${errorMessage(error)}`),
      );
    }
  }

  /** The matching `FD Refs: Disconnect an Agent...`. */
  disconnectCommand(): Command {
    return { id: 'fdref.disconnectAgent', execute: (arg?: unknown) => this.disconnect(arg) };
  }

  async execute(arg?: unknown): Promise<ConnectAgentResult | undefined> {
    const given = parseArguments(arg);
    if (!vscode.workspace.isTrusted) {
      throw new UserError(
        'FD Refs connects agents only in a trusted workspace: the server they start runs commands and writes files in it.',
      );
    }
    const where = this.where(given);
    const searchPath = given.searchPath ?? process.env['PATH'];
    const agent = given.agent ?? (await this.pickAgent('Connect an Agent', true));
    if (agent === undefined) return undefined;
    const launch = await this.launch(searchPath);
    if (agent === 'copy') {
      await vscode.env.clipboard.writeText(configurationSnippet(launch));
      void this.messages.info(
        `FD Refs copied the MCP configuration of its server ("${SERVER_NAME}" under "mcpServers") to the clipboard.`,
      );
      return { agent, launch, written: false };
    }
    const scope =
      given.scope ?? (given.agent !== undefined ? 'user' : await this.pickScope(agent, where.locations, 'Connect'));
    if (scope === undefined) return undefined;
    const launches: ConnectLaunches = { server: launch, cli: await this.cliLaunch(launch) };
    const texts = await readAll(plannedPaths(agent, scope, where.locations), where.locations);
    const plan = await this.plan({
      plan: 'connect',
      agent,
      scope,
      locations: where.locations,
      launches,
      texts: textsOf(texts),
    });
    if (agent === 'claude-code' && scope === 'user') {
      const claude = await findOnPath('claude', pathSearch(searchPath));
      if (claude !== undefined) return this.connectClaudeCli(claude, launch, plan, texts, where, given);
    }
    return this.applyPlan(plan, texts, where, given, launch, 'Connect');
  }

  private async disconnect(arg?: unknown): Promise<ConnectAgentResult | undefined> {
    const given = parseArguments(arg);
    const where = this.where(given);
    const agent = given.agent ?? (await this.pickAgent('Disconnect an Agent', false));
    if (agent === undefined || agent === 'copy') return undefined;
    const scope =
      given.scope ?? (given.agent !== undefined ? 'user' : await this.pickScope(agent, where.locations, 'Disconnect'));
    if (scope === undefined) return undefined;
    const texts = await readAll(plannedPaths(agent, scope, where.locations), where.locations);
    const plan = await this.plan({
      plan: 'disconnect',
      agent,
      scope,
      locations: where.locations,
      texts: textsOf(texts),
    });
    const launch: ServerLaunch = { command: '', args: [], env: {} };
    return this.applyPlan({ ...plan, notes: [] }, texts, where, given, launch, 'Disconnect');
  }

  /** The plan, made on a worker thread: a configuration can be megabytes (Claude Code's state). */
  private plan(request: PlanRequest): Promise<ConnectPlan> {
    return planOffThread(request, this.context.asAbsolutePath(path.join('dist', 'agentConfigMerge.js'))).catch(
      asUserError,
    );
  }

  private where(given: ConnectAgentArguments): Where {
    const moved = given.home ?? nonEmpty(process.env[AGENT_HOME_VARIABLE]);
    const env = (name: string): string | undefined => (moved === undefined ? nonEmpty(process.env[name]) : undefined);
    const locations: ConnectLocations = {
      home: moved ?? homedir(),
      workspace: vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme === 'file')?.uri.fsPath,
      globalStorage: given.globalStorage ?? path.dirname(this.context.globalStorageUri.fsPath),
      claudeConfigDir: env('CLAUDE_CONFIG_DIR'),
      codexHome: env('CODEX_HOME'),
      clineDir: env('CLINE_DIR'),
      continueDir: env('CONTINUE_GLOBAL_DIR'),
    };
    const fromVariable = given.home === undefined && moved !== undefined;
    return { locations, ...(fromVariable ? { movedHome: moved } : {}) };
  }

  private get bundle(): string {
    return serverBundle(this.context);
  }

  private get cliBundle(): string {
    return this.context.asAbsolutePath(path.join('dist', 'cli.js'));
  }

  private get launcherFolder(): string {
    return launcherFolder(this.context);
  }

  private async pickAgent(title: string, withCopy: boolean): Promise<ConnectTarget | undefined> {
    const items: (vscode.QuickPickItem & { target: ConnectTarget })[] = CONNECT_AGENT_IDS.map((target) => {
      const summary = connectAgentSummary(target);
      return { target, label: summary.label, description: summary.gets };
    });
    if (withCopy) {
      items.push({ target: 'copy', label: 'Copy the configuration', description: 'the JSON for any other MCP client' });
    }
    const picked = await vscode.window.showQuickPick(items, {
      title,
      placeHolder:
        title === 'Connect an Agent'
          ? 'The agent that should start fdref’s MCP server on this workspace and keep its shell output in fdref'
          : 'The agent whose fdref entries (server, hook, instructions) to remove',
    });
    return picked?.target;
  }

  private async pickScope(
    agent: ConnectAgentId,
    locations: ConnectLocations,
    verb: 'Connect' | 'Disconnect',
  ): Promise<HookScope | undefined> {
    if (locations.workspace === undefined) return 'user';
    const files = (scope: HookScope): string =>
      plannedPaths(agent, scope, locations)
        .map((file) => shortPath(file, locations))
        .join(', ');
    const items: (vscode.QuickPickItem & { scope: HookScope })[] = [
      { scope: 'user', label: 'User: every project', description: files('user') },
      { scope: 'project', label: 'This workspace only', description: files('project') },
    ];
    const picked = await vscode.window.showQuickPick(items, { title: `${verb} ${connectAgentSummary(agent).label}` });
    return picked?.scope;
  }

  /** The server's command line: the launcher (brought up to date), run by Node from the PATH or VS Code's runtime. */
  private launch(searchPath: string | undefined): Promise<ServerLaunch> {
    return agentServerLaunch(this.context, this.storeFolder(), searchPath);
  }

  /**
   * The command line the hooks run: fdref's command-line tool, copied beside the server's launcher, run by the same
   * Node. Without a Node on the PATH (the server then runs on VS Code's runtime, which needs a variable a hook's
   * command line cannot set) or without the tool in this build there is no hook, and the user is told why.
   */
  private async cliLaunch(server: ServerLaunch): Promise<ConnectLaunches['cli']> {
    if (Object.keys(server.env).length > 0) {
      return { missing: 'fdref’s hooks run its command-line tool with Node 20.9 or later, and none is on the PATH.' };
    }
    const bundle = this.cliBundle;
    if (!existsSync(bundle)) return { missing: 'this build of FD Refs has no command-line tool (dist/cli.js).' };
    const launcher = await refreshLauncher(bundle, this.launcherFolder);
    return { node: server.command, cli: launcher.path, store: this.storeFolder() };
  }

  /** Shows the plan's diffs and notes, asks, and writes each file (keeping a backup); the command's result. */
  private async applyPlan(
    plan: ConnectPlan,
    texts: ReadonlyMap<string, ConfigFileState>,
    where: Where,
    given: ConnectAgentArguments,
    launch: ServerLaunch,
    verb: 'Connect' | 'Disconnect',
  ): Promise<ConnectAgentResult> {
    const label = connectAgentSummary(plan.agent).label;
    const base = {
      agent: plan.agent,
      scope: plan.scope,
      launch,
      notes: plan.notes,
      files: plan.files.map((file) => file.path),
      ...(plan.files[0] === undefined ? {} : { file: plan.files[0].path }),
      replaced: plan.files.some((file) => file.hadFdref),
    };
    const demo = where.movedHome === undefined ? '' : ` (in the home folder ${where.movedHome}, not yours)`;
    if (plan.files.length === 0) {
      void this.messages.info(
        verb === 'Connect'
          ? `${label} is already connected${demo}: its files hold this configuration.`
          : `${label} has no FD Refs entries to remove${demo}.`,
      );
      return { ...base, written: false };
    }
    await this.showDiffs(label, plan, verb);
    const detail = [
      ...plan.files.map((file) => describeChange(file, verb)),
      ...(where.movedHome === undefined
        ? []
        : [`The home folder is ${where.movedHome} (${AGENT_HOME_VARIABLE}), not yours.`]),
      ...plan.notes,
    ].join('\n\n');
    if (
      !(await this.confirmed(given, `${verb} ${label} ${verb === 'Connect' ? 'to' : 'from'} FD Refs?`, detail, verb))
    ) {
      return { ...base, written: false };
    }
    for (const file of plan.files) {
      const state = texts.get(file.path);
      if (state === undefined) continue;
      const withMode = file.mode !== undefined && state.mode === undefined ? { ...state, mode: file.mode } : state;
      await (
        file.after === undefined
          ? deleteConfigFile(state, file.label)
          : replaceConfigFile(withMode, file.after, file.label)
      ).catch(asUserError);
    }
    const done =
      verb === 'Connect'
        ? `${label} is connected to FD Refs${demo}: ${plan.files.map((file) => file.label).join(', ')}. Restart it (or start a new session) to use it.`
        : `${label} is disconnected from FD Refs${demo}: its entries are gone from ${plan.files.map((file) => file.label).join(', ')}.`;
    void this.messages.info([done, ...plan.notes].join(' '));
    return { ...base, written: true };
  }

  private async connectClaudeCli(
    claude: string,
    launch: ServerLaunch,
    plan: ConnectPlan,
    texts: ReadonlyMap<string, ConfigFileState>,
    where: Where,
    given: ConnectAgentArguments,
  ): Promise<ConnectAgentResult> {
    // `claude mcp add` writes the server; the plan's other files (the hook in settings.json) are written beside it.
    const serverFile = path.join(where.locations.claudeConfigDir || where.locations.home, '.claude.json');
    const replacing = await hasClaudeEntry(serverFile);
    const commands = claudeCliCommands(launch, replacing);
    const rest: ConnectPlan = { ...plan, files: plan.files.filter((file) => file.path !== serverFile) };
    const shown = commands.map((args) => shellQuote(['claude', ...args])).join('\n');
    if (rest.files.length > 0) await this.showDiffs('Claude Code', rest, 'Connect');
    const detail = [shown, ...rest.files.map((file) => describeChange(file, 'Connect')), ...plan.notes].join('\n\n');
    if (!(await this.confirmed(given, 'Connect Claude Code to FD Refs? FD Refs will run:', detail, 'Connect'))) {
      return { agent: 'claude-code', scope: 'user', launch, written: false, commands };
    }
    const home = where.movedHome ?? given.home;
    const env = home === undefined ? process.env : { ...process.env, HOME: home, USERPROFILE: home };
    if (home !== undefined) delete env['CLAUDE_CONFIG_DIR'];
    for (const args of commands) {
      try {
        await run(claude, args, { env, timeout: CLI_TIMEOUT_MS, windowsHide: true });
      } catch (error) {
        const stderr = (error as { stderr?: unknown }).stderr;
        const said = typeof stderr === 'string' && stderr.trim() !== '' ? stderr.trim() : errorMessage(error);
        throw new UserError(`\`${shellQuote(['claude', ...args])}\` failed: ${said}`);
      }
    }
    for (const file of rest.files) {
      const state = texts.get(file.path);
      if (state !== undefined && file.after !== undefined) {
        await replaceConfigFile(state, file.after, file.label).catch(asUserError);
      }
    }
    void this.messages.info(
      [
        `Claude Code will start FD Refs' MCP server ("${SERVER_NAME}", user scope) in every project${rest.files.length > 0 ? ' and keep its Bash output through fdref’s hook' : ''}; start a new session to use it.`,
        ...plan.notes,
      ].join(' '),
    );
    return {
      agent: 'claude-code',
      scope: 'user',
      launch,
      written: true,
      commands,
      replaced: replacing,
      files: rest.files.map((file) => file.path),
      notes: plan.notes,
    };
  }

  /** One diff per file: VS Code's multi-file changes editor for several (where it has one), else one after another. */
  private async showDiffs(agentLabel: string, plan: ConnectPlan, verb: 'Connect' | 'Disconnect'): Promise<void> {
    this.previews.clear();
    const run = ++this.previewCount;
    const pairs = plan.files.map((file, i) => {
      const name = `${i}/${path.basename(file.path)}`;
      const left = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/current/${name}`, query: String(run) });
      const right = vscode.Uri.from({ scheme: PREVIEW_SCHEME, path: `/with-fdref/${name}`, query: String(run) });
      this.previews.set(left.toString(), file.before ?? '');
      this.previews.set(right.toString(), file.after ?? '');
      return { file, left, right };
    });
    const arrow = verb === 'Connect' ? '↔ with FD Refs' : '↔ without FD Refs';
    const [only] = pairs;
    if (pairs.length === 1 && only !== undefined) {
      await vscode.commands.executeCommand(
        'vscode.diff',
        only.left,
        only.right,
        `${agentLabel}: ${only.file.label} ${arrow}`,
        {
          preview: true,
        },
      );
      return;
    }
    try {
      await vscode.commands.executeCommand(
        'vscode.changes',
        `${agentLabel}: ${verb === 'Connect' ? 'what FD Refs will write' : 'what FD Refs will remove'}`,
        pairs.map(({ file, left, right }) => [vscode.Uri.file(file.path), left, right]),
      );
    } catch {
      for (const { file, left, right } of pairs) {
        await vscode.commands.executeCommand('vscode.diff', left, right, `${agentLabel}: ${file.label} ${arrow}`, {
          preview: false,
        });
      }
    }
  }

  private async confirmed(
    given: ConnectAgentArguments,
    question: string,
    detail: string,
    action: 'Connect' | 'Disconnect',
  ): Promise<boolean> {
    if (given.confirm === true) return true;
    const answer = await this.messages.ask(action === 'Disconnect' ? 'warning' : 'info', question, detail, action);
    return answer === action;
  }
}

/** One file's line in the confirmation: what happens to it, and its backup. */
function describeChange(file: ConnectPlan['files'][number], verb: 'Connect' | 'Disconnect'): string {
  const what = file.entries.join(' and ');
  const backup = `the previous file is kept as ${path.basename(file.path)}${BACKUP_SUFFIX}`;
  if (file.before === undefined) return `Creates ${file.label} with ${what}.`;
  if (file.after === undefined) return `Deletes ${file.label}, which held only ${what}; ${backup}.`;
  return verb === 'Connect'
    ? `${file.hadFdref ? 'Replaces' : 'Adds'} ${what} in ${file.label}; everything else stays, and ${backup}.`
    : `Removes ${what} from ${file.label}; everything else stays, and ${backup}.`;
}

function textsOf(states: ReadonlyMap<string, ConfigFileState>): Record<string, string | undefined> {
  return Object.fromEntries([...states].map(([file, state]) => [file, state.text]));
}

/** Every planned file as read now (symbolic links followed); a file fdref will not read is the user's to fix. */
async function readAll(files: readonly string[], locations: ConnectLocations): Promise<Map<string, ConfigFileState>> {
  const read = new Map<string, ConfigFileState>();
  for (const file of files) read.set(file, await readConfigFile(file, displayPath(file, locations)).catch(asUserError));
  return read;
}

function parseArguments(arg: unknown): ConnectAgentArguments {
  if (typeof arg !== 'object' || arg === null) return {};
  const given = arg as Record<string, unknown>;
  const text = (key: string): string | undefined => (typeof given[key] === 'string' ? given[key] : undefined);
  const named = text('agent');
  const agent = named === undefined ? undefined : (OLD_IDS[named] ?? named);
  const known: readonly string[] = [...CONNECT_AGENT_IDS, 'copy'];
  if (agent !== undefined && !known.includes(agent)) {
    throw new UserError(`There is no agent "${named}" to connect: ${known.join(', ')}.`);
  }
  const scope = text('scope');
  if (scope !== undefined && scope !== 'user' && scope !== 'project') {
    throw new UserError(`There is no scope "${scope}": user or project.`);
  }
  const home = text('home');
  const globalStorage = text('globalStorage');
  const searchPath = text('searchPath');
  return {
    ...(agent === undefined ? {} : { agent: agent as ConnectTarget }),
    ...(scope === undefined ? {} : { scope }),
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

/** A path in the workspace relative to it, one under the home folder from `~`, any other in full. */
function shortPath(file: string, locations: ConnectLocations): string {
  const workspace = locations.workspace;
  if (workspace !== undefined && file.startsWith(workspace + path.sep)) return path.relative(workspace, file);
  return displayPath(file, locations);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

/** The configuration errors are the user's to fix: shown as they are. */
function asUserError(error: unknown): never {
  if (error instanceof AgentConfigError) throw new UserError(error.message);
  throw error;
}
