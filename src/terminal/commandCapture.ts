import type * as vscode from 'vscode';
import type { CommandRun } from '../core/descriptors/descriptorDetails';
import { errorMessage } from '../core/errors';
import { CommandOutput, commandRun, TailOutput } from '../core/terminal/commandOutput';
import { quoteInput } from '../core/quoteInput';
import type { ExcludePattern } from '../core/terminal/excludePatterns';

/**
 * How long Keep Last Terminal Output waits, for a command whose end was reported, for the rest of its output
 * (which the host delivers right after): the whole end of a long command, not what had arrived.
 */
const READ_END_WAIT_MS = 2000;

/** Resolves when `promise` settles or after `ms`, whichever comes first. */
async function withinMs(promise: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([promise, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/** Where a command's output goes, decided when it starts. */
export type CaptureMode =
  /** Streamed into the day's Terminal session (`fdref.terminal.keepOutput` on). */
  | { readonly kind: 'store'; readonly sink: Promise<StoreTarget> }
  /** Its end held in memory (`MEMORY_TAIL_CHARS`, and the cap) for Keep Last Terminal Output (the setting off). */
  | { readonly kind: 'memory' }
  /** Matched `fdref.terminal.exclude`: not read at all. */
  | { readonly kind: 'excluded'; readonly pattern: ExcludePattern };

/** A content being written into a session, and what to do with it at the end. */
export interface StoreTarget {
  /** Appends a piece of the content. */
  write(piece: string): Promise<void>;
  /** Records the content as a descriptor of the command; resolves to where it is. */
  keep(command: CommandRun): Promise<KeptId>;
  /** Drops what was written (excluded after all, or a write failed). */
  abort(): Promise<void>;
}

/** A descriptor a command was kept as. */
export interface KeptId {
  readonly sessionId: string;
  readonly descriptorId: string;
}

/** One command seen by shell integration, from its start to its end (or the window's). */
export class CommandCapture {
  readonly startedAt: Date;
  private commandLineNow: string;
  private endedAt: Date | undefined;
  private exitCode: number | undefined;
  private readonly output: CommandOutput | undefined;
  private readonly memory: TailOutput | undefined;
  private readonly capBytes: number;
  private readonly endReported: Promise<void>;
  private reportEnd: () => void = () => undefined;
  private stopped = false;
  /** The write in progress; never rejects (a failed write is reported where it is awaited, in `readAll`). */
  private pendingWrite: Promise<void> = Promise.resolve();
  private finishing: Promise<void> | undefined;
  private readingDone = false;
  /** Reading the output, until it ends (or is stopped). */
  private readonly reading: Promise<void> = Promise.resolve();
  private excludedAtEnd: ExcludePattern | undefined;
  /** The descriptor it was kept as (store mode at its end, or Keep Last Terminal Output), and what it says. */
  keptAs: (KeptId & { readonly run: CommandRun }) | undefined;
  /** Why it could not be kept, when a write failed. */
  failure: string | undefined;

  constructor(
    readonly execution: vscode.TerminalShellExecution,
    readonly terminal: vscode.Terminal,
    readonly mode: CaptureMode,
    capBytes: number,
    now: Date,
    private readonly onFailure: (capture: CommandCapture, message: string) => void,
  ) {
    this.startedAt = now;
    this.capBytes = capBytes;
    this.commandLineNow = execution.commandLine.value;
    this.endReported = new Promise((resolve) => (this.reportEnd = resolve));
    if (mode.kind === 'excluded') return;
    // read() must be called at once: it delivers only what is written after its first call.
    const data = execution.read();
    if (mode.kind === 'memory') {
      // No cap in front: the tail holds the end, and the cap applies when it is kept.
      this.memory = new TailOutput();
      this.output = new CommandOutput(this.memory, Number.POSITIVE_INFINITY);
      this.reading = this.readAll(data, this.output);
    } else {
      const sink = mode.sink;
      this.output = new CommandOutput({ write: async (piece) => (await sink).write(piece) }, capBytes);
      this.reading = this.readAll(data, this.output);
      void this.reading.then(() => this.finishWhenReported());
    }
  }

  get commandLine(): string {
    return this.commandLineNow;
  }

  get running(): boolean {
    return this.endedAt === undefined;
  }

  /**
   * The shell reported the end: its exit code and its command line as finally known (more accurate than at the
   * start), which `excludedBy` checks again: output streamed into the store is dropped when it matches now. A
   * store-mode command is kept only after this (or `stop()`), so an exclusion seen here always applies.
   */
  ended(
    exitCode: number | undefined,
    commandLine: string,
    at: Date,
    excludedBy: (commandLine: string) => ExcludePattern | undefined,
  ): void {
    if (this.endedAt !== undefined) return;
    this.endedAt = at;
    this.exitCode = exitCode;
    if (commandLine !== '') this.commandLineNow = commandLine;
    this.excludedAtEnd = excludedBy(this.commandLineNow);
    if (this.excludedAtEnd && this.mode.kind === 'memory') this.release();
    this.reportEnd();
  }

  /** The exclude pattern the command line matched when it ended, if any: its output is then not kept. */
  get excludedPattern(): ExcludePattern | undefined {
    return this.mode.kind === 'excluded' ? this.mode.pattern : this.excludedAtEnd;
  }

  /** What a descriptor says about it now; `startDroppedChars` when only the end of its output is kept. */
  run(startDroppedChars = 0): CommandRun {
    return commandRun({
      commandLine: this.commandLineNow,
      // The execution's folder, else the terminal's (the shell may report it only at its next prompt).
      cwd: (this.execution.cwd ?? this.terminal.shellIntegration?.cwd)?.fsPath,
      exitCode: this.exitCode,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      output: this.output ?? { outputChars: 0, cut: false },
      startDroppedChars,
    });
  }

  /** Characters of output seen so far (after filtering), kept or not. */
  get outputChars(): number {
    return this.output?.outputChars ?? 0;
  }

  /**
   * Writes what was held in memory (its end, within the cap) into `target` and keeps it (Keep Last Terminal
   * Output); a running command keeps what has arrived, the line being drawn excepted.
   */
  async keepFromMemory(target: StoreTarget): Promise<KeptId & { readonly run: CommandRun }> {
    if (!this.memory) throw new Error('This command was not held in memory.');
    // Ended: what the host still delivers arrives at once (a stream that never ends is not waited for long).
    if (!this.running) await withinMs(this.reading, READ_END_WAIT_MS);
    // Taken in one step with the counts (more output may arrive while it is written).
    const { pieces, droppedChars } = this.memory.snapshot(this.capBytes);
    const run = this.run(droppedChars);
    try {
      for (const piece of pieces) await target.write(piece);
    } catch (error) {
      await target.abort().catch(() => undefined);
      throw error;
    }
    return { ...(await target.keep(run)), run };
  }

  /**
   * Stops reading (the window closes, the terminal closed, the next command started) and keeps what arrived,
   * marked unfinished if it was. Never rejects: a failure is reported.
   */
  async stop(): Promise<void> {
    this.stopped = true;
    this.reportEnd(); // no report is waited for any more
    await this.pendingWrite;
    if (this.mode.kind === 'store') await this.finish();
  }

  /** Forgets output held in memory. */
  release(): void {
    this.stopped = true;
    this.memory?.clear();
  }

  private async readAll(data: AsyncIterable<string>, output: CommandOutput): Promise<void> {
    try {
      for await (const chunk of data) {
        if (this.stopped) break;
        await this.write(output.push(chunk));
      }
      if (!this.stopped) await this.write(output.end());
    } catch (error) {
      this.stopped = true;
      this.fail(`FD Refs could not keep the output of ${quoteInput(this.commandLineNow)}: ${errorMessage(error)}`);
    } finally {
      this.readingDone = true;
    }
  }

  /** Records a write as the one in progress (without its rejection, which `readAll` reports) and awaits it. */
  private async write(writing: Promise<void>): Promise<void> {
    this.pendingWrite = writing.then(
      () => undefined,
      () => undefined,
    );
    await writing;
  }

  /**
   * The output has ended: waits for the shell's end report (exit code, final command line), then keeps it. No
   * timer: the shell reports a command's end before the next one's start, both read in order from its shell
   * integration marks, and the terminal capture ends a command whose report never came when the next one starts
   * (`ended` without an exit code), its terminal closes or the window closes (`stop`). So an end report that comes
   * late is never after the output was kept, and an exclusion it brings always applies.
   */
  private async finishWhenReported(): Promise<void> {
    if (this.failure !== undefined) return this.finish(); // drops what was written
    if (this.stopped) return; // `stop()` keeps it
    await this.endReported;
    await this.finish();
  }

  private finish(): Promise<void> {
    this.finishing ??= this.keepStored();
    return this.finishing;
  }

  private async keepStored(): Promise<void> {
    if (this.mode.kind !== 'store') return;
    let target: StoreTarget;
    try {
      target = await this.mode.sink;
    } catch (error) {
      this.fail(`FD Refs could not keep the output of ${quoteInput(this.commandLineNow)}: ${errorMessage(error)}`);
      return;
    }
    if (this.failure !== undefined || this.excludedAtEnd !== undefined) {
      await target.abort().catch(() => undefined);
      return;
    }
    try {
      if (!this.readingDone) await this.output?.end();
      if (this.outputChars === 0) {
        // `cd`, `clear`: nothing printed, nothing to keep (no empty descriptor nor content file).
        await target.abort();
        return;
      }
      const run = this.run();
      this.keptAs = { ...(await target.keep(run)), run };
    } catch (error) {
      await target.abort().catch(() => undefined);
      this.fail(`FD Refs could not keep the output of ${quoteInput(this.commandLineNow)}: ${errorMessage(error)}`);
    }
  }

  private fail(message: string): void {
    if (this.failure !== undefined) return;
    this.failure = message;
    this.onFailure(this, message);
  }
}
