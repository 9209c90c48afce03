/**
 * Aborts a streaming request whose server goes quiet. The SDKs' own timeout covers the wait for the response
 * to start (and retries it); once the stream runs, nothing would end a server that stalls mid-answer.
 */
export class SilenceWatch {
  private readonly silence = new AbortController();
  /** Aborts when the caller's signal does, or when the server stays silent too long. */
  readonly signal: AbortSignal;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    outer: AbortSignal,
    private readonly limitMs: number,
  ) {
    this.signal = AbortSignal.any([outer, this.silence.signal]);
  }

  /** True once the silence limit ended the request. */
  get fired(): boolean {
    return this.silence.signal.aborted;
  }

  /** Starts counting: call before waiting for the next event. */
  arm(): void {
    this.disarm();
    this.timer = setTimeout(() => this.silence.abort(), this.limitMs);
  }

  /** Stops counting: call when an event arrived, so the consumer's own time is not held against the server. */
  disarm(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /**
   * The events of `stream`, counting the server's silence while each one is awaited and not while the consumer
   * handles it. Ending early leaves `stream` as it is: the caller aborts the request itself.
   */
  async *watch<T>(stream: AsyncIterable<T>): AsyncGenerator<T> {
    const events = stream[Symbol.asyncIterator]();
    for (;;) {
      this.arm();
      const next = await events.next();
      this.disarm();
      if (next.done === true) return;
      yield next.value;
    }
  }
}
