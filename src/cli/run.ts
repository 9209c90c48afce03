/**
 * `run --store <folder> --agent <id> [--conversation <id>] [--preview-chars <n>] [--mcp] -- <command line>`: runs
 * the command as the agent's shell tool would have (see wrapperRun.ts) and keeps its output whole in the agent's
 * session (see outputKeeper.ts); exits with the command's own status.
 *
 * The session: one per agent conversation when the hook passes `--conversation`; without it, one per agent and
 * local day. Not one per wrapper process (each command of an agent is a process of its own, so that would make a
 * session per command) and not one per parent process (agents start a new shell for each command too): a day
 * groups an agent's commands the way a person looks for them afterwards, and is what the terminal's own kept
 * commands do (`terminal` sessions, one per day).
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../core/errors';
import { agentShell, runWrapped, WrapperStartError } from '../core/process/wrapperRun';
import type { KeptInSession } from '../core/store/agentSession';
import { OutputKeeper, type FinishedCommand } from './outputKeeper';
import { DEFAULT_PREVIEW_CHARS, MIN_PREVIEW_CHARS } from './previewText';
import { parseOptions, shellQuote, UsageError, wholeNumber } from './options';
import { agentKey, selfCommand, STORE_OPTIONS, storeFolder, writeOut } from './storeAccess';
import type { CliIo, Subcommand } from './subcommand';

/** Exit status of `run` when its own command line is wrong (the command never ran), as `env` and `nice` use. */
export const RUN_USAGE_STATUS = 125;

export const RUN_HELP = `Usage: cli.js run [--store <folder>] [--agent <id>] [--conversation <id>]
                  [--preview-chars <n>] [--mcp] -- <command line>

Runs the command line with the shell that started this tool (else $SHELL, else /bin/sh), in the same folder and
environment, stdin passed through, and exits with its status (128+n when signal n ended it).
Output of at most --preview-chars characters (default ${DEFAULT_PREVIEW_CHARS}) is printed unchanged. Longer output is kept
whole in fdref's store as fd:N of the agent's session, and a preview of at most that size is printed: the handle
first, how to read it, its first lines, the lines that look like errors, and its last lines.

  --store <folder>      fdref's session store (default: $FDREF_STORE)
  --agent <id>          whose session: claude-code, codex, gemini-cli, qwen-code, cline, copilot, continue,
                        terminal (default)
  --conversation <id>   the agent's conversation: one session each (default: one session per agent and day)
  --mcp                 the agent has fdref's MCP server: the preview names read_fd, search_fd, fd_to_file
  -- <command line>     one argument: a shell command line; several: a command and its arguments

Exit status: the command's; 125 for a wrong option, 126/127 when the shell cannot run or is not found.
`;

export const run: Subcommand = async (argv, io) => {
  const parsed = await parseOrReport(argv, io, 'run', RUN_HELP);
  if (typeof parsed === 'number') return parsed;
  const keeper = keeperFor(parsed, io);
  let result;
  try {
    result = await runWrapped({
      shell: agentShell(io.env),
      command: parsed.command,
      cwd: io.cwd,
      env: io.env,
      onOutput: (chunk) => keeper.push(chunk),
    });
  } catch (error) {
    if (!(error instanceof WrapperStartError)) throw error;
    await writeOut(io.stderr, `fdref run: ${error.message}\n`);
    return error.status;
  }
  await finishKeeping(keeper, { commandLine: parsed.command, cwd: io.cwd, ...result }, io);
  return result.status;
};

export const TAKE_HELP = `Usage: cli.js take <folder> [run's options] -- <command line>

The end of the shell front fdref's hooks run commands through on Linux: the command already ran there, its first
bytes are <folder>/h and the rest comes on stdin, its status is <folder>/s once stdin has ended. Keeps the output
as run does and exits with the command's status. Not meant to be typed.
`;

/**
 * `take <folder> …`: see TAKE_HELP and FRONT in wrapperCommand.ts. It writes `<folder>/k` once it has the head, so
 * the front knows from then on that the output is this process's to print or keep.
 */
export const take: Subcommand = async (argv, io) => {
  const [folder, ...rest] = argv;
  const parsed =
    folder === undefined || folder.startsWith('-')
      ? await usage(io, 'take', "no folder: give the front's folder first")
      : await parseOrReport(rest, io, 'take', TAKE_HELP);
  if (typeof parsed === 'number') return parsed;
  const dir = path.resolve(io.cwd, folder as string);
  let head: Buffer;
  let startedAt: Date;
  try {
    head = await fs.readFile(path.join(dir, 'h'));
    // The folder was made just before the command started.
    startedAt = (await fs.stat(dir)).birthtime;
    await fs.writeFile(path.join(dir, 'k'), '');
  } catch (error) {
    await writeOut(io.stderr, `fdref take: ${errorMessage(error)}\n`);
    return TAKE_FAILED_STATUS;
  }
  const keeper = keeperFor(parsed, io);
  await keeper.push(head);
  for await (const chunk of io.stdin) await keeper.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  const statusText = await fs.readFile(path.join(dir, 's'), 'utf8').catch(() => '');
  const status = /^\d{1,3}$/.test(statusText.trim()) ? Number(statusText.trim()) : 1;
  await finishKeeping(
    keeper,
    {
      commandLine: parsed.command,
      cwd: io.cwd,
      exitCode: status,
      signal: null,
      status,
      startedAt: Number.isNaN(startedAt.getTime()) || startedAt.getTime() === 0 ? new Date() : startedAt,
      endedAt: new Date(),
    },
    io,
  );
  return status;
};

/** `take` could not read what the front left (the front then prints the output itself). */
const TAKE_FAILED_STATUS = 125;

type RunOptions = Exclude<ReturnType<typeof parseRun>, 'help'>;

/** The options, or the exit status once the usage error or the help is printed. */
async function parseOrReport(
  argv: readonly string[],
  io: CliIo,
  name: string,
  help: string,
): Promise<RunOptions | number> {
  let parsed;
  try {
    parsed = parseRun(argv, io);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    return usage(io, name, error.message);
  }
  if (parsed !== 'help') return parsed;
  await writeOut(io.stdout, help);
  return 0;
}

async function usage(io: CliIo, name: string, message: string): Promise<number> {
  await writeOut(io.stderr, `fdref ${name}: ${message} (see ${name} --help)\n`);
  return RUN_USAGE_STATUS;
}

function keeperFor({ folder, key, previewChars, mcp }: RunOptions, io: CliIo): OutputKeeper {
  const self = selfCommand(io.env);
  return new OutputKeeper({
    previewChars,
    storeFolder: folder,
    key,
    stdout: io.stdout,
    stderr: io.stderr,
    hints: (kept, root) => (mcp ? mcpHints(kept) : cliHints(kept, self, root)),
  });
}

async function finishKeeping(keeper: OutputKeeper, command: FinishedCommand, io: CliIo): Promise<void> {
  try {
    await keeper.finish(command);
  } catch (error) {
    // Printing failed (stdout closed): the command's status still stands.
    await writeOut(io.stderr, `fdref run: ${errorMessage(error)}\n`).catch(() => undefined);
  }
}

function parseRun(argv: readonly string[], io: CliIo) {
  const options = parseOptions(argv, { values: [...STORE_OPTIONS, '--preview-chars'], flags: ['--mcp'] });
  if (options.flags.has('--help')) return 'help' as const;
  if (options.positionals.length > 0)
    throw new UsageError(
      `unexpected ${JSON.stringify(options.positionals[0]?.slice(0, 80))}: put the command after --`,
    );
  const rest = options.rest ?? [];
  if (rest.length === 0) throw new UsageError('no command: give it after --');
  const previewText = options.values.get('--preview-chars');
  return {
    folder: storeFolder(options, io),
    key: agentKey(options),
    previewChars:
      previewText === undefined
        ? DEFAULT_PREVIEW_CHARS
        : wholeNumber('--preview-chars', previewText, MIN_PREVIEW_CHARS),
    mcp: options.flags.has('--mcp'),
    // One argument is a command line as the agent wrote it; several are an argv (a person typing `run -- make test`).
    command: rest.length === 1 ? (rest[0] as string) : rest.map(shellQuote).join(' '),
  };
}

function mcpHints({ fd, session }: KeptInSession): string {
  const at = `fd="${fd}", session="${session.id}"`;
  return (
    `Read it with read_fd(${at}) (mode "tail" for the end, mode "line" for lines), search it with ` +
    `search_fd(${at}, pattern=...), write it to a file with fd_to_file(${at}, file_path=...).`
  );
}

function cliHints({ fd, session }: KeptInSession, self: string, root: string): string {
  const base = `${self} %s --store ${shellQuote(root)} --session ${session.id} ${fd}`;
  const line = (what: string, sub: string, args: string): string => `${what}: ${base.replace('%s', sub)}${args}`;
  return [
    line('Read lines', 'read', ' --lines 1-200'),
    line('Search', 'search', " 'regex'"),
    line('Last lines', 'tail', ' 100'),
  ].join('\n');
}
