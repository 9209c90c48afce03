/**
 * The server's stdio transport: the SDK's `StdioServerTransport`, fed only messages of at most `maxMessageBytes`.
 * The SDK's own read buffer closes the connection when it holds more than its limit (a 12 MB `store_text` ended
 * the server); here a longer message is skipped as it arrives, answered with a JSON-RPC error carrying its id when
 * it is a request (else logged), and the server keeps serving. Memory stays bounded by the limit whatever a client
 * sends, and no error message it sends back is longer than `ERROR_MESSAGE_MAX_CHARS`.
 */
import { Transform, type Readable, type TransformCallback, type Writable } from 'node:stream';
import { INVALID_REQUEST, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';

/** The most bytes one message (one line) may have; the SDK's own default. */
export const MESSAGE_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The longest error message sent: the SDK's own messages echo what they were given (`Tool <name> not found`
 * for a 9 MB name); a longer one keeps its start and end.
 */
export const ERROR_MESSAGE_MAX_CHARS = 1_000;

/** A message too long to read: its size, and the id of the request it was when that could be seen. */
export interface OversizedMessage {
  readonly bytes: number;
  /** Set when the message was a request (it had a `method` and an `id`). */
  readonly requestId?: RequestId;
}

export interface BoundedStdioOptions {
  readonly maxMessageBytes?: number;
  /** Diagnostics for the person running the server (stderr). */
  readonly log: (message: string) => void;
}

export class BoundedStdioTransport extends StdioServerTransport {
  private readonly maxMessageBytes: number;
  private readonly log: (message: string) => void;

  constructor(stdin: Readable, stdout: Writable, options: BoundedStdioOptions) {
    const maxMessageBytes = options.maxMessageBytes ?? MESSAGE_MAX_BYTES;
    const lines = new MessageLines(maxMessageBytes);
    stdin.pipe(lines);
    stdin.on('error', (error) => lines.destroy(error)); // the transport hears of it, and closes
    // Each line reaches the SDK's buffer whole and is read at once, so its limit is never reached; it stays as a
    // backstop above ours.
    super(lines, stdout, { maxBufferSize: 2 * maxMessageBytes + 2 });
    this.maxMessageBytes = maxMessageBytes;
    this.log = options.log;
    lines.on('oversized', (message: OversizedMessage) => this.refuse(message));
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return super.send('error' in message ? { ...message, error: clipError(message.error) } : message);
  }

  private refuse(message: OversizedMessage): void {
    const text =
      `The message of ${message.bytes.toLocaleString('en-US')} bytes was not read: this server reads messages of ` +
      `at most ${formatBytes(this.maxMessageBytes)}. Send long text in parts (several store_text calls), or write ` +
      'it to a file in the workspace and store it with run_command (e.g. `cat file`).';
    this.log(message.requestId === undefined ? text : `${text} (request ${JSON.stringify(message.requestId)})`);
    if (message.requestId === undefined) return;
    this.send({ jsonrpc: '2.0', id: message.requestId, error: { code: INVALID_REQUEST, message: text } }).catch(
      (error: unknown) => this.log(`The refusal could not be sent: ${String(error)}`),
    );
  }
}

/**
 * Splits a byte stream into lines of at most `maxBytes` (without the newline), each pushed whole as one chunk
 * (with its newline). A longer line is not kept: it is scanned for its request id as it passes, then announced
 * with an `oversized` event. Work and memory are linear in the input and bounded by `maxBytes`.
 */
export class MessageLines extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  /** Set while a line longer than the limit passes. */
  private skipping: { scanner: RequestIdScanner; bytes: number } | undefined;

  constructor(private readonly maxBytes: number) {
    // One chunk out is one line: the reader gets lines, never several joined nor one split.
    super({ readableObjectMode: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let start = 0;
    while (start < chunk.length) {
      const newline = chunk.indexOf(0x0a, start);
      const end = newline === -1 ? chunk.length : newline;
      this.keepPiece(chunk.subarray(start, end));
      if (newline === -1) break;
      this.endLine();
      start = newline + 1;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.skipping !== undefined || this.pendingBytes > 0) this.endLine();
    done();
  }

  private keepPiece(piece: Buffer): void {
    if (piece.length === 0) return;
    if (this.skipping === undefined && this.pendingBytes + piece.length > this.maxBytes) {
      const scanner = new RequestIdScanner();
      for (const kept of this.pending) scanner.feed(kept);
      this.skipping = { scanner, bytes: this.pendingBytes };
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (this.skipping !== undefined) {
      this.skipping.scanner.feed(piece);
      this.skipping.bytes += piece.length;
      return;
    }
    // A copy: the chunk's memory may be reused by the stream once this returns.
    this.pending.push(Buffer.from(piece));
    this.pendingBytes += piece.length;
  }

  private endLine(): void {
    if (this.skipping !== undefined) {
      const { scanner, bytes } = this.skipping;
      this.skipping = undefined;
      const requestId = scanner.requestId();
      this.emit('oversized', requestId === undefined ? { bytes } : { bytes, requestId });
      return;
    }
    this.pending.push(Buffer.from('\n'));
    this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Bytes kept of a top-level key (enough for `"method"`) and of the `id` value (a string id of any sane length). */
const KEY_BYTES = 10;
const ID_BYTES = 256;

/**
 * Reads, byte by byte and keeping almost nothing, the top-level `"id"` and whether there is a `"method"` in one
 * JSON-RPC message: enough to answer a request that is too long to parse. The SDK's client writes `id` last.
 */
export class RequestIdScanner {
  private depth = 0;
  private inString = false;
  private escaped = false;
  /** At depth 1 of an object, before a key's closing `:`. */
  private expectKey = false;
  private key: number[] | undefined;
  private lastKey = '';
  /** The bytes of the value of `"id"` while it is read (undefined when not reading it, or when it is too long). */
  private value: number[] | undefined;
  private readingValue = false;
  private hasMethod = false;
  private idText: string | undefined;

  feed(bytes: Uint8Array): void {
    // Where the next quote and backslash are from here (-1: none left), each searched for again only once passed.
    let quoteAt = -2;
    let backslashAt = -2;
    for (let at = 0; at < bytes.length; at++) {
      if (this.inString && !this.escaped && this.key === undefined && !this.readingValue) {
        // Inside a string nobody reads (the text of a long argument): on to its next quote or backslash.
        if (quoteAt !== -1 && quoteAt < at) quoteAt = bytes.indexOf(QUOTE, at);
        if (backslashAt !== -1 && backslashAt < at) backslashAt = bytes.indexOf(BACKSLASH, at);
        const next = Math.min(...[quoteAt, backslashAt].filter((index) => index !== -1));
        if (next === Infinity) return;
        at = next;
      }
      const byte = bytes[at] as number;
      if (this.inString) {
        if (this.escaped) this.escaped = false;
        else if (byte === BACKSLASH) this.escaped = true;
        else if (byte === QUOTE) this.inString = false;
        if (this.key !== undefined) {
          if (!this.inString) this.endKey();
          else if (this.key.length < KEY_BYTES) this.key.push(byte);
        } else if (this.readingValue) this.keepValueByte(byte);
        continue;
      }
      switch (byte) {
        case 0x7b: // {
        case 0x5b: // [
          this.depth++;
          if (this.depth === 1) this.expectKey = byte === 0x7b;
          else if (this.depth === 2 && this.readingValue) this.value = undefined; // not a string nor a number
          break;
        case 0x7d: // }
        case 0x5d: // ]
          if (this.depth === 1) this.endValue();
          this.depth--;
          break;
        case QUOTE:
          this.inString = true;
          if (this.depth === 1 && this.expectKey) this.key = [];
          else if (this.depth === 1 && this.readingValue) this.keepValueByte(byte);
          break;
        case 0x3a: // :
          if (this.depth === 1 && this.expectKey) {
            this.expectKey = false;
            this.readingValue = true;
            this.value = this.lastKey === '"id"' ? [] : undefined;
          }
          break;
        case 0x2c: // ,
          if (this.depth === 1) {
            this.endValue();
            this.expectKey = true;
          }
          break;
        default:
          if (this.depth === 1 && this.readingValue) this.keepValueByte(byte);
      }
    }
  }

  /** The request's id, when the message had a top-level `method` and a string or number `id`. */
  requestId(): RequestId | undefined {
    if (!this.hasMethod || this.idText === undefined) return undefined;
    try {
      const id: unknown = JSON.parse(this.idText);
      return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : undefined;
    } catch {
      return undefined;
    }
  }

  private endKey(): void {
    const key = this.key ?? [];
    this.key = undefined;
    this.lastKey = key.length < KEY_BYTES ? `"${Buffer.from(key).toString('latin1')}"` : '';
    if (this.lastKey === '"method"') this.hasMethod = true;
  }

  private keepValueByte(byte: number): void {
    if (this.value === undefined) return;
    if (this.value.length >= ID_BYTES) this.value = undefined;
    else this.value.push(byte);
  }

  private endValue(): void {
    if (this.readingValue && this.value !== undefined) this.idText = Buffer.from(this.value).toString('utf8').trim();
    this.readingValue = false;
    this.value = undefined;
  }
}

/**
 * A JSON-RPC error with its message cut (`clipMessage`) and its data's strings too (the SDK puts the URI asked for
 * in a `ResourceNotFoundError`'s data); data still longer than the limit is left out.
 */
export function clipError<E extends { message: string; data?: unknown }>(error: E): E {
  const clipped = { ...error, message: clipMessage(error.message) };
  const { data } = error;
  if (data === undefined) return clipped;
  const short =
    typeof data === 'string'
      ? clipMessage(data)
      : typeof data === 'object' && data !== null && !Array.isArray(data)
        ? Object.fromEntries(
            Object.entries(data).map(([key, value]) => [key, typeof value === 'string' ? clipMessage(value) : value]),
          )
        : data;
  if ((JSON.stringify(short) ?? '').length > 2 * ERROR_MESSAGE_MAX_CHARS) {
    delete clipped.data;
    return clipped;
  }
  return { ...clipped, data: short };
}

/** `message` cut to its start and end when longer than `ERROR_MESSAGE_MAX_CHARS`. */
export function clipMessage(message: string): string {
  if (message.length <= ERROR_MESSAGE_MAX_CHARS) return message;
  const part = Math.floor((ERROR_MESSAGE_MAX_CHARS - 60) / 2);
  return `${message.slice(0, part)}… (${(message.length - 2 * part).toLocaleString('en-US')} characters cut) …${message.slice(-part)}`;
}

function formatBytes(bytes: number): string {
  const mib = bytes / (1024 * 1024);
  return Number.isInteger(mib) ? `${mib} MiB` : `${bytes.toLocaleString('en-US')} bytes`;
}
