/**
 * When retention runs while the store keeps changing. Agents, terminals and MCP servers add output all day, so
 * retention runs not only when a window opens the store or its settings change but also after the store grew; a
 * store that grows with every line an agent writes must not be measured at every line, so those runs are throttled:
 * at most one per interval, and a growth seen meanwhile is answered by one run when the interval is over.
 */
import type { StoreChange } from './watch';

/** The least time between two runs of retention that a growing store starts. */
export const RETENTION_INTERVAL_MS = 60_000;

/** The clock and timer a schedule uses (injected by a test). */
export interface ScheduleClock {
  now(): number;
  /** Calls `run` once after `ms`; the returned function cancels it. */
  after(ms: number, run: () => void): () => void;
}

/** Node's clock and timers; a timer waiting does not keep the process alive. */
export const systemClock: ScheduleClock = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    timer.unref();
    return () => clearTimeout(timer);
  },
};

/** Whether a change makes the store larger: a session added or a journal grown (not a rename, a pin, a removal). */
export function growsStore(change: StoreChange): boolean {
  return change.kind === 'added' || change.kind === 'journal';
}

/**
 * Runs `run` (retention) after the store grew, never twice within `intervalMs`: a growth within the interval after
 * the last run is answered once, when the interval is over. Runs made elsewhere (at startup, on a change of the
 * settings) count through `ran()`.
 */
export class RetentionSchedule {
  private lastRun = Number.NEGATIVE_INFINITY;
  private cancel: (() => void) | undefined;
  private disposed = false;

  constructor(
    private readonly run: () => Promise<unknown>,
    private readonly clock: ScheduleClock = systemClock,
    readonly intervalMs: number = RETENTION_INTERVAL_MS,
  ) {}

  /** The store grew: retention runs as soon as the interval since the last run allows, once for every growth till then. */
  storeGrew(): void {
    if (this.disposed || this.cancel !== undefined) return;
    const wait = Math.max(0, this.lastRun + this.intervalMs - this.clock.now());
    this.cancel = this.clock.after(wait, () => {
      this.cancel = undefined;
      if (this.disposed) return;
      this.ran();
      void this.run().catch(() => undefined);
    });
  }

  /** Retention just ran (or starts now): the next run a growth starts waits for the interval. */
  ran(): void {
    this.lastRun = this.clock.now();
  }

  /** No more runs. */
  dispose(): void {
    this.disposed = true;
    this.cancel?.();
    this.cancel = undefined;
  }
}
