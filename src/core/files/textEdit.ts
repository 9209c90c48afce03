/**
 * Pure text editing for writes into files: where inserted text goes, which line break joins appended text, how lines
 * of bytes are counted. No file system here; `workspaceWrite.ts` does the confined writing with these.
 */
import { Content } from '../descriptors/content';
import { ToolError } from '../toolError';

/** Puts `insert` before 1-based `line` of `text`; `total lines + 1` appends. Existing lines stay whole. */
export function insertBeforeLine(text: string, insert: string, line: number, fd?: string): string {
  const lines = new Content(text);
  const problem = insertLineProblem(line, lines.totalLines);
  if (problem !== undefined) throw new ToolError('invalid_range', problem, fd);
  if (insert.length === 0) return text;
  const eol = eolOf(text);
  if (line <= lines.totalLines) {
    // A byte order mark stays first: line 1 starts after it.
    const at = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : lines.lineStart(line);
    const piece = insert.endsWith('\n') ? insert : insert + eol;
    return text.slice(0, at) + piece + text.slice(at);
  }
  const before = text.length > 0 && !text.endsWith('\n') ? eol : '';
  return text + before + insert;
}

/** Why text cannot be inserted before 1-based `line` of a file of `totalLines` lines (1 to `totalLines + 1` can). */
export function insertLineProblem(line: number, totalLines: number): string | undefined {
  const valid = totalLines + 1;
  if (Number.isInteger(line) && line >= 1 && line <= valid) return undefined;
  const lines = totalLines === 1 ? '1 line' : `${totalLines} lines`;
  return `Line ${line} is outside the file. The file has ${lines}, so line must be ${valid === 1 ? '1' : `1-${valid}`} (${valid} appends at the end).`;
}

/** Lines in UTF-8 `bytes`, counted as `Content.totalLines` counts them in the decoded text. */
export function lineCountOf(bytes: Uint8Array): number {
  if (bytes.length === 0) return 0;
  let breaks = 0;
  for (let at = bytes.indexOf(10); at !== -1; at = bytes.indexOf(10, at + 1)) breaks++;
  return bytes[bytes.length - 1] === 10 ? breaks : breaks + 1;
}

/** The line break to put before appended text: none when the file is empty or ends with `\n`, else its own EOL style. */
export function appendSeparator(existing: Uint8Array): string {
  if (existing.length === 0 || existing[existing.length - 1] === 10) return '';
  return eolOf(tail(existing));
}

/** `\r\n` when the text already uses it, else `\n`. */
export function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function tail(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
}

export function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
