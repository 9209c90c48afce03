/**
 * What lets a large content be read by ranges, in memory that does not grow with its line count: a checkpoint
 * every `CHECKPOINT_CHARS` characters (UTF-16 code units, as `Content` counts them) giving that character's byte
 * offset and the number of newlines before it. A line's start, or the line at an offset, is found from the nearest
 * checkpoint by scanning one block of text (at most `CHECKPOINT_CHARS` characters) for its newlines. Built while
 * the content is written, stored beside it (`<hash>.idx`, format `FDX2`: 24 bytes a checkpoint, so 100 M short
 * lines take about 37 KB where the line starts of `FDX1` took 400 MB), with the page table of the default page size
 * (4 bytes a page: a cold page read reads that and the page, never the whole content). An `FDX1` file is no longer read: the index
 * is rebuilt from the content, in one pass that holds one block at a time.
 */
import { DEFAULT_PAGE_SIZE, lowerBound, upperBound } from '../descriptors/content';
import { splitsSurrogatePair } from '../surrogates';
import type { ContentRef } from './records';

export const CHECKPOINT_CHARS = 1 << 16;
/** The page size whose page table the index keeps: every surface's default (a session's `pageSize`). */
export const INDEXED_PAGE_SIZE = DEFAULT_PAGE_SIZE;
const MAGIC = 'FDX2';
const HIGH_SURROGATE = /[\ud800-\udbff]/;

export type ContentEncoding = ContentRef['enc'];

/** Collects the index of a text given in pieces, none of which ends between the halves of a surrogate pair. */
export class IndexBuilder {
  private chars = 0;
  private bytes = 0;
  private newlines = 0;
  private endsWithNewline = false;
  private readonly cpChar: number[] = [];
  private readonly cpByte: number[] = [];
  private readonly cpNewlines: number[] = [];
  private astral = false;
  private readonly pages = new PageTableBuilder(INDEXED_PAGE_SIZE);

  constructor(private readonly enc: ContentEncoding) {}

  /** Adds the next piece of text, which takes `byteLength` bytes in the file. */
  push(piece: string, byteLength: number): void {
    if (piece.length === 0) return;
    this.pages.push(piece);
    if (!this.astral && HIGH_SURROGATE.test(piece)) this.astral = true;
    const ascii = byteLength === piece.length;
    let next = piece.indexOf('\n');
    let counted = 0; // newlines in the piece before `next`
    let segmentChar = 0;
    let segmentByte = this.bytes;
    for (
      let target = this.cpChar.length * CHECKPOINT_CHARS;
      target < this.chars + piece.length;
      target = this.cpChar.length * CHECKPOINT_CHARS
    ) {
      let local = target - this.chars;
      if (splitsSurrogatePair(piece, local)) local--;
      while (next !== -1 && next < local) {
        counted++;
        next = piece.indexOf('\n', next + 1);
      }
      let byte: number;
      if (this.enc === 'utf16le') byte = (this.chars + local) * 2;
      else if (ascii) byte = this.bytes + local;
      else byte = segmentByte + Buffer.byteLength(piece.slice(segmentChar, local), 'utf8');
      segmentChar = local;
      segmentByte = byte;
      this.cpChar.push(this.chars + local);
      this.cpByte.push(byte);
      this.cpNewlines.push(this.newlines + counted);
    }
    for (; next !== -1; next = piece.indexOf('\n', next + 1)) counted++;
    this.newlines += counted;
    this.endsWithNewline = piece.charCodeAt(piece.length - 1) === 10;
    this.chars += piece.length;
    this.bytes += byteLength;
  }

  finish(): ContentIndex {
    return this.build(this.pages.finish(this.chars));
  }

  /**
   * The index of the text pushed so far, leaving the builder open for more (a growing content's readers extend
   * one builder by the bytes appended since their last look instead of reading the whole file again).
   */
  snapshot(): ContentIndex {
    return this.build(this.pages.snapshot(this.chars));
  }

  /** Characters pushed so far. */
  get length(): number {
    return this.chars;
  }

  /** Bytes pushed so far. */
  get byteLength(): number {
    return this.bytes;
  }

  private build(pages: Uint32Array): ContentIndex {
    return new ContentIndex(
      this.enc,
      this.chars,
      this.bytes,
      this.totalLines,
      this.newlines,
      this.astral,
      Float64Array.from(this.cpChar),
      Float64Array.from(this.cpByte),
      Float64Array.from(this.cpNewlines),
      pages,
    );
  }

  /** Lines so far, counted as `Content.totalLines` counts them (a newline at the very end starts none). */
  get totalLines(): number {
    return this.chars === 0 ? 0 : 1 + this.newlines - (this.endsWithNewline ? 1 : 0);
  }
}

/** One block of a content, between two checkpoints (the last one ends at the end of the text). */
export interface IndexBlock {
  readonly charStart: number;
  readonly charEnd: number;
  readonly byteStart: number;
  readonly byteEnd: number;
  /** Newlines in the text before `charStart`. */
  readonly newlinesBefore: number;
}

/** The index of one content: its checkpoints, its newline count and whether it holds characters outside the BMP. */
export class ContentIndex {
  constructor(
    readonly enc: ContentEncoding,
    readonly length: number,
    readonly bytes: number,
    /** Lines in the text, counted as `Content.totalLines` counts them. */
    readonly totalLines: number,
    /** `\n` characters in the text. */
    readonly newlines: number,
    /** Whether any surrogate pair occurs: only then can a page boundary fall inside one. */
    readonly astral: boolean,
    private readonly cpChar: Float64Array,
    private readonly cpByte: Float64Array,
    private readonly cpNewlines: Float64Array,
    /** The page table for `INDEXED_PAGE_SIZE` (`scanPageTable`'s), kept so a cold page read reads no content. */
    readonly pages: Uint32Array,
  ) {}

  /** Blocks in the text (none when it is empty). */
  get blocks(): number {
    return this.cpChar.length;
  }

  /** The block holding the character at `offset` (`0 <= offset < length`). */
  blockAt(offset: number): number {
    return Math.max(0, upperBound(this.cpChar, offset) - 1);
  }

  /** The block holding the text's `n`-th newline (1-based, `1 <= n <= newlines`). */
  blockOfNewline(n: number): number {
    return Math.max(0, lowerBound(this.cpNewlines, n) - 1);
  }

  block(k: number): IndexBlock {
    const last = k + 1 >= this.cpChar.length;
    return {
      charStart: this.cpChar[k] as number,
      charEnd: last ? this.length : (this.cpChar[k + 1] as number),
      byteStart: this.cpByte[k] as number,
      byteEnd: last ? this.bytes : (this.cpByte[k + 1] as number),
      newlinesBefore: this.cpNewlines[k] as number,
    };
  }

  /** The bytes to read for characters `[start, end)`: decoding them gives the text from `charStart` on. */
  byteRange(start: number, end: number): { charStart: number; byteStart: number; byteEnd: number } {
    if (this.enc === 'utf16le') return { charStart: start, byteStart: start * 2, byteEnd: end * 2 };
    if (this.bytes === this.length) return { charStart: start, byteStart: start, byteEnd: end };
    const k = Math.min(Math.floor(start / CHECKPOINT_CHARS), this.cpChar.length - 1);
    const charStart = k >= 0 ? (this.cpChar[k] as number) : 0;
    const byteStart = k >= 0 ? (this.cpByte[k] as number) : 0;
    // A UTF-16 code unit takes at most 3 bytes in UTF-8 (a surrogate pair takes 4 for 2).
    return { charStart, byteStart, byteEnd: Math.min(this.bytes, byteStart + (end - charStart) * 3) };
  }

  /** Memory this index takes. */
  get byteSize(): number {
    return this.cpChar.byteLength * 3 + this.pages.byteLength + 64;
  }

  /** The index file's bytes. */
  encode(): Buffer {
    const header = Buffer.from(
      JSON.stringify({
        enc: this.enc,
        length: this.length,
        bytes: this.bytes,
        lines: this.totalLines,
        newlines: this.newlines,
        astral: this.astral,
        every: CHECKPOINT_CHARS,
        checkpoints: this.cpChar.length,
        pageSize: INDEXED_PAGE_SIZE,
        pages: this.pages.length,
      }),
      'utf8',
    );
    const headerEnd = align8(8 + header.length);
    const out = Buffer.alloc(headerEnd + this.cpChar.byteLength * 3 + this.pages.byteLength);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(header.length, 4);
    header.copy(out, 8);
    let at = headerEnd;
    for (const array of [this.cpChar, this.cpByte, this.cpNewlines, this.pages]) {
      Buffer.from(array.buffer, array.byteOffset, array.byteLength).copy(out, at);
      at += array.byteLength;
    }
    return out;
  }

  /**
   * Reads an index file back; undefined when it is not one (or not the one of `ref`, or of an older format, such
   * as `FDX1`, whose line starts took 4 bytes a line: the caller rebuilds it from the content).
   */
  static decode(bytes: Buffer, ref: ContentRef): ContentIndex | undefined {
    try {
      if (bytes.length < 8 || bytes.toString('latin1', 0, 4) !== MAGIC) return undefined;
      const headerLength = bytes.readUInt32LE(4);
      if (8 + headerLength > bytes.length) return undefined;
      const header = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength)) as Record<string, unknown>;
      const { enc, length, bytes: size, lines, newlines, astral, every, checkpoints, pageSize, pages } = header;
      if (
        enc !== ref.enc ||
        length !== ref.chars ||
        size !== ref.bytes ||
        every !== CHECKPOINT_CHARS ||
        lines !== ref.lines ||
        typeof newlines !== 'number' ||
        typeof checkpoints !== 'number' ||
        checkpoints !== Math.ceil(length / CHECKPOINT_CHARS) ||
        pageSize !== INDEXED_PAGE_SIZE ||
        typeof pages !== 'number' ||
        !Number.isInteger(pages) ||
        pages < 2 ||
        pages > length + 2
      )
        return undefined;
      const headerEnd = align8(8 + headerLength);
      if (bytes.length !== headerEnd + checkpoints * 24 + pages * 4) return undefined;
      const array = (i: number): Float64Array => {
        const out = new Float64Array(checkpoints);
        bytes.copy(
          new Uint8Array(out.buffer),
          0,
          headerEnd + i * checkpoints * 8,
          headerEnd + (i + 1) * checkpoints * 8,
        );
        return out;
      };
      const table = new Uint32Array(pages);
      bytes.copy(
        new Uint8Array(table.buffer),
        0,
        headerEnd + checkpoints * 24,
        headerEnd + checkpoints * 24 + pages * 4,
      );
      if (table[0] !== 0 || table[pages - 1] !== length) return undefined;
      for (let i = 1; i < pages; i++) if ((table[i] as number) < (table[i - 1] as number)) return undefined;
      return new ContentIndex(
        ref.enc,
        length,
        size,
        lines,
        newlines,
        astral === true,
        array(0),
        array(1),
        array(2),
        table,
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * Page start offsets for `pageSize` followed by the length, exactly as `Content.pageTable` gives them (see
 * `pageEnd` there), from one pass over the text in order: a page ends after the last newline in
 * `(start, start + pageSize]`, so only the text of the current page is looked at, and held, at a time.
 */
export async function scanPageTable(
  chunks: AsyncIterable<{ readonly offset: number; readonly text: string }>,
  length: number,
  pageSize: number,
): Promise<Uint32Array> {
  const builder = new PageTableBuilder(pageSize);
  for await (const chunk of chunks) builder.push(chunk.text);
  return builder.finish(length);
}

/**
 * `scanPageTable` fed piece by piece as a text arrives (the index builder keeps the table of the default page size
 * while a content is written, so a cold page read never scans the content).
 */
export class PageTableBuilder {
  private table = new Uint32Array(64);
  private count = 0;
  private start = 0;
  /** The text from `bufferStart` (<= `start`) to what has been read. */
  private buffer = '';
  private bufferStart = 0;
  /** The first newline at or after `start` in what has been read (-1: none read yet). */
  private newline = -1;

  constructor(readonly pageSize: number) {
    this.add(0);
  }

  push(text: string): void {
    if (text === '') return;
    const { pageSize } = this;
    this.buffer = this.buffer.slice(this.start - this.bufferStart) + text;
    this.bufferStart = this.start;
    const read = this.bufferStart + this.buffer.length;
    if (this.newline < this.start) this.newline = found(this.buffer.indexOf('\n'), this.bufferStart);
    // A page's end is known once the character at `limit` has been read (so the rest does not fit in the page).
    for (let limit = this.start + pageSize; limit < read; limit = this.start + pageSize) {
      const buffer = this.buffer;
      const at = this.bufferStart;
      let end: number;
      if (this.newline !== -1 && this.newline < limit) end = buffer.lastIndexOf('\n', limit - 1 - at) + at + 1;
      else if (splitsSurrogatePair(buffer, limit - at)) end = limit - 1 > this.start ? limit - 1 : limit + 1;
      else end = limit;
      // A page that reaches what has been read may be the last: the next piece (or the end) decides.
      if (end >= read) break;
      this.add(end);
      this.start = end;
      if (this.newline !== -1 && this.newline < end) this.newline = found(buffer.indexOf('\n', end - at), at);
    }
  }

  /** The table, once the whole text of `length` characters was pushed. */
  finish(length: number): Uint32Array {
    this.add(length);
    return this.table.slice(0, this.count);
  }

  /** The table as `finish` would give it for the text pushed so far, leaving the builder open. */
  snapshot(length: number): Uint32Array {
    const table = new Uint32Array(this.count + 1);
    table.set(this.table.subarray(0, this.count));
    table[this.count] = length;
    return table;
  }

  private add(offset: number): void {
    if (this.count === this.table.length) {
      const grown = new Uint32Array(this.table.length * 2);
      grown.set(this.table);
      this.table = grown;
    }
    this.table[this.count++] = offset;
  }
}

function found(index: number, base: number): number {
  return index === -1 ? -1 : index + base;
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
