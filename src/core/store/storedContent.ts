/**
 * A content on disk, read when it is used and by ranges: a page of a 100 MB descriptor reads its index and
 * that page, not the file. What is read (texts, indexes, page tables, the newlines of an index block) is kept in
 * a `ContentCache` with a byte budget, the least recently used forgotten first.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { lowerBound } from '../descriptors/content';
import type { TextSource } from '../descriptors/textSource';
import { LruCache } from '../entities/lruCache';
import { isNotFound } from '../errors';
import { readFileIfExists, readRange } from './atomicFile';
import { checkStoreFolder, contentHash, describeStorePath, openStoreFile } from './storeFile';
import { ContentIndex, INDEXED_PAGE_SIZE, IndexBuilder, scanPageTable } from './contentIndex';
import { contentFileName, indexFileName, INDEXED_BYTES } from './contentSink';
import type { ContentRef } from './records';

/** The default memory budget for contents read from the store. */
export const DEFAULT_CACHE_BYTES = 64 * 1024 * 1024;
const READ_BLOCK_BYTES = 1 << 20;

/** Texts, indexes and page tables read from the store, within a byte budget shared by every session. */
export class ContentCache {
  private readonly lru: LruCache<string, unknown>;
  private readonly loading = new Map<string, Promise<unknown>>();

  constructor(readonly budgetBytes = DEFAULT_CACHE_BYTES) {
    this.lru = new LruCache(1_000_000, Infinity, Date.now, budgetBytes);
  }

  /** The cached value for `key`, or what `load` gives (stored unless larger than the budget); one load per key at a time. */
  async load<T>(key: string, load: () => Promise<{ value: T; bytes: number }>): Promise<T> {
    const hit = this.lru.get(key);
    if (hit !== undefined) return hit as T;
    const running = this.loading.get(key);
    if (running) return running as Promise<T>;
    const started = load().then(({ value, bytes }) => {
      this.lru.set(key, value, bytes);
      return value;
    });
    this.loading.set(key, started);
    try {
      return await started;
    } finally {
      this.loading.delete(key);
    }
  }

  /** Stores a value known already (the index of a content just written). */
  put(key: string, value: unknown, bytes: number): void {
    this.lru.set(key, value, bytes);
  }

  /** Bytes held now. */
  get bytes(): number {
    return this.lru.bytes;
  }

  get entries(): number {
    return this.lru.size;
  }

  clear(): void {
    this.lru.clear();
  }
}

/** The index builder of one growing file, shared by the readers of this process, and its queue of extensions. */
class GrowingIndex {
  builder = new IndexBuilder('utf8');
  queue: Promise<unknown> = Promise.resolve();
}

/** Thrown when a content's file is gone (its session was deleted meanwhile). */
export class MissingContentError extends Error {}

/**
 * Thrown when a content's file no longer holds what was written: another size (checked on every read, for free)
 * or, when it is read whole, other bytes (checked against their hash while they are read).
 */
export class DamagedContentError extends Error {}

/** One content of a session, by reference: sizes are known at once, text is read on demand. */
export class StoredContent implements TextSource {
  constructor(
    readonly ref: ContentRef,
    /** The session's content folder. */
    readonly folder: string,
    private readonly cache: ContentCache,
    /**
     * Set for a growing descriptor's content: the file it is being written to. This content is then its first
     * `ref.bytes` bytes (whole characters, as its writer recorded them), with no hash (`ref.h` is '') and no
     * index file: the index is built by extending one builder, per file, by the bytes written since (see
     * `index()`), so a read of the end costs what was added, not the whole output.
     */
    readonly growingFile?: string,
  ) {}

  get file(): string {
    return path.join(this.folder, this.growingFile ?? contentFileName(this.ref));
  }

  /** Whether this is a prefix of a content still being written. */
  get growing(): boolean {
    return this.growingFile !== undefined;
  }

  /** What the cache knows this text by: a growing file's prefix is another text with each size. */
  private get key(): string {
    return this.growing ? `${this.file}@${this.ref.bytes}` : this.file;
  }

  /** Length in UTF-16 code units, as `Content.length`. */
  get length(): number {
    return this.ref.chars;
  }

  get totalLines(): number {
    return this.ref.lines;
  }

  /** Bytes the content takes on disk. */
  get bytes(): number {
    return this.ref.bytes;
  }

  /** The whole text (read in blocks, so no single step holds the thread for long). */
  text(): Promise<string> {
    return this.cache.load(`text:${this.key}`, async () => {
      const parts: string[] = [];
      for await (const chunk of this.chunks()) parts.push(chunk.text);
      const text = parts.join('');
      return { value: text, bytes: text.length * 2 };
    });
  }

  /** The checkpoints (from the index file, or built by reading the content once, a block at a time). */
  index(): Promise<ContentIndex> {
    if (this.growing) return this.cache.load(`index:${this.key}`, () => this.growIndex());
    return this.cache.load(`index:${this.file}`, async () => {
      const stored = this.isSmall()
        ? undefined
        : await readFileIfExists(path.join(this.folder, indexFileName(this.ref)));
      let index = stored === undefined ? undefined : ContentIndex.decode(stored, this.ref);
      if (index === undefined) {
        const builder = new IndexBuilder(this.ref.enc);
        for await (const chunk of this.chunks()) builder.push(chunk.text, Buffer.byteLength(chunk.text, this.ref.enc));
        index = builder.finish();
      }
      return { value: index, bytes: index.byteSize };
    });
  }

  /**
   * The index of a growing content's prefix: the builder kept for its file (in the cache) is extended by the bytes
   * between what it has read and `ref.bytes` (a prefix shorter than what it has read, another reader's older view,
   * is indexed from the start). Extensions of one file run one at a time.
   */
  private async growIndex(): Promise<{ value: ContentIndex; bytes: number }> {
    const state = await this.cache.load(`grower:${this.file}`, () =>
      Promise.resolve({ value: new GrowingIndex(), bytes: 4096 }),
    );
    const run = state.queue.then(async () => {
      let builder = state.builder;
      if (builder.byteLength > this.ref.bytes) builder = new IndexBuilder('utf8');
      if (builder.byteLength < this.ref.bytes) {
        for await (const chunk of this.rangeChunks(builder.byteLength, this.ref.bytes))
          builder.push(chunk.text, Buffer.byteLength(chunk.text, 'utf8'));
      }
      if (builder !== state.builder && builder.byteLength >= state.builder.byteLength) state.builder = builder;
      return builder.snapshot();
    });
    state.queue = run.catch(() => undefined);
    const index = await run;
    return { value: index, bytes: index.byteSize };
  }

  /** The text of bytes `[start, end)` (both at character boundaries), in blocks. */
  private async *rangeChunks(start: number, end: number): AsyncGenerator<{ text: string }> {
    const handle = await this.openFile();
    try {
      const decoder = new StringDecoder(this.ref.enc);
      const buffer = Buffer.alloc(READ_BLOCK_BYTES);
      for (let at = start; at < end;) {
        const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, end - at), at);
        if (bytesRead === 0) throw this.damaged(`it ends before byte ${end}`);
        at += bytesRead;
        const text = decoder.write(buffer.subarray(0, bytesRead));
        if (text.length > 0) yield { text };
      }
      const rest = decoder.end();
      if (rest.length > 0) yield { text: rest };
    } finally {
      await handle.close();
    }
  }

  /** The 1-based line holding the character at `offset` (0 for empty text), as `Content.lineAt`. */
  async lineAt(offset: number): Promise<number> {
    if (this.length === 0) return 0;
    offset = Math.max(0, Math.min(offset, this.length - 1));
    const index = await this.index();
    const k = index.blockAt(offset);
    const block = index.block(k);
    return 1 + block.newlinesBefore + lowerBound(await this.blockNewlines(index, k), offset - block.charStart);
  }

  /** Offset where 1-based `line` starts; `totalLines + 1` gives the end of the text, as `Content.lineStart`. */
  async lineStart(line: number): Promise<number> {
    if (line > this.totalLines) return this.length;
    if (line <= 1) return 0;
    // Line `line` starts just after the text's newline number `line - 1`.
    const index = await this.index();
    const k = index.blockOfNewline(line - 1);
    const block = index.block(k);
    const newlines = await this.blockNewlines(index, k);
    return block.charStart + (newlines[line - 2 - block.newlinesBefore] as number) + 1;
  }

  /** Where the newlines of index block `k` are, from its start. */
  private blockNewlines(index: ContentIndex, k: number): Promise<Uint32Array> {
    return this.cache.load(`newlines:${k}:${this.key}`, async () => {
      const block = index.block(k);
      const text = this.isSmall()
        ? (await this.text()).slice(block.charStart, block.charEnd)
        : (await this.readBytes(block.byteStart, block.byteEnd)).toString(this.ref.enc);
      let positions = new Uint32Array(64);
      let count = 0;
      for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
        if (count === positions.length) {
          const grown = new Uint32Array(count * 2);
          grown.set(positions);
          positions = grown;
        }
        positions[count++] = i;
      }
      const value = positions.slice(0, count);
      return { value, bytes: value.byteLength + 64 };
    });
  }

  /** Characters `[start, end)` (clamped to the text), read by range when the content is large. */
  async slice(start: number, end = this.length): Promise<string> {
    start = Math.max(0, Math.min(start, this.length));
    end = Math.max(start, Math.min(end, this.length));
    if (start === end) return '';
    if (this.isSmall()) return (await this.text()).slice(start, end);
    const { charStart, byteStart, byteEnd } = (await this.index()).byteRange(start, end);
    const bytes = await this.readBytes(byteStart, byteEnd);
    return bytes.toString(this.ref.enc).slice(start - charStart, end - charStart);
  }

  /** Page start offsets followed by the length, exactly as `Content.pageTable(pageSize)` gives them (one pass). */
  async pageTable(pageSize: number): Promise<Uint32Array> {
    if (pageSize === INDEXED_PAGE_SIZE && !this.isSmall()) return (await this.index()).pages;
    return this.cache.load(`pages:${pageSize}:${this.key}`, async () => {
      const table = await scanPageTable(this.chunks(), this.length, pageSize);
      return { value: table, bytes: table.byteLength };
    });
  }

  /** The text of 1-based page `page` of `pageSize`; a RangeError past the last page. */
  async page(page: number, pageSize: number): Promise<string> {
    const table = await this.pageTable(pageSize);
    if (!Number.isInteger(page) || page < 1 || page > table.length - 1)
      throw new RangeError(`There is no page ${page}; there are ${table.length - 1}.`);
    return this.slice(table[page - 1] as number, table[page]);
  }

  /** The last `chars` characters (fewer when the text is shorter). */
  tail(chars: number): Promise<string> {
    return this.slice(Math.max(0, this.length - chars));
  }

  /**
   * The text in order, block by block, each with the offset of its first character (for searching in linear time).
   * The bytes are hashed as they are read: read to its end, a content whose bytes no longer match their hash
   * (changed on disk) throws `DamagedContentError` instead of ending (so `text()` never returns such a text).
   */
  async *chunks(blockBytes = READ_BLOCK_BYTES): AsyncGenerator<{ offset: number; text: string }> {
    const handle = await this.openFile();
    try {
      const decoder = new StringDecoder(this.ref.enc);
      const hash = createHash('sha256');
      const buffer = Buffer.alloc(Math.max(16, blockBytes));
      let offset = 0;
      let position = 0;
      for (;;) {
        // A growing file is read up to what its writer recorded, never further (more may be there, half written).
        const wanted = this.growing ? Math.min(buffer.length, this.ref.bytes - position) : buffer.length;
        const { bytesRead } = wanted === 0 ? { bytesRead: 0 } : await handle.read(buffer, 0, wanted, null);
        position += bytesRead;
        hash.update(buffer.subarray(0, bytesRead));
        if (bytesRead === 0 && !this.growing && contentHash(hash) !== this.ref.h)
          throw this.damaged('its bytes no longer match their hash');
        const text = bytesRead === 0 ? decoder.end() : decoder.write(buffer.subarray(0, bytesRead));
        if (text.length > 0) {
          yield { offset, text };
          offset += text.length;
        }
        if (bytesRead === 0) return;
      }
    } finally {
      await handle.close();
    }
  }

  private damaged(how: string): DamagedContentError {
    return new DamagedContentError(
      `${describeStorePath(this.file)} was changed on disk (${how}), so it is not read. Writing the same text again puts it back.`,
    );
  }

  private isSmall(): boolean {
    return !this.growing && this.ref.bytes <= INDEXED_BYTES;
  }

  private async readBytes(start: number, end: number): Promise<Buffer> {
    const handle = await this.openFile();
    try {
      return await readRange(handle, start, end);
    } finally {
      await handle.close();
    }
  }

  /**
   * Opens the content file: only a regular file, reached through a content folder that is not a link (see
   * `openStoreFile`), and of the size its record says (a cheap check of every read; `chunks` checks the bytes).
   */
  private async openFile(): Promise<fs.FileHandle> {
    let handle: fs.FileHandle;
    try {
      await checkStoreFolder(this.folder);
      handle = await openStoreFile(this.file, 'read', (stat) => {
        // A growing file may hold more than its record says already (written since), never less.
        if (this.growing ? stat.size < this.ref.bytes : stat.size !== this.ref.bytes)
          throw this.damaged(`it has ${stat.size} bytes, not ${this.ref.bytes}`);
      });
    } catch (error) {
      if (isNotFound(error))
        throw new MissingContentError(
          `The content ${this.ref.h} is no longer in the store (its session was deleted, or its file removed).`,
        );
      throw error;
    }
    return handle;
  }
}
