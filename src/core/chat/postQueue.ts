/**
 * Batches what the extension posts to the chat webview: text deltas of the same round that arrive within
 * one flush interval are joined into one message, so a stream of thousands of small chunks costs the
 * webview a few dozen messages a second. Order is kept: any other message ends the run of deltas.
 */
import type { ToWebview } from './protocol';

export class PostQueue {
  private queue: ToWebview[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly deliver: (message: ToWebview) => void,
    private readonly intervalMs = 16,
  ) {}

  push(message: ToWebview): void {
    const last = this.queue[this.queue.length - 1];
    if (
      message.type === 'textDelta' &&
      last?.type === 'textDelta' &&
      last.messageId === message.messageId &&
      last.round === message.round
    ) {
      this.queue[this.queue.length - 1] = { ...last, text: last.text + message.text };
    } else {
      this.queue.push(message);
    }
    this.timer ??= setTimeout(() => this.flush(), this.intervalMs);
  }

  /** Delivers everything queued now. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    const queue = this.queue;
    this.queue = [];
    for (const message of queue) this.deliver(message);
  }

  /** Drops what is queued (the webview will be sent the whole state). */
  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.queue = [];
  }
}
