/**
 * What lets a large content be read by ranges: its line starts (in UTF-16 code units, as `Content` counts
 * them) and, for UTF-8 text that is not plain ASCII, checkpoints mapping a character offset to a byte offset
 * every `CHECKPOINT_CHARS` characters. Built while the content is written, stored beside it (`<hash>.idx`).
 */
import { splitsSurrogatePair, upperBound } from '../descriptors/content';
import type { ContentRef } from './records';

export const CHECKPOINT_CHARS = 1 << 16;
const MAGIC = 'FDX1';
const HIGH_SURROGATE = /[\ud800-\udbff]/;

export type ContentEncoding = ContentRef['enc'];

/** Collects the index of a text given in pieces, none of which ends between the halves of a surrogate pair. */
export class IndexBuilder {
  private chars = 0;
  private bytes = 0;
  private starts = new Uint32Array(1024);
  private lineCount = 0;
  private readonly cpChar: number[] = [];
  private readonly cpByte: number[] = [];
  private astral = false;

  constructor(private readonly enc: ContentEncoding) {}

  /** Adds the next piece of text, which takes `byteLength` bytes in the file. */
  push(piece: string, byteLength: number): void {
    if (piece.length === 0) return;
    if (this.chars === 0) this.addStart(0);
    for (let i = piece.indexOf('\n'); i !== -1; i = piece.indexOf('\n', i + 1)) this.addStart(this.chars + i + 1);
    if (!this.astral && HIGH_SURROGATE.test(piece)) this.astral = true;
    if (this.enc === 'utf8') this.addCheckpoints(piece, byteLength);
    this.chars += piece.length;
    this.bytes += byteLength;
  }

  finish(): ContentIndex {
    // A newline at the very end does not start a line (as in `Content`).
    const count =
      this.lineCount > 0 && this.starts[this.lineCount - 1] === this.chars ? this.lineCount - 1 : this.lineCount;
    return new ContentIndex(
      this.enc,
      this.chars,
      this.bytes,
      this.starts.slice(0, count),
      this.astral,
      Float64Array.from(this.cpChar),
      Float64Array.from(this.cpByte),
    );
  }

  private addStart(offset: number): void {
    if (this.lineCount === this.starts.length) {
      const grown = new Uint32Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    this.starts[this.lineCount++] = offset;
  }

  private addCheckpoints(piece: string, byteLength: number): void {
    const ascii = byteLength === piece.length;
    let segmentChar = 0;
    let segmentByte = this.bytes;
    for (
      let target = this.cpChar.length * CHECKPOINT_CHARS;
      target < this.chars + piece.length;
      target = this.cpChar.length * CHECKPOINT_CHARS
    ) {
      let local = target - this.chars;
      if (splitsSurrogatePair(piece, local)) local--;
      const byte = ascii
        ? this.bytes + local
        : segmentByte + Buffer.byteLength(piece.slice(segmentChar, local), 'utf8');
      segmentChar = local;
      segmentByte = byte;
      this.cpChar.push(this.chars + local);
      this.cpByte.push(byte);
    }
  }
}

/** The index of one content: line starts, checkpoints and whether it holds characters outside the BMP. */
export class ContentIndex {
  constructor(
    readonly enc: ContentEncoding,
    readonly length: number,
    readonly bytes: number,
    readonly lineStarts: Uint32Array,
    /** Whether any surrogate pair occurs: only then can a page boundary fall inside one. */
    readonly astral: boolean,
    private readonly cpChar: Float64Array,
    private readonly cpByte: Float64Array,
  ) {}

  /** Lines in the text, counted as `Content.totalLines` counts them. */
  get totalLines(): number {
    return this.length === 0 ? 0 : this.lineStarts.length;
  }

  /** The 1-based line holding the character at `offset` (0 for empty text). */
  lineAt(offset: number): number {
    return this.length === 0 ? 0 : upperBound(this.lineStarts, offset);
  }

  /** Offset where 1-based `line` starts; `totalLines + 1` gives the end of the text. */
  lineStart(line: number): number {
    return line - 1 < this.lineStarts.length ? (this.lineStarts[line - 1] as number) : this.length;
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
    return this.lineStarts.byteLength + this.cpChar.byteLength + this.cpByte.byteLength + 64;
  }

  /** The index file's bytes. */
  encode(): Buffer {
    const header = Buffer.from(
      JSON.stringify({
        enc: this.enc,
        length: this.length,
        bytes: this.bytes,
        lines: this.lineStarts.length,
        astral: this.astral,
        checkpoints: this.cpChar.length,
      }),
      'utf8',
    );
    const headerEnd = align8(8 + header.length);
    const startsEnd = align8(headerEnd + this.lineStarts.byteLength);
    const out = Buffer.alloc(startsEnd + this.cpChar.byteLength * 2);
    out.write(MAGIC, 0, 'latin1');
    out.writeUInt32LE(header.length, 4);
    header.copy(out, 8);
    Buffer.from(this.lineStarts.buffer, this.lineStarts.byteOffset, this.lineStarts.byteLength).copy(out, headerEnd);
    Buffer.from(this.cpChar.buffer, this.cpChar.byteOffset, this.cpChar.byteLength).copy(out, startsEnd);
    Buffer.from(this.cpByte.buffer, this.cpByte.byteOffset, this.cpByte.byteLength).copy(
      out,
      startsEnd + this.cpChar.byteLength,
    );
    return out;
  }

  /** Reads an index file back; undefined when it is not one (or not the one of `ref`). */
  static decode(bytes: Buffer, ref: ContentRef): ContentIndex | undefined {
    try {
      if (bytes.toString('latin1', 0, 4) !== MAGIC) return undefined;
      const headerLength = bytes.readUInt32LE(4);
      const header = JSON.parse(bytes.toString('utf8', 8, 8 + headerLength)) as Record<string, unknown>;
      const { enc, length, bytes: size, lines, astral, checkpoints } = header;
      if (
        enc !== ref.enc ||
        length !== ref.chars ||
        size !== ref.bytes ||
        typeof lines !== 'number' ||
        typeof checkpoints !== 'number'
      )
        return undefined;
      const headerEnd = align8(8 + headerLength);
      const startsEnd = align8(headerEnd + lines * 4);
      if (bytes.length !== startsEnd + checkpoints * 16) return undefined;
      const copy = (from: number, byteLength: number): ArrayBuffer => {
        const out = new ArrayBuffer(byteLength);
        bytes.copy(new Uint8Array(out), 0, from, from + byteLength);
        return out;
      };
      return new ContentIndex(
        ref.enc,
        length,
        size,
        new Uint32Array(copy(headerEnd, lines * 4)),
        astral === true,
        new Float64Array(copy(startsEnd, checkpoints * 8)),
        new Float64Array(copy(startsEnd + checkpoints * 8, checkpoints * 8)),
      );
    } catch {
      return undefined;
    }
  }
}

/**
 * Page start offsets for `pageSize` followed by the length, exactly as `Content.pageTable` gives them (see
 * `pageEnd` there). `splitsAt` answers whether a cut at an offset separates a surrogate pair; it is asked only
 * for a text that has pairs, at a page boundary with no newline in its window.
 */
export async function buildPageTable(
  index: ContentIndex,
  pageSize: number,
  splitsAt: (offset: number) => Promise<boolean>,
): Promise<Uint32Array> {
  const length = index.length;
  const starts = index.lineStarts;
  let table = new Uint32Array(Math.min(1 << 20, Math.floor(length / pageSize) + 2));
  let count = 0;
  let start = 0;
  for (;;) {
    if (count + 1 >= table.length) {
      const grown = new Uint32Array(table.length * 2);
      grown.set(table);
      table = grown;
    }
    table[count++] = start;
    const limit = start + pageSize;
    let end: number;
    if (limit >= length) end = length;
    else {
      const k = upperBound(starts, limit) - 1;
      const lineStart = k >= 0 ? (starts[k] as number) : 0;
      if (lineStart > start) end = lineStart;
      else if (index.astral && (await splitsAt(limit))) end = limit - 1 > start ? limit - 1 : limit + 1;
      else end = limit;
    }
    if (end >= length) break;
    start = end;
  }
  table[count++] = length;
  return table.slice(0, count);
}

function align8(n: number): number {
  return (n + 7) & ~7;
}
