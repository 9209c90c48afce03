/**
 * `hook <agent> --store <folder> [--preview-chars N] [--mcp]`: the pre-tool hook an agent runs before its shell
 * tool (installed by Connect an Agent). It reads the agent's hook input on stdin, and when the call runs shell
 * command lines fdref should keep, prints the agent's answer that runs each through the wrapper
 * (`<node> <cli> run --store … -- '<command>'`, behind a shell front on Linux: see FRONT in wrapperCommand.ts). Whatever goes wrong (input too large or too slow, not JSON, a
 * store that is not there, an unknown option), it prints nothing and exits 0: the agent's tool then runs exactly as
 * it would without fdref. It writes nothing to stderr either, which Gemini CLI would read as the hook's answer.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { bashRules, claudeCliRules, defersToClaudeRules, joinRules } from '../core/agents/hooks/claudePermissions';
import type { BashRules } from '../core/agents/hooks/claudePermissions';
import { hookAgent, isHookAgentId } from '../core/agents/hooks/hookAgents';
import { shouldWrap } from '../core/agents/hooks/shouldWrap';
import { FRONT, frontFileName, hookedCommandLine } from '../core/agents/hooks/wrapperCommand';
import type { CliLaunch, HookAgentId } from '../core/agents/hooks/wrapperCommand';
import type { CliIo, Subcommand } from './subcommand';

/** The most a hook input may hold: a shell call's input is small; a larger one is not a shell call fdref rewrites. */
export const MAX_HOOK_INPUT_BYTES = 1024 * 1024;
/** How long the hook waits for the agent to finish writing its input. */
export const HOOK_INPUT_TIMEOUT_MS = 5000;

export const hook: Subcommand = (argv, io) =>
  runHook(argv, io, { node: process.execPath, cli: path.resolve(process.argv[1] ?? ''), platform: process.platform });

interface HookOptions {
  readonly agent: HookAgentId;
  readonly store: string;
  readonly previewChars: number | undefined;
  readonly mcp: boolean;
}

/** The hook with the wrapper's Node and script given (tests run it in-process); always resolves to 0. */
export async function runHook(
  argv: readonly string[],
  io: CliIo,
  launch: Omit<CliLaunch, 'store'> & { readonly platform: NodeJS.Platform },
  limits: { maxBytes: number; timeoutMs: number } = {
    maxBytes: MAX_HOOK_INPUT_BYTES,
    timeoutMs: HOOK_INPUT_TIMEOUT_MS,
  },
): Promise<number> {
  try {
    const options = parseHookOptions(argv, io.env);
    if (options === undefined) return 0;
    const agent = hookAgent(options.agent);
    const protocol = agent.protocol;
    if (protocol === undefined) return 0;
    const input = await readBounded(io.stdin, limits.maxBytes, limits.timeoutMs);
    if (input === undefined) return 0;
    const call = protocol.parse(JSON.parse(input) as unknown);
    if (call === undefined) return 0;
    if (!(await isFolder(path.resolve(io.cwd, options.store))) || !(await isFile(launch.cli))) return 0;
    const rules = options.agent === 'claude-code' ? await claudeRules(io.env, call.cwd ?? io.cwd) : undefined;
    const store = path.resolve(io.cwd, options.store);
    const front = launch.platform === 'linux' ? await frontFile(store) : undefined;
    const wrapper = {
      node: launch.node,
      cli: launch.cli,
      store,
      agent: options.agent,
      conversation: call.conversation,
      previewChars: options.previewChars ?? agent.previewChars,
      mcp: options.mcp,
    };
    let changed = false;
    const answer = protocol.respond(call, (command) => {
      if (!shouldWrap(command).wrap || (rules !== undefined && defersToClaudeRules(command, rules))) return command;
      changed = true;
      return hookedCommandLine(wrapper, command, front);
    });
    if (changed) await write(io.stdout, `${answer}\n`);
  } catch {
    // No opinion: the agent's tool runs as it would without fdref.
  }
  return 0;
}

/**
 * The shell front's file in the store's `bin` folder (see FRONT in wrapperCommand.ts), written (temporary file,
 * then rename) when it is not there yet; undefined when it cannot be, and the hook then writes the Node line.
 */
async function frontFile(store: string): Promise<string | undefined> {
  const file = path.join(store, 'bin', frontFileName());
  if (await isFile(file)) return file;
  const temp = `${file}.${process.pid}-${randomBytes(4).toString('hex')}.tmp`;
  try {
    await fs.mkdir(path.dirname(file), { recursive: true });
    await fs.writeFile(temp, FRONT, { flag: 'wx', mode: 0o644 });
    await fs.rename(temp, file);
    return file;
  } catch {
    await fs.rm(temp, { force: true }).catch(() => undefined);
    return undefined;
  }
}

/** The options, or undefined for a command line the hook cannot act on (it then has no opinion). */
function parseHookOptions(argv: readonly string[], env: NodeJS.ProcessEnv): HookOptions | undefined {
  const [agent, ...rest] = argv;
  if (agent === undefined || !isHookAgentId(agent)) return undefined;
  let store = env['FDREF_STORE'];
  let previewChars: number | undefined;
  let mcp = false;
  for (let i = 0; i < rest.length; i++) {
    const arg = rest[i] as string;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    if (name === '--mcp' && inline === undefined) mcp = true;
    else if (name === '--store' || name === '--preview-chars') {
      const value = inline ?? rest[++i];
      if (value === undefined || value === '') return undefined;
      if (name === '--store') store = value;
      else if (/^[1-9]\d{0,8}$/.test(value)) previewChars = Number(value);
      else return undefined;
    } else return undefined;
  }
  return store === undefined || store === '' ? undefined : { agent, store, previewChars, mcp };
}

/** The stream's text, or undefined when it holds more than `maxBytes`, is not UTF-8, or takes longer than `timeoutMs`. */
function readBounded(stream: NodeJS.ReadableStream, maxBytes: number, timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const finish = (value: string | undefined): void => {
      clearTimeout(timer);
      stream.removeListener('data', onData);
      stream.removeListener('end', onEnd);
      stream.removeListener('error', onError);
      // An input cut short stays unread: let go of the stream so nothing keeps the process waiting on it.
      const destroyable = stream as Partial<Pick<NodeJS.ReadStream, 'destroy'>>;
      if (value === undefined && destroyable.destroy !== undefined) destroyable.destroy();
      else stream.pause();
      resolve(value);
    };
    const onData = (chunk: Buffer | string): void => {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += bytes.length;
      if (size > maxBytes) finish(undefined);
      else chunks.push(bytes);
    };
    const onEnd = (): void => {
      try {
        finish(new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks)));
      } catch {
        finish(undefined);
      }
    };
    const onError = (): void => finish(undefined);
    const timer = setTimeout(() => finish(undefined), timeoutMs);
    stream.on('data', onData);
    stream.on('end', onEnd);
    stream.on('error', onError);
    stream.resume();
  });
}

/** The most a settings file may hold for the hook to read it. */
const MAX_SETTINGS_BYTES = 1024 * 1024;

/** Claude Code's Bash permission rules: of its settings files, and of its command line where the system shows it. */
async function claudeRules(env: NodeJS.ProcessEnv, cwd: string): Promise<BashRules> {
  const settingsFiles: string[] = [];
  const cli = claudeCliRules(await claudeCommandLine(), settingsFiles);
  const settings = await claudeSettings(
    env,
    cwd,
    settingsFiles.map((file) => path.resolve(cwd, file)),
  );
  return joinRules(bashRules(settings), cli);
}

const RULE_OPTION = /^--(?:allowedTools|allowed-tools|disallowedTools|disallowed-tools|settings)(?:=|$)/;

/**
 * The command line of the nearest of the hook's ancestors (Claude Code runs it through a shell) that names a rule
 * option, read from Linux's `/proc`; empty where there is none or no `/proc`.
 */
async function claudeCommandLine(): Promise<string[]> {
  let pid = process.ppid;
  for (let depth = 0; depth < 4 && pid > 1; depth++) {
    try {
      const argv = (await fs.readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0').slice(0, -1);
      if (argv.some((arg) => RULE_OPTION.test(arg))) return argv;
      const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
      // `pid (command) state ppid …`: the command may hold spaces and parentheses, so read after the last `)`.
      pid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    } catch {
      return [];
    }
  }
  return [];
}

/**
 * Claude Code's settings files that hold permission rules, each parsed (a missing or unreadable one is left out):
 * managed policy, the user's, the project's shared and local ones, and those given with `--settings`.
 */
async function claudeSettings(env: NodeJS.ProcessEnv, cwd: string, extra: readonly string[]): Promise<unknown[]> {
  const home = env['HOME'];
  const userFolder = env['CLAUDE_CONFIG_DIR'] || (home ? path.join(home, '.claude') : undefined);
  const project = path.resolve(env['CLAUDE_PROJECT_DIR'] || cwd);
  const files = [
    process.platform === 'darwin'
      ? '/Library/Application Support/ClaudeCode/managed-settings.json'
      : '/etc/claude-code/managed-settings.json',
    ...(userFolder === undefined ? [] : [path.join(userFolder, 'settings.json')]),
    path.join(project, '.claude', 'settings.json'),
    path.join(project, '.claude', 'settings.local.json'),
    ...extra,
  ];
  const read = async (file: string): Promise<unknown> => {
    try {
      const stat = await fs.stat(file);
      if (!stat.isFile() || stat.size > MAX_SETTINGS_BYTES) return undefined;
      return JSON.parse(await fs.readFile(file, 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  };
  return Promise.all(files.map(read));
}

async function isFolder(folder: string): Promise<boolean> {
  return fs.stat(folder).then(
    (stat) => stat.isDirectory(),
    () => false,
  );
}

async function isFile(file: string): Promise<boolean> {
  return fs.stat(file).then(
    (stat) => stat.isFile(),
    () => false,
  );
}

function write(stream: NodeJS.WritableStream, text: string): Promise<void> {
  return new Promise((resolve, reject) => stream.write(text, (error) => (error ? reject(error) : resolve())));
}
