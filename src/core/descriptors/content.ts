import { splitsSurrogatePair } from '../surrogates';
import { contentDigest, type ContentDigest } from './contentDigest';
import type { TextChunk, TextSource } from './textSource';

/** Characters per piece `Content.chunks()` gives: a scan over it yields to the caller this often. */
const CHUNK_CHARS = 1 << 16;

/**
 * Immutable text with a line index, shared by every descriptor (and every fork) that holds it.
 * The line index and each page table are built once, on first use, so reading a page costs its own
 * length plus a binary search, never a scan from the start.
 */
export class Content implements TextSource {
  readonly text: string;
  private lineStartsCache: Uint32Array | undefined;
  private readonly pageTables = new Map<number, PageTable>();
  private digestCache: ContentDigest | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /** The store's name for this text (hash and encoding), computed once on first use. */
  get digest(): ContentDigest {
    return (this.digestCache ??= contentDigest(this.text));
  }

  get length(): number {
    return this.text.length;
  }

  /** Offsets where lines start: 0, then every offset just after a `\n` that is not the end of the text. */
  get lineStarts(): Uint32Array {
    return (this.lineStartsCache ??= buildLineStarts(this.text));
  }

  /** Characters `[start, end)`, clamped to the text. */
  slice(start: number, end?: number): string {
    return this.text.slice(start, end);
  }

  /** The text in pieces of `CHUNK_CHARS` characters (a piece may end inside a line or a surrogate pair). */
  *chunks(): Generator<TextChunk> {
    for (let offset = 0; offset < this.text.length; offset += CHUNK_CHARS)
      yield { offset, text: this.text.slice(offset, offset + CHUNK_CHARS) };
  }

  /** Lines in the text; a trailing newline does not start a new line, and empty text has none. */
  get totalLines(): number {
    return this.text.length === 0 ? 0 : this.lineStarts.length;
  }

  /** The 1-based line holding the character at `offset` (0 for empty text). */
  lineAt(offset: number): number {
    if (this.text.length === 0) return 0;
    return upperBound(this.lineStarts, offset);
  }

  /** Offset where 1-based `line` starts; `totalLines + 1` gives the end of the text. */
  lineStart(line: number): number {
    const starts = this.lineStarts;
    return line - 1 < starts.length ? (starts[line - 1] as number) : this.text.length;
  }

  /** Page start offsets for `pageSize`, followed by the text's length as a sentinel. */
  pageTable(pageSize: number): Uint32Array {
    return this.pages(pageSize).starts;
  }

  /**
   * The line at each offset of `pageTable(pageSize)`: `lineAt` of each page start, then `totalLines + 1` for the
   * sentinel. Kept with the page table so that a page read makes no binary search over the line index (it made two,
   * about 0.5-1 µs a page: the index of a large text is far larger than the processor's caches).
   */
  pageLines(pageSize: number): Uint32Array {
    return this.pages(pageSize).lines;
  }

  private pages(pageSize: number): PageTable {
    let table = this.pageTables.get(pageSize);
    if (table === undefined) {
      const starts = buildPageTable(this, pageSize);
      const lines = starts.map((offset, i) => (i === starts.length - 1 ? this.totalLines + 1 : this.lineAt(offset)));
      table = { starts, lines };
      this.pageTables.set(pageSize, table);
    }
    return table;
  }

  /** Bytes this object holds beyond the string itself (line index and page tables). */
  indexBytes(): number {
    let bytes = this.lineStartsCache?.byteLength ?? 0;
    for (const table of this.pageTables.values()) bytes += table.starts.byteLength + table.lines.byteLength;
    return bytes;
  }
}

/** One page size's page starts (with the length as a sentinel) and the line at each. */
interface PageTable {
  readonly starts: Uint32Array;
  readonly lines: Uint32Array;
}

function buildLineStarts(text: string): Uint32Array {
  // One indexOf pass; the array grows by doubling and is trimmed once at the end.
  let starts = new Uint32Array(Math.max(16, Math.min(1 << 20, (text.length >>> 6) + 16)));
  let count = 0;
  if (text.length > 0) starts[count++] = 0;
  const last = text.length - 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < last; i = text.indexOf('\n', i + 1)) {
    if (count === starts.length) {
      const grown = new Uint32Array(starts.length * 2);
      grown.set(starts);
      starts = grown;
    }
    starts[count++] = i + 1;
  }
  return starts.slice(0, count);
}

/** The page size every surface uses unless told otherwise, in UTF-16 code units. */
export const DEFAULT_PAGE_SIZE = 4000;

/** Number of entries in the sorted `values` that are <= `target`. */
export function upperBound(values: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) <= target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Number of entries in the sorted `values` that are < `target`. */
export function lowerBound(values: ArrayLike<number>, target: number): number {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] as number) < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Where the page that starts at `start` ends. It is the last page when the rest fits in `pageSize`;
 * otherwise it ends after the last newline in `(start, start + pageSize]`, or, when that window holds
 * none, at `start + pageSize` moved back by one where that would split a surrogate pair (forward
 * instead when moving back would leave the page empty, which only a page size of 1 can cause).
 */
export function pageEnd(content: Content, start: number, pageSize: number): number {
  const text = content.text;
  const limit = start + pageSize;
  if (limit >= text.length) return text.length;
  const starts = content.lineStarts;
  // The largest line start in (start, limit] is just after a newline inside the window.
  const k = upperBound(starts, limit) - 1;
  const lineStart = k >= 0 ? (starts[k] as number) : 0;
  if (lineStart > start) return lineStart;
  if (splitsSurrogatePair(text, limit)) {
    return limit - 1 > start ? limit - 1 : limit + 1;
  }
  return limit;
}

function buildPageTable(content: Content, pageSize: number): Uint32Array {
  const length = content.length;
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
    const end = pageEnd(content, start, pageSize);
    if (end >= length) break;
    start = end;
  }
  table[count++] = length;
  return table.slice(0, count);
}
