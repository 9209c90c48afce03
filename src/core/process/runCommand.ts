/**
 * Runs a shell command the way an agent's `run_command` needs it: in a process group of its own, stdin closed,
 * stdout and stderr on one pipe so they keep their real order, every piece of output handed on as it arrives
 * (the caller streams it to the store; nothing here holds it whole), and a time limit that ends the whole
 * group, children and grandchildren included, even one that ignores SIGTERM. Processes that left the group
 * (daemons) are found by an environment variable of the run and ended with it (see `runMarker`).
 */
import { spawn } from 'node:child_process';
import { StringDecoder } from 'node:string_decoder';
import { errorMessage } from '../errors';
import { endMarked, findMarked, newRunMarker, signalAll, type MarkedEnding } from './runMarker';

/** The shell every command runs in (POSIX). */
export const SHELL = '/bin/sh';
/** After SIGTERM, how long the group has to end before SIGKILL. */
export const KILL_GRACE_MS = 2_000;
/**
 * After the shell exits, how long processes it left in the background may keep the output pipe open before the
 * group is ended (the command's result would otherwise wait for them until its time limit).
 */
export const LINGER_MS = 1_000;

export interface RunCommandOptions {
  readonly command: string;
  /** Absolute folder to run in. */
  readonly cwd: string;
  readonly timeoutMs: number;
  /** Called with each piece of output, in order; the pipe is paused until the returned promise settles. */
  readonly onOutput: (piece: string) => Promise<void>;
  /** The characters kept from the start of the output, for a preview (default 0). */
  readonly headChars?: number;
  /** The characters kept from the end of the output, for a preview (default 0). */
  readonly tailChars?: number;
  /** Ends the command's process group early (the request was cancelled, the server is stopping). */
  readonly signal?: AbortSignal;
  readonly env?: NodeJS.ProcessEnv;
  /** Told the shell's pid, which is also its process group's id, once it started. */
  readonly onStart?: (pid: number) => void;
}

export interface CommandResult {
  /** The shell's exit code; null when a signal ended it. */
  readonly exitCode: number | null;
  /** The signal that ended the shell, if one did. */
  readonly signal: NodeJS.Signals | null;
  readonly durationMs: number;
  /** Why the group was ended by us, if it was: the time limit, an abort, or background processes holding the output. */
  readonly ended?: 'timeout' | 'aborted' | 'lingering';
  /** Whether SIGKILL was needed (the group outlived SIGTERM's grace). */
  readonly killed: boolean;
  /**
   * Processes the command started that had left its process group (`setsid`, a daemon) when it ended: those
   * ended, those still running. `unseen` where such processes cannot be found (no `/proc`).
   */
  readonly strays: MarkedEnding | 'unseen';
  /** Characters of output in all. */
  readonly chars: number;
  /** The first `headChars` characters of the output. */
  readonly head: string;
  /** The last `tailChars` characters of the output (overlapping `head` when the output is short). */
  readonly tail: string;
}

/**
 * The shell script around a command: output and errors on one pipe, a watchdog that kills the process group
 * (`kill -KILL 0`) once fd 3 reads end of file (this process closed it or died), then the command through eval.
 */
const WRAPPER = 'exec 2>&1; (read -r _ <&3; kill -KILL 0) </dev/null >/dev/null 2>&1 & exec 3<&-; eval "$1"';

/** The command could not be started at all (no shell, a bad folder). */
export class CommandStartError extends Error {}

/**
 * Runs `command` in `/bin/sh -c`, and resolves once the shell has exited and the output pipe has closed.
 * Never rejects for what the command does (a failing command is an exit code); rejects with
 * `CommandStartError` when it cannot start, or with the error of `onOutput` (after ending the group).
 */
export function runCommand(options: RunCommandOptions): Promise<CommandResult> {
  if (process.platform === 'win32')
    return Promise.reject(
      new CommandStartError('run_command needs a POSIX shell (/bin/sh); Windows is not supported.'),
    );
  const started = performance.now();
  const headChars = options.headChars ?? 0;
  const tailChars = options.tailChars ?? 0;
  return new Promise<CommandResult>((resolve, reject) => {
    // `exec 2>&1` first, then the command through eval: a syntax error in the command is reported on the same
    // pipe, and the command text reaches the shell unchanged. The group is detached, so it would outlive this
    // process if it were killed (`kill -9`, a crash): a watchdog in the group reads fd 3, a socket only this
    // process holds the other end of, and ends the whole group when it reads end of file. The command itself
    // gets neither fd 3 nor the watchdog's output.
    // Every process the command starts inherits the marker, also one that leaves the group (see runMarker).
    const marker = newRunMarker();
    const signalledStrays = new Set<number>();
    const child = spawn(SHELL, ['-c', WRAPPER, 'fdref-run', options.command], {
      cwd: options.cwd,
      env: { ...(options.env ?? process.env), [marker.name]: '1' },
      stdio: ['ignore', 'pipe', 'ignore', 'pipe'],
      detached: true,
    });
    if (child.pid !== undefined) options.onStart?.(child.pid);
    const lifeline = child.stdio[3];
    lifeline?.on('error', () => undefined);
    // With a fourth stdio entry Node's types no longer know stdout is a pipe; it always is ('pipe' above).
    const output = child.stdout;
    if (output === null) throw new CommandStartError('The command started without an output pipe.');
    const decoder = new StringDecoder('utf8');
    let head = '';
    let tail = '';
    let chars = 0;
    let ended: CommandResult['ended'];
    let killed = false;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
    let outputClosed = false;
    let failure: unknown;
    let pending: Promise<void> = Promise.resolve();
    let settled = false;
    const timers: NodeJS.Timeout[] = [];

    const keep = (piece: string): void => {
      if (piece.length === 0) return;
      chars += piece.length;
      if (head.length < headChars) head += piece.slice(0, headChars - head.length);
      if (tailChars > 0) tail = (tail + piece.slice(-tailChars)).slice(-tailChars);
      const stdout = output;
      stdout.pause();
      pending = pending
        .then(() => (failure === undefined ? options.onOutput(piece) : undefined))
        .then(
          () => {
            stdout.resume();
          },
          (error: unknown) => {
            failure ??= error;
            endGroup('aborted');
            stdout.resume(); // drain what is left so the pipe closes
          },
        );
    };

    const endGroup = (why: NonNullable<CommandResult['ended']>): void => {
      if (ended !== undefined || (exit !== undefined && outputClosed)) return;
      ended = why;
      signalGroup('SIGTERM');
      timers.push(
        setTimeout(() => {
          if (outputClosed && exit !== undefined) return;
          killed = true;
          signalGroup('SIGKILL');
          // A process that left the group (setsid) may still hold the pipe: stop reading it.
          timers.push(setTimeout(() => output.destroy(), KILL_GRACE_MS).unref());
        }, KILL_GRACE_MS).unref(),
      );
    };

    const signalGroup = (signal: NodeJS.Signals): void => {
      const group = child.pid;
      if (group === undefined) return;
      try {
        process.kill(-group, signal);
      } catch {
        // the group is gone already
      }
      // Those that left the group too: one of them may be what holds the output open.
      void findMarked(marker, group).then((pids) => {
        for (const pid of pids ?? []) signalledStrays.add(pid);
        signalAll(pids ?? [], signal);
      });
    };

    const finish = (): void => {
      if (settled || exit === undefined || !outputClosed) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      lifeline?.destroy(); // the watchdog ends what is left of the group, itself included
      options.signal?.removeEventListener('abort', onAbort);
      const result = exit;
      const group = child.pid as number; // it exited, so it started
      void Promise.all([pending, endMarked(marker, group, KILL_GRACE_MS, signalledStrays).catch(() => undefined)]).then(
        ([, strays]) => {
          if (failure !== undefined) {
            reject(failure instanceof Error ? failure : new Error(errorMessage(failure)));
            return;
          }
          resolve({
            exitCode: result.code,
            signal: result.signal,
            durationMs: performance.now() - started,
            ...(ended === undefined ? {} : { ended }),
            killed,
            strays: strays ?? 'unseen',
            chars,
            head,
            tail,
          });
        },
      );
    };

    const onAbort = (): void => endGroup('aborted');
    if (options.signal?.aborted) onAbort();
    else options.signal?.addEventListener('abort', onAbort, { once: true });

    child.on('error', (error) => {
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      lifeline?.destroy();
      reject(new CommandStartError(`The command could not be started in ${options.cwd}: ${error.message}`));
    });
    output.on('data', (bytes: Buffer) => keep(decoder.write(bytes)));
    output.on('close', () => {
      keep(decoder.end());
      outputClosed = true;
      finish();
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Whatever the shell left running in its group would keep the pipe open: give it a moment, then end it.
      if (!outputClosed) timers.push(setTimeout(() => endGroup('lingering'), LINGER_MS).unref());
      finish();
    });
    timers.push(setTimeout(() => endGroup('timeout'), options.timeoutMs).unref());
  });
}
