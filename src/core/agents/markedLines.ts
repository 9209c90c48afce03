/**
 * fdref's entry in a configuration fdref does not parse (Codex's TOML, Continue's YAML): whole lines between two
 * `#` comments, so Disconnect takes out exactly the lines Connect put in and the rest of the file keeps its bytes.
 * Both languages read `#` as a comment to the end of the line, and both allow one at any indentation.
 */
import { AgentConfigError } from './mergeServerEntry';

export const LINES_BEGIN = '# fdref: begin (written by FD Refs: Connect an Agent; Disconnect removes it)';
export const LINES_END = '# fdref: end';

/** The span of fdref's lines (from the start of the begin marker's line to after the end marker's line break). */
export function markedSpan(text: string): { start: number; end: number } | undefined {
  const begin = text.indexOf(LINES_BEGIN);
  if (begin < 0) return undefined;
  const endMarker = text.indexOf(LINES_END, begin);
  if (endMarker < 0) return undefined;
  const start = text.lastIndexOf('\n', begin - 1) + 1;
  let end = endMarker + LINES_END.length;
  if (text.startsWith('\r\n', end)) end += 2;
  else if (text[end] === '\n') end++;
  return { start, end };
}

/** The text outside fdref's lines, for checking what the rest of the file says. */
export function withoutMarked(text: string): string {
  const span = markedSpan(text);
  return span === undefined ? text : text.slice(0, span.start) + text.slice(span.end);
}

/** `lines` framed by the markers, each indented by `indent`, joined and ended by `eol`. */
export function markedBlock(lines: readonly string[], indent: string, eol: string): string {
  return [LINES_BEGIN, ...lines, LINES_END].map((line) => indent + line + eol).join('');
}

/**
 * `text` with fdref's lines set to `block`: replaced where they are, else inserted at `offset` (a line's start), or
 * appended after one line end when `offset` is undefined (a blank line, unless the text did not end its last line).
 */
export function setMarked(text: string, block: string, offset: number | undefined): string {
  const span = markedSpan(text);
  if (span !== undefined) return text.slice(0, span.start) + block + text.slice(span.end);
  if (offset !== undefined) return text.slice(0, offset) + block + text.slice(offset);
  if (text === '') return block;
  // One line end: a blank line before the block, or the end of a last line that had none.
  return text + (text.includes('\r\n') ? '\r\n' : '\n') + block;
}

/** `text` without fdref's lines (and the line end appended with them), or undefined when it has none. */
export function removeMarked(text: string): string | undefined {
  const span = markedSpan(text);
  if (span === undefined) return undefined;
  let start = span.start;
  const before = text.slice(0, start);
  // At the end of the file the block came after one line end of fdref's (see setMarked), which goes with it.
  if (span.end === text.length && start > 0) start -= before.endsWith('\r\n') ? 2 : before.endsWith('\n') ? 1 : 0;
  return text.slice(0, start) + text.slice(span.end);
}

/** Refuses a file holding a begin marker without its end: fdref cannot tell which lines are its own. */
export function refuseBrokenMarkers(text: string, fileLabel: string): void {
  if (text.includes(LINES_BEGIN) && markedSpan(text) === undefined) {
    throw new AgentConfigError(
      `${fileLabel} has fdref's begin marker without its end marker. Fix it, then connect again; nothing was written.`,
    );
  }
}

/** A string as a TOML basic string (JSON's escapes are TOML's, but for DEL, which TOML wants escaped). */
export function tomlString(value: string): string {
  return JSON.stringify(value).replace(/\u007f/g, '\\u007F');
}
