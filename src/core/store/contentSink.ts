/**
 * Writes one content file, in pieces, as it arrives: nothing but the current piece is held in memory, and no
 * step takes long on the calling thread whatever the total size (each flush encodes, hashes and indexes at
 * most `FLUSH_CHARS` characters before it awaits the write).
 */
import { createHash, type Hash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { renameReplacing, syncFolder, tempNameFor, type Durability } from './atomicFile';
import { ContentIndex, IndexBuilder, type ContentEncoding } from './contentIndex';
import type { ContentRef } from './records';
import { contentHash, holdsContent } from './storeFile';

/** Text is encoded and written in pieces of at most this many characters. */
export const FLUSH_CHARS = 1 << 18;
/** Contents of more bytes than this get an index file; smaller ones are read whole. */
export const INDEXED_BYTES = 256 * 1024;

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const LONE_SURROGATES = new RegExp(LONE_SURROGATE.source, 'g');

/** Thrown by a `strict` UTF-8 sink given text UTF-8 cannot hold; `putContent` then writes UTF-16 instead. */
export class NotUtf8Error extends Error {}

/** The file name of a content: its hash and an extension naming its encoding. */
export function contentFileName(ref: Pick<ContentRef, 'h' | 'enc'>): string {
  return `${ref.h}.${ref.enc === 'utf8' ? 'txt' : 'u16'}`;
}

export function indexFileName(ref: Pick<ContentRef, 'h'>): string {
  return `${ref.h}.idx`;
}

export interface SinkOptions {
  readonly folder: string;
  readonly durability: Durability;
  readonly enc?: ContentEncoding;
  /** For UTF-8: `replace` writes U+FFFD for a lone surrogate (streamed output), `fail` throws `NotUtf8Error`. */
  readonly loneSurrogates?: 'replace' | 'fail';
}

/**
 * A content being written. `write` pieces in order, then `seal()`: the file is flushed and renamed to its
 * hash (a file of that name already there is the same content and is kept), its index written beside it.
 * Until it is sealed nothing points at it; `abort()` removes it.
 */
export class ContentSink {
  private readonly enc: ContentEncoding;
  private readonly hash: Hash = createHash('sha256');
  private readonly index: IndexBuilder;
  /** The file being written: a temporary name, or a growing descriptor's file once `grow` published it. */
  private temp: string;
  private handle: fs.FileHandle | undefined;
  private pending: string[] = [];
  private pendingChars = 0;
  /** Characters of `writeUtf8` pieces queued and not written yet. */
  private queuedChars = 0;
  private position = 0;
  private charsWritten = 0;
  private queue: Promise<void> = Promise.resolve();
  private state: 'open' | 'sealed' | 'aborted' = 'open';

  constructor(private readonly options: SinkOptions) {
    this.enc = options.enc ?? 'utf8';
    this.index = new IndexBuilder(this.enc);
    this.temp = path.join(options.folder, tempNameFor('content'));
  }

  /** Characters accepted so far. */
  get chars(): number {
    return this.charsWritten + this.pendingChars + this.queuedChars;
  }

  /** Adds `piece`; resolves once it is buffered or written (await it to keep memory bounded). */
  write(piece: string): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new Error('This content is already sealed or aborted.'));
    if (piece.length === 0) return this.queue;
    this.pending.push(piece);
    this.pendingChars += piece.length;
    if (this.pendingChars >= FLUSH_CHARS) this.enqueue(() => this.flush(false));
    return this.queue;
  }

  /**
   * Adds a piece given as its UTF-8 bytes, with its `text` (exactly those bytes decoded: valid UTF-8, whole
   * characters). The bytes are hashed and written as they are, in one write, with no encoding back: a stream known
   * to be valid UTF-8 (a command's output) is written once. Resolves once they are written (and fails if that
   * failed): everything before this piece is then in the file too. UTF-8 only.
   */
  writeUtf8(bytes: Buffer, text: string): Promise<void> {
    if (this.state !== 'open') return Promise.reject(new Error('This content is already sealed or aborted.'));
    if (this.enc !== 'utf8') return Promise.reject(new Error('Only a UTF-8 content takes UTF-8 bytes.'));
    if (bytes.length === 0) return this.queue;
    this.queuedChars += text.length;
    this.enqueue(async () => {
      // Text written before goes first, whole: a high surrogate at its end has no low half coming (valid UTF-8
      // holds none), so it is a lone one.
      await this.flush(true);
      this.queuedChars -= text.length;
      await this.writeOut(bytes, text);
    });
    return this.queue;
  }

  /**
   * Opens the file being written for reading, by a handle of its own: it reads the same file after the sink has
   * renamed it (sealed, grown) or removed it (aborted, failed), so what was written can still be read back.
   */
  async openForReading(): Promise<fs.FileHandle> {
    if (this.state !== 'open') throw new Error('This content is already sealed or aborted.');
    this.enqueue(async () => {
      await this.open();
    });
    await this.queue;
    return fs.open(this.temp, 'r');
  }

  /**
   * Makes the content readable while it is written (a growing descriptor): writes what is buffered, then renames
   * the file to `name` in the folder; later writes go on into it, and `seal()` renames it to its hash as usual.
   * UTF-8 only (readers of a growing file decode it so).
   */
  async grow(name: string): Promise<void> {
    if (this.state !== 'open') throw new Error('This content is already sealed or aborted.');
    if (this.enc !== 'utf8') throw new Error('Only a UTF-8 content can grow.');
    this.enqueue(async () => {
      await this.flush(false);
      await this.open(); // the file exists even before the first byte
      const target = path.join(this.options.folder, name);
      await fs.rename(this.temp, target);
      this.temp = target;
      await syncFolder(this.options.folder, this.options.durability);
    });
    await this.queue;
  }

  /**
   * Writes what is buffered (whole characters: the high half of a pair at the end waits for its low half) and
   * says what the file holds now, flushed to disk under `fsync` durability: a growing descriptor records it.
   */
  async flushNow(): Promise<{ chars: number; bytes: number; lines: number }> {
    if (this.state !== 'open') throw new Error('This content is already sealed or aborted.');
    let written = { chars: 0, bytes: 0, lines: 0 };
    this.enqueue(async () => {
      await this.flush(false);
      if (this.options.durability === 'fsync') await this.handle?.datasync();
      // Taken here, in the queue: a later flush counts its text in the index before its bytes are written.
      written = { chars: this.index.length, bytes: this.index.byteLength, lines: this.index.totalLines };
    });
    await this.queue;
    return written;
  }

  /** Writes what is left, publishes the file under its hash and returns where it is. */
  async seal(): Promise<{ ref: ContentRef; index: ContentIndex }> {
    if (this.state !== 'open') throw new Error('This content is already sealed or aborted.');
    this.state = 'sealed';
    try {
      this.enqueue(() => this.flush(true));
      await this.queue;
      const handle = await this.open();
      if (this.options.durability === 'fsync') await handle.datasync();
      await handle.close();
      this.handle = undefined;
      const index = this.index.finish();
      const ref: ContentRef = {
        h: contentHash(this.hash),
        enc: this.enc,
        chars: index.length,
        bytes: index.bytes,
        lines: index.totalLines,
      };
      const target = path.join(this.options.folder, contentFileName(ref));
      // The same content written before is kept only when its bytes still match their hash; else it is replaced.
      const kept = await holdsContent(target, ref);
      if (kept) await fs.rm(this.temp, { force: true });
      else await renameReplacing(this.temp, target);
      if (ref.bytes > INDEXED_BYTES) await this.writeIndex(ref, index, !kept);
      await syncFolder(this.options.folder, this.options.durability);
      return { ref, index };
    } catch (error) {
      await this.discard();
      throw error;
    }
  }

  /** Stops and removes what was written. */
  async abort(): Promise<void> {
    if (this.state !== 'open') return;
    this.state = 'aborted';
    await this.queue.catch(() => undefined);
    await this.discard();
  }

  private enqueue(step: () => Promise<void>): void {
    this.queue = this.queue.then(step);
    // A failed step fails every later one: the caller sees the error on its next write or on seal.
  }

  private async flush(final: boolean): Promise<void> {
    if (this.pending.length === 0) return;
    let text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    // The high half of a pair at the end waits for its low half, so no piece ends inside a pair.
    if (!final && isHighSurrogate(text.charCodeAt(text.length - 1))) {
      this.pending.push(text.slice(-1));
      this.pendingChars = 1;
      text = text.slice(0, -1);
    }
    if (this.enc === 'utf8' && LONE_SURROGATE.test(text)) {
      if (this.options.loneSurrogates === 'fail')
        throw new NotUtf8Error('The text holds a lone surrogate, which UTF-8 cannot encode.');
      text = text.replace(LONE_SURROGATES, '\ufffd');
    }
    await this.writeOut(Buffer.from(text, this.enc), text);
  }

  /** Hashes, indexes and appends `bytes`, the encoding of `text`. */
  private async writeOut(bytes: Buffer, text: string): Promise<void> {
    this.hash.update(bytes);
    this.index.push(text, bytes.length);
    const handle = await this.open();
    let written = 0;
    while (written < bytes.length)
      written += (await handle.write(bytes, written, bytes.length - written, this.position + written)).bytesWritten;
    this.position += bytes.length;
    this.charsWritten += text.length;
  }

  private async open(): Promise<fs.FileHandle> {
    return (this.handle ??= await fs.open(this.temp, 'wx'));
  }

  private async writeIndex(ref: ContentRef, index: ContentIndex, replace: boolean): Promise<void> {
    const target = path.join(this.options.folder, indexFileName(ref));
    if (!replace && (await exists(target))) return;
    const temp = path.join(this.options.folder, tempNameFor(indexFileName(ref)));
    const handle = await fs.open(temp, 'wx');
    try {
      await handle.writeFile(index.encode());
      if (this.options.durability === 'fsync') await handle.datasync();
    } finally {
      await handle.close();
    }
    await renameReplacing(temp, target);
  }

  private async discard(): Promise<void> {
    await this.handle?.close().catch(() => undefined);
    this.handle = undefined;
    await fs.rm(this.temp, { force: true });
  }
}

/**
 * Writes `text` as a content in `folder`, in pieces (see `ContentSink`). Text UTF-8 cannot hold exactly (a
 * lone surrogate) is written as UTF-16, so every string comes back as it went in.
 */
export async function writeContent(
  text: string,
  folder: string,
  durability: Durability,
): Promise<{ ref: ContentRef; index: ContentIndex }> {
  try {
    return await writePieces(text, new ContentSink({ folder, durability, enc: 'utf8', loneSurrogates: 'fail' }));
  } catch (error) {
    if (!(error instanceof NotUtf8Error)) throw error;
    return writePieces(text, new ContentSink({ folder, durability, enc: 'utf16le' }));
  }
}

async function writePieces(text: string, sink: ContentSink): Promise<{ ref: ContentRef; index: ContentIndex }> {
  try {
    for (let at = 0; at < text.length; at += FLUSH_CHARS) await sink.write(text.slice(at, at + FLUSH_CHARS));
    return await sink.seal();
  } catch (error) {
    await sink.abort();
    throw error;
  }
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}
