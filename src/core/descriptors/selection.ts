import { splitsSurrogatePair, type Content } from './content';

/** A range of a descriptor's content chosen by page, line or character, with what the model is told about it. */
export interface Selection {
  start: number;
  end: number;
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

/** Pages `first` to `first + count - 1` (clamped to the last page); pages are 1-based. */
export function selectPages(content: Content, pageSize: number, first: number, count: number): Selection {
  const table = content.pageTable(pageSize);
  const pages = table.length - 1;
  if (first < 1 || first > pages) {
    throw new SelectionError('invalid_range', `Page ${first} does not exist: valid pages are ${range(1, pages)}.`);
  }
  requirePositive(count);
  const last = Math.min(pages, first + count - 1);
  const start = table[first - 1] as number;
  const end = table[last] as number;
  return describe(content, start, end, { page: first === last ? String(first) : `${first}-${last}`, pages });
}

/** Lines `first` to `first + count - 1` (clamped); by default as many whole lines as fit in a page. */
export function selectLines(content: Content, pageSize: number, first: number, count: number | undefined): Selection {
  const total = content.totalLines;
  const valid = Math.max(total, 1);
  if (first < 1 || first > valid) {
    throw new SelectionError('invalid_range', `Line ${first} does not exist: valid lines are ${range(1, valid)}.`);
  }
  if (count !== undefined) requirePositive(count);
  const start = content.lineStart(first);
  let last: number;
  if (count === undefined) {
    // Whole lines up to one page, at least one line.
    const limit = start + pageSize;
    last = limit >= content.length ? total : Math.max(first, content.lineAt(limit) - 1);
  } else {
    last = Math.min(total, first + count - 1);
  }
  const end = content.lineStart(last + 1);
  return describe(content, start, end, { mode: 'line', start: first, count: Math.max(0, last - first + 1) });
}

/** Characters `[first, first + count)` (clamped); `first` is 0-based. */
export function selectChars(content: Content, first: number, count: number): Selection {
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
 * The start of page 1, at most `maxChars` long: the whole page when it fits, else as many whole lines as fit,
 * else the first `maxChars` characters (one fewer where that would split a surrogate pair). Attributes as for a
 * page range, plus `pages`; empty when `maxChars` is 0.
 */
export function selectPreview(content: Content, pageSize: number, maxChars: number): Selection {
  const table = content.pageTable(pageSize);
  const pageOne = table[1] as number;
  let end = Math.max(0, Math.min(pageOne, maxChars));
  if (end < pageOne) {
    const lastLineStart = content.lineStart(content.lineAt(end));
    if (lastLineStart > 0 && lastLineStart <= end) end = lastLineStart;
    else if (splitsSurrogatePair(content.text, end)) end--;
  }
  return describe(content, 0, end, { page: '1', pages: table.length - 1 });
}

/** The whole content. */
export function selectAll(content: Content, pageSize: number): Selection {
  return describe(content, 0, content.length, { page: 'all', pages: content.pageTable(pageSize).length - 1 });
}

function describe(content: Content, start: number, end: number, where: Record<string, string | number>): Selection {
  const text = content.text;
  const continued = start > 0 && text.charCodeAt(start - 1) !== 10;
  const truncated = end < text.length && text.charCodeAt(end - 1) !== 10;
  const lines = end > start ? `${content.lineAt(start)}-${content.lineAt(end - 1)}` : '0-0';
  return {
    start,
    end,
    attributes: {
      ...where,
      continued: String(continued),
      truncated: String(truncated),
      lines,
      total_lines: content.totalLines,
    },
  };
}

function requirePositive(count: number): void {
  if (count < 1) throw new SelectionError('invalid_argument', `count must be 1 or more (got ${count}).`);
}

function range(from: number, to: number): string {
  return from === to ? String(from) : `${from}-${to}`;
}
