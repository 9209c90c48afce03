/**
 * Results that follow what a person types (Search Kept Output's quick pick): each text is searched once typing has
 * paused for a moment, and an answer is shown only while it is the answer to the newest text searched, so a slow
 * search for `err` cannot replace the results for `error` that came back first.
 */

/** What the pick shows: searching, a result for a text, or why that text could not be searched. */
export type LiveState<T> =
  | { readonly kind: 'idle' }
  | { readonly kind: 'busy'; readonly text: string }
  | { readonly kind: 'result'; readonly text: string; readonly result: T }
  | { readonly kind: 'failed'; readonly text: string; readonly error: unknown };

/** How a search is put off until typing pauses (the tests give their own clock). */
export interface Timers {
  set(run: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
  set: (run, ms) => setTimeout(run, ms),
  clear: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export class LiveSearch<T> {
  private timer: unknown;
  /** The text of the newest search asked for (scheduled or running), and its number. */
  private latest: { readonly text: string; readonly generation: number } | undefined;
  private generation = 0;
  private disposed = false;

  constructor(
    private readonly run: (text: string) => Promise<T>,
    private readonly show: (state: LiveState<T>) => void,
    private readonly delayMs: number,
    private readonly timers: Timers = REAL_TIMERS,
  ) {}

  /**
   * The text changed: it is searched `delayMs` after the last change (a blank text at once shows `idle`). Typing the
   * text already searched or being searched starts nothing.
   */
  type(text: string): void {
    if (this.disposed) return;
    if (this.latest?.text === text) return;
    this.cancelTimer();
    const generation = ++this.generation;
    if (text.trim() === '') {
      this.latest = undefined;
      this.show({ kind: 'idle' });
      return;
    }
    this.latest = { text, generation };
    this.show({ kind: 'busy', text });
    this.timer = this.timers.set(() => {
      this.timer = undefined;
      void this.search(text, generation);
    }, this.delayMs);
  }

  /** Stops: a pending search does not start and an answer still to come is dropped. */
  dispose(): void {
    this.disposed = true;
    this.cancelTimer();
  }

  private cancelTimer(): void {
    if (this.timer !== undefined) this.timers.clear(this.timer);
    this.timer = undefined;
  }

  private async search(text: string, generation: number): Promise<void> {
    let state: LiveState<T>;
    try {
      state = { kind: 'result', text, result: await this.run(text) };
    } catch (error) {
      state = { kind: 'failed', text, error };
    }
    if (!this.disposed && generation === this.generation) this.show(state);
  }
}
