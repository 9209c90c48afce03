import { splitsSurrogatePair } from '../surrogates';
import type { TextSource } from './textSource';

/** A range of a descriptor's content chosen by page, line or character, with its text and what the model is told. */
export interface Selection {
  start: number;
  end: number;
  /** Characters `[start, end)`. */
  text: string;
  /** Attributes that say where the range lies: page or mode/start/count, continued, truncated, lines, total_lines. */
  attributes: Record<string, string | number>;
}

/** Why a requested range cannot be read; `type` tells a bad start (`invalid_range`) from a bad count. */
export class SelectionError extends Error {
  constructor(
    readonly type: 'invalid_range' | 'invalid_argument',
    message: string,
  ) {
    super(message);
  }
}

/**
 * Pages `first` to `first + count - 1` (clamped to the last page); pages are 1-based. Every selection below reads
 * the page table or line index and then only its own range (plus the character before it), never the whole text.
 */
export async function selectPages(
  content: TextSource,
  pageSize: number,
  first: number,
  count: number,
): Promise<Selection> {
  const table = await content.pageTable(pageSize);
  const pages = table.length - 1;
  if (first < 1 || first > pages) {
    throw new SelectionError('invalid_range', `Page ${first} does not exist: valid pages are ${range(1, pages)}.`);
  }
  requirePositive(count);
  const last = Math.min(pages, first + count - 1);
  const start = table[first - 1] as number;
  const end = table[last] as number;
  const lines = content.pageLines?.(pageSize);
  const where = { page: first === last ? String(first) : `${first}-${last}`, pages };
  return describe(content, start, end, where, lines?.[first - 1], lines?.[last]);
}

/** Lines `first` to `first + count - 1` (clamped); by default as many whole lines as fit in a page. */
export async function selectLines(
  content: TextSource,
  pageSize: number,
  first: number,
  count: number | undefined,
): Promise<Selection> {
  const total = content.totalLines;
  const valid = Math.max(total, 1);
  if (first < 1 || first > valid) {
    throw new SelectionError('invalid_range', `Line ${first} does not exist: valid lines are ${range(1, valid)}.`);
  }
  if (count !== undefined) requirePositive(count);
  const start = await content.lineStart(first);
  let last: number;
  if (count === undefined) {
    // Whole lines up to one page, at least one line.
    const limit = start + pageSize;
    last = limit >= content.length ? total : Math.max(first, (await content.lineAt(limit)) - 1);
  } else {
    last = Math.min(total, first + count - 1);
  }
  const end = await content.lineStart(last + 1);
  const where = { mode: 'line', start: first, count: Math.max(0, last - first + 1) };
  return describe(content, start, end, where, first, last + 1);
}

/** Characters `[first, first + count)` (clamped); `first` is 0-based. */
export async function selectChars(content: TextSource, first: number, count: number): Promise<Selection> {
  const valid = Math.max(content.length, 1);
  if (first < 0 || first >= valid) {
    throw new SelectionError(
      'invalid_range',
      `Character offset ${first} is outside the content: valid offsets are ${range(0, valid - 1)}.`,
    );
  }
  requirePositive(count);
  const end = Math.min(content.length, first + count);
  return describe(content, first, end, { mode: 'char', start: first, count: end - first });
}

/**
 * The last `count` lines, at most `maxChars` characters: when they are longer, only the last whole lines that fit,
 * and when even the last line alone is longer, its last `maxChars` characters (one fewer where the cut would split a
 * surrogate pair; `continued` then says the range starts mid-line). Empty text gives an empty range. Reads the
 * line index and the range only.
 */
export async function selectTail(content: TextSource, count: number, maxChars: number): Promise<Selection> {
  requirePositive(count);
  const total = content.totalLines;
  const length = content.length;
  if (total === 0) return describe(content, 0, 0, { mode: 'tail', start: 0, count: 0 });
  let first = Math.max(1, total - count + 1);
  let start = await content.lineStart(first);
  if (length - start > maxChars) {
    const cutoff = length - maxChars;
    // The first line that starts inside the last `maxChars` characters: the one after the line at `cutoff - 1`.
    const before = await content.lineAt(cutoff - 1);
    if (before < total) {
      first = before + 1;
      start = await content.lineStart(first);
    } else {
      first = total;
      start = splitsSurrogatePair(await content.slice(cutoff - 1, cutoff + 1), 1) ? cutoff + 1 : cutoff;
    }
  }
  return describe(content, start, length, { mode: 'tail', start: first, count: total - first + 1 }, first, total + 1);
}

/**
 * Characters `[start, end)` with their attributes: the text read is that range plus the character before it, and
 * the lines at its first and last character. Callers that know them pass `firstLine`, the line at `start`, and
 * `lineAtEnd`, the line at `end` (`totalLines + 1` at the end of the text); the others are looked up.
 */
async function describe(
  content: TextSource,
  start: number,
  end: number,
  where: Record<string, string | number>,
  firstLine?: number,
  lineAtEnd?: number,
): Promise<Selection> {
  const windowStart = Math.max(0, start - 1);
  const window = end > windowStart ? await content.slice(windowStart, end) : '';
  let lines = '0-0';
  if (end > start) {
    const first = firstLine ?? (await content.lineAt(start));
    // The last character is on the line at `end` when the range cuts that line, else on the line before it.
    const last =
      lineAtEnd === undefined
        ? await content.lineAt(end - 1)
        : lineAtEnd - (cutsLine(window, windowStart, end, content.length) ? 0 : 1);
    lines = `${first}-${last}`;
  }
  return describeWindow(window, windowStart, start, end, content.length, lines, content.totalLines, where);
}

function describeWindow(
  window: string,
  windowStart: number,
  start: number,
  end: number,
  length: number,
  lines: string,
  totalLines: number,
  where: Record<string, string | number>,
): Selection {
  const continued = start > 0 && window.charCodeAt(start - 1 - windowStart) !== 10;
  const truncated = cutsLine(window, windowStart, end, length);
  const attributes = copyAttributes(where);
  attributes['continued'] = String(continued);
  attributes['truncated'] = String(truncated);
  attributes['lines'] = lines;
  attributes['total_lines'] = totalLines;
  return { start, end, text: window.slice(start - windowStart), attributes };
}

/** Whether a range ending at `end` stops inside a line (before its newline); `window` holds `end - 1`. */
function cutsLine(window: string, windowStart: number, end: number, length: number): boolean {
  return end < length && window.charCodeAt(end - 1 - windowStart) !== 10;
}

/**
 * A copy of `attributes` made key by key, to add keys to. Not `{ ...attributes, more: x }`: in optimized code V8
 * gives every object built that way a hidden class of its own, which cost about 4 µs (and a map to collect) per page.
 */
function copyAttributes(attributes: Record<string, string | number>): Record<string, string | number> {
  const copy: Record<string, string | number> = {};
  for (const key in attributes) copy[key] = attributes[key] as string | number;
  return copy;
}

function requirePositive(count: number): void {
  if (count < 1) throw new SelectionError('invalid_argument', `count must be 1 or more (got ${count}).`);
}

function range(from: number, to: number): string {
  return from === to ? String(from) : `${from}-${to}`;
}
