/**
 * Commands that go on after their `run_command` call answered. Some MCP clients give up on a call after 60 s
 * (Continue, Cline), so on a surface that sets `CommandOutputTarget.background` a command still running after the
 * wait the client can afford is answered as a descriptor that keeps growing while it runs. Each such command is a
 * `CommandJob` here, found by its descriptor's id until the process stops: its state, the output since the last
 * look, a way to wait for it and to stop it (`wait_command`). Stopping the process stops them all first
 * (`stopAll`), so none is orphaned and each descriptor records how it ended.
 */
import { OutputPreviewBuilder, previewLimits, type OutputSummary } from '../presentation/outputPreview';
import type { CommandResult } from '../process/runCommand';

/** How long a call waits for a command before answering with a growing descriptor, by default: under 60 s. */
export const DEFAULT_COMMAND_WAIT_S = 45;
/** How often a running command's new output is recorded for readers (also before every answer about it). */
export const GROW_SYNC_MS = 1_000;
/** Characters of the start and of the end of new output shown when a running command is looked at. */
export const LOOK_HEAD_CHARS = 2_000;
export const LOOK_TAIL_CHARS = 2_000;

/** What a command that ended answers (`run_command`'s `CommandToolResult`, without what this file need not know). */
export interface FinishedRun {
  readonly text: string;
  readonly summary: string;
  readonly cancelled: boolean;
}

/**
 * What a command wrote, counted as it arrives: its total, its end, and of what nobody has seen yet its start and
 * the lines that look like errors or warnings (the preview builder's, numbered in the whole output).
 */
export class OutputWatch {
  chars = 0;
  private seen = 0;
  private newHead = '';
  private tail = '';
  /** Line breaks in the whole output, and in the part before the last look's end. */
  private breaks = 0;
  private breaksSeen = 0;
  private newErrors = lookBuilder();

  push(piece: string): void {
    if (piece.length === 0) return;
    this.chars += piece.length;
    if (this.newHead.length < LOOK_HEAD_CHARS) this.newHead += piece.slice(0, LOOK_HEAD_CHARS - this.newHead.length);
    this.tail = (this.tail + piece.slice(-LOOK_TAIL_CHARS)).slice(-LOOK_TAIL_CHARS);
    for (let at = piece.indexOf('\n'); at >= 0; at = piece.indexOf('\n', at + 1)) this.breaks++;
    this.newErrors.push(piece);
  }

  /**
   * The output written since the last look (from character `from`, `chars` of them): its start and its end (the
   * end overlaps nothing of the start; empty when all of it is in the start), and what the preview builder saw of
   * it, its error and warning lines numbered as lines of the whole output. The next look starts after it.
   */
  look(): { from: number; chars: number; head: string; tail: string; seen: OutputSummary } {
    const from = this.seen;
    const chars = this.chars - from;
    const head = this.newHead;
    const tail = this.tail.slice(this.tail.length - Math.min(this.tail.length, chars - head.length));
    const summary = this.newErrors.finish();
    const before = this.breaksSeen;
    const seen = { ...summary, errors: summary.errors.map((entry) => ({ ...entry, line: entry.line + before })) };
    this.seen = this.chars;
    this.newHead = '';
    this.breaksSeen = this.breaks;
    this.newErrors = lookBuilder();
    return { from, chars, head, tail, seen };
  }
}

/** A preview builder for the output of one look: only its error and warning lines are used. */
function lookBuilder(): OutputPreviewBuilder {
  return new OutputPreviewBuilder(previewLimits(LOOK_HEAD_CHARS + LOOK_TAIL_CHARS));
}

/** One command going on after its call answered. */
export class CommandJob {
  private result: FinishedRun | undefined;
  private failure: string | undefined;
  private readonly ended: Promise<void>;
  private timer: NodeJS.Timeout | undefined;
  private syncing: Promise<unknown> = Promise.resolve();

  constructor(
    /** Its descriptor, `fd:N`. */
    readonly id: string,
    readonly command: string,
    /** The shell's pid (its process group's id). */
    readonly pid: number | undefined,
    /** `performance.now()` when it started. */
    readonly startedMs: number,
    readonly timeoutS: number,
    readonly watch: OutputWatch,
    private readonly abort: AbortController,
    /** Writes what is buffered to its descriptor and records it (readers in every process then see it). */
    private readonly syncOutput: () => Promise<{ chars: number; lines: number }>,
    /**
     * The command running, and what completes its descriptor once it ended: what its call would have answered
     * had it ended in time.
     */
    end: {
      readonly running: Promise<CommandResult>;
      readonly complete: (result: CommandResult) => Promise<FinishedRun>;
    },
  ) {
    const done = end.running.then(async (result) => {
      await this.quiesce();
      return end.complete(result);
    });
    this.timer = setInterval(() => void this.sync().catch(() => undefined), GROW_SYNC_MS);
    this.timer.unref();
    this.ended = done.then(
      (result) => {
        this.result = result;
      },
      (error: unknown) => {
        this.failure = error instanceof Error ? error.message : String(error);
      },
    );
  }

  get running(): boolean {
    return this.result === undefined && this.failure === undefined;
  }

  /** The answer once it ended: the `<command_result>` a short run gives; undefined while it runs. */
  get outcome(): { result: FinishedRun } | { failure: string } | undefined {
    if (this.result !== undefined) return { result: this.result };
    if (this.failure !== undefined) return { failure: this.failure };
    return undefined;
  }

  /** Records the output written so far; resolves to its size. Refused once the command ended. */
  sync(): Promise<{ chars: number; lines: number }> {
    const run = this.syncing.then(() => {
      if (!this.running) throw new Error(`${this.id} is complete.`);
      return this.syncOutput();
    });
    this.syncing = run.catch(() => undefined);
    return run;
  }

  /**
   * Stops the timer and waits for a sync under way: called before the descriptor is completed (its sink is sealed
   * then, and takes no more syncs).
   */
  async quiesce(): Promise<void> {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    const pending = this.syncing;
    this.syncing = pending.then(() => {
      throw new Error(`${this.id} is being completed.`);
    });
    this.syncing.catch(() => undefined);
    await pending;
  }

  /** Ends its process group (SIGTERM, then SIGKILL); resolves once its descriptor is complete. */
  stop(): Promise<void> {
    this.abort.abort();
    return this.ended;
  }

  /** Resolves when it ended (its descriptor complete), or after `ms`, or when `signal` aborts; true if it ended. */
  async waitFor(ms: number, signal?: AbortSignal): Promise<boolean> {
    if (!this.running) return true;
    let timer: NodeJS.Timeout | undefined;
    let onAbort: (() => void) | undefined;
    const gaveUp = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      onAbort = () => resolve();
      signal?.addEventListener('abort', onAbort, { once: true });
    });
    try {
      await Promise.race([this.ended, gaveUp]);
    } finally {
      clearTimeout(timer);
      if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
    }
    return !this.running;
  }
}

/** The commands of one process that went on after their call answered, by descriptor id. */
export class CommandJobs {
  private readonly jobs = new Map<string, CommandJob>();
  private stopping = false;

  /** `waitMs`: how long a call waits for a command before answering with a growing descriptor (at most). */
  constructor(readonly waitMs = DEFAULT_COMMAND_WAIT_S * 1000) {}

  /** Whether commands may still go on after their call (false once the process is stopping). */
  get accepting(): boolean {
    return !this.stopping;
  }

  add(job: CommandJob): void {
    this.jobs.set(job.id, job);
    if (this.stopping) void job.stop();
  }

  get(id: string): CommandJob | undefined {
    return this.jobs.get(id.trim());
  }

  /** The commands still running. */
  running(): CommandJob[] {
    return [...this.jobs.values()].filter((job) => job.running);
  }

  /**
   * Ends every command still running (their process groups, as a time limit does) and resolves once each one's
   * descriptor is complete and says how it ended: the process may stop then.
   */
  async stopAll(): Promise<void> {
    this.stopping = true;
    for (let running = this.running(); running.length > 0; running = this.running())
      await Promise.all(running.map((job) => job.stop()));
  }
}
