/** Numbers and sizes as the chat shows them. Pure, no DOM. */

const integer = new Intl.NumberFormat('en-US');

/** `12345` -> `12,345`. */
export function formatCount(n: number): string {
  return integer.format(n);
}

/** `1 line`, `300 lines`. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}

/** The label of a descriptor chip: `fd:3 · 12,345 chars · 300 lines`. */
export function descriptorLabel(d: { id: string; chars: number; lines: number }): string {
  return `${d.id} · ${formatCount(d.chars)} chars · ${plural(d.lines, 'line')}`;
}

/** When a message was written, as the user's locale writes it (empty when the date does not parse). */
export function formatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString();
}

/**
 * A one-line summary of a tool call's arguments: `fd: "fd:1", start: 2` for a JSON object, the text cut
 * to `max` characters otherwise.
 */
export function summarizeArguments(args: string, max = 120): string {
  let summary = args.trim();
  try {
    const value: unknown = JSON.parse(args);
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      summary = Object.entries(value as Record<string, unknown>)
        .map(
          ([key, v]) =>
            `${key}: ${typeof v === 'string' ? JSON.stringify(v.length > 60 ? `${v.slice(0, 60)}…` : v) : JSON.stringify(v)}`,
        )
        .join(', ');
    }
  } catch {
    // Not JSON (a model may send anything): the raw text is the summary.
  }
  summary = summary.replace(/\s+/g, ' ');
  return summary.length > max ? `${summary.slice(0, max - 1)}…` : summary;
}

/** The arguments pretty-printed when they parse as JSON, as sent otherwise. */
export function prettyArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}

/** A line of a preview: its text, and how many characters of it were left out (0 when whole). */
export interface PreviewRow {
  readonly text: string;
  readonly omitted: number;
}

/**
 * The first `maxLines` lines of `text`, each cut to `lineChars` characters (the cut counted, so it can be marked);
 * `rest` says whether lines follow. Reads only the lines it returns, never the whole text.
 */
export function previewLines(text: string, maxLines: number, lineChars: number): { rows: PreviewRow[]; rest: boolean } {
  const rows: PreviewRow[] = [];
  let at = 0;
  while (rows.length < maxLines && at < text.length) {
    const newline = text.indexOf('\n', at);
    const end = newline === -1 ? text.length : newline;
    const lineEnd = end > at && text.charCodeAt(end - 1) === 13 ? end - 1 : end;
    let cut = Math.min(lineEnd, at + lineChars);
    // Never split a surrogate pair.
    if (cut < lineEnd && (text.charCodeAt(cut - 1) & 0xfc00) === 0xd800) cut--;
    rows.push({ text: text.slice(at, cut), omitted: lineEnd - cut });
    at = newline === -1 ? text.length : newline + 1;
  }
  return { rows, rest: at < text.length };
}

/** Lines in `text` (a final line end starts no new line). */
export function countLines(text: string): number {
  if (text === '') return 0;
  let lines = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < text.length - 1; i = text.indexOf('\n', i + 1)) lines++;
  return lines;
}
