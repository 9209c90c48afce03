/**
 * Runs an agent's shell command for fdref's command wrapper (`dist/cli.js run`), as the agent's own shell tool
 * would have: the same shell, folder and environment, stdin passed through, the process left in the wrapper's
 * process group (a terminal's Ctrl+C or an agent stopping its tool reaches it as before). Unlike `run_command`
 * (runCommand.ts) nothing here ends, regroups or times out the command: the agent that called its shell tool
 * still owns it. stdout and stderr come back as one stream in their real order.
 */
import { spawn } from 'node:child_process';
import { constants as osConstants } from 'node:os';
import { readlinkSync } from 'node:fs';
import * as path from 'node:path';

/** Shells that take `-c <command line>` and `exec 2>&1` as POSIX sh does. */
export const POSIX_SHELLS: ReadonlySet<string> = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'mksh', 'ash', 'yash']);

/**
 * The shell the agent ran its tool with: the wrapper's parent process when it is a known POSIX shell (the agent ran
 * `sh -c '<node> cli.js run ...'`, so that is the shell it chose), else `$SHELL` when it is one, else /bin/sh.
 */
export function agentShell(
  env: NodeJS.ProcessEnv,
  parentExe: () => string | undefined = () => readParentExe(process.ppid),
): string {
  const parent = parentExe();
  if (parent !== undefined && POSIX_SHELLS.has(path.basename(parent))) return parent;
  const shell = env['SHELL'];
  if (shell !== undefined && path.isAbsolute(shell) && POSIX_SHELLS.has(path.basename(shell))) return shell;
  return '/bin/sh';
}

function readParentExe(ppid: number): string | undefined {
  try {
    return readlinkSync(`/proc/${ppid}/exe`);
  } catch {
    return undefined; // no /proc (macOS), or not ours to read
  }
}

/** The status a shell gives a command: its exit code, or 128 + the number of the signal that ended it. */
export function exitStatus(code: number | null, signal: NodeJS.Signals | null): number {
  if (code !== null) return code;
  const number = signal === null ? undefined : osConstants.signals[signal];
  return 128 + (number ?? 0);
}

/** The command could not start: 127 when the shell is not there, 126 when it cannot be run (as a shell says). */
export class WrapperStartError extends Error {
  constructor(
    message: string,
    readonly status: 126 | 127,
  ) {
    super(message);
  }
}

export interface WrapperRunOptions {
  readonly shell: string;
  readonly command: string;
  readonly cwd: string;
  readonly env: NodeJS.ProcessEnv;
  /** Each piece of output in order; reading pauses until the promise settles (memory stays bounded). */
  readonly onOutput: (chunk: Buffer) => Promise<void>;
}

export interface WrapperRunResult {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  /** What a shell would report: `exitStatus(exitCode, signal)`. */
  readonly status: number;
  readonly startedAt: Date;
  readonly endedAt: Date;
}

/**
 * Merges stderr into stdout inside the child, then runs the shell on the command line untouched: `exec 2>&1`
 * makes both file descriptors one pipe, so the child's own writes keep their order (two pipes read by this
 * process would interleave by arrival, not by writing); the second `exec` replaces this small shell by the
 * agent's, so `$0`, line numbers and parse errors are the command's own.
 */
const MERGE_AND_EXEC = 'exec 2>&1; exec "$0" -c "$1"';

/** Settles once the command has exited and its output has closed (and every piece has been handed on). */
export async function runWrapped(options: WrapperRunOptions): Promise<WrapperRunResult> {
  const startedAt = new Date();
  const child = spawn(options.shell, ['-c', MERGE_AND_EXEC, options.shell, options.command], {
    cwd: options.cwd,
    env: options.env,
    // stdin is the wrapper's own (the agent's); stderr is the same pipe as stdout once the child has run `exec 2>&1`.
    stdio: ['inherit', 'pipe', 'inherit'],
  });
  const spawned = new Promise<void>((resolve, reject) => {
    child.once('spawn', resolve);
    child.once('error', reject);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  try {
    await spawned;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new WrapperStartError(
      `cannot run the shell ${options.shell} in ${options.cwd}: ${code ?? String(error)}`,
      code === 'ENOENT' ? 127 : 126,
    );
  }
  // Someone ending the wrapper by its pid (not its group) meant the command: it gets the signal, and the wrapper
  // stays to keep what the command prints until it ends. Ctrl+C reaches the whole group, so SIGINT is not resent.
  const forward = (signal: NodeJS.Signals) => () => void child.kill(signal);
  const handlers = (['SIGTERM', 'SIGHUP'] as const).map((signal) => [signal, forward(signal)] as const);
  const ignoreInt = (): void => undefined;
  for (const [signal, handler] of handlers) process.on(signal, handler);
  process.on('SIGINT', ignoreInt);
  try {
    const stdout = child.stdout;
    if (stdout !== null) for await (const chunk of stdout) await options.onOutput(chunk as Buffer);
    const { code, signal } = await exited;
    return { exitCode: code, signal, status: exitStatus(code, signal), startedAt, endedAt: new Date() };
  } finally {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    process.off('SIGINT', ignoreInt);
  }
}
