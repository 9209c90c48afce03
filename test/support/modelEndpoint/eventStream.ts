import type * as http from 'node:http';

const CUT_OFF_GRACE_MS = 50;

/**
 * Writes one `text/event-stream` response at the pace the script asks for. Everything stops quietly once the
 * client goes away or the endpoint closes (`signal`): writes become no-ops and pauses end at once, so a
 * closed endpoint leaves no timer behind.
 */
export class EventStreamWriter {
  constructor(
    private readonly response: http.ServerResponse,
    private readonly signal: AbortSignal,
  ) {}

  /** Sends the status line and the headers of a stream. */
  start(headers: http.OutgoingHttpHeaders): void {
    if (!this.open) return;
    this.response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
      ...headers,
    });
    this.response.flushHeaders();
  }

  get open(): boolean {
    return !this.signal.aborted && !this.response.destroyed && !this.response.writableEnded;
  }

  /** Writes raw text; waits while the socket's buffer is full. False once the stream is closed. */
  async write(text: string): Promise<boolean> {
    if (!this.open) return false;
    if (!this.response.write(text)) await this.until('drain');
    return this.open;
  }

  /**
   * Cuts the connection mid-response, as a crashed server or a dropped network does: once what was written has
   * reached the socket and the client has had a moment to read it (a fetch body that errors drops what it
   * has queued but not yet handed out), the socket is destroyed without the response ending.
   */
  async cutOff(): Promise<void> {
    if (!this.open) return;
    // An SSE comment, which every parser skips; its callback runs once everything before it is written.
    await new Promise<void>((resolve) => {
      const done = (): void => {
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      this.signal.addEventListener('abort', done, { once: true });
      this.response.write(':\n\n', done);
    });
    await this.pause(CUT_OFF_GRACE_MS);
    this.response.socket?.destroy();
  }

  /** Waits `ms` (nothing when 0). False once the stream is closed. */
  async pause(ms: number): Promise<boolean> {
    if (ms <= 0 || !this.open) return this.open;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.signal.addEventListener('abort', done, { once: true });
    });
    return this.open;
  }

  end(): void {
    if (this.open) this.response.end();
  }

  private until(event: 'drain'): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        this.response.off(event, done);
        this.response.off('close', done);
        this.signal.removeEventListener('abort', done);
        resolve();
      };
      this.response.once(event, done);
      this.response.once('close', done);
      this.signal.addEventListener('abort', done, { once: true });
    });
  }
}
