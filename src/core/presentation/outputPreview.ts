/**
 * What a model sees of a command's long output in place of the output (fdref's command wrapper): a bounded
 * preview that starts with the handle of the descriptor holding it whole, then how to read it, its first lines,
 * the lines that look like errors with their line numbers, and its last lines.
 *
 * `OutputPreviewBuilder` reads the output as it streams past and holds only what a preview can show (a head, a
 * tail, the first error lines, the start of the current line and a few counters), so its memory is bounded
 * whatever the output's size; `renderOutputPreview` lays the preview out within a budget of characters.
 */

/**
 * Words of lines that look like an error, a failure or a crash in the output of common tools (`error:`, `FAIL`,
 * `panicked`, `Traceback`, `npm ERR!`, `a.c:3:4: error`). Kept to words and literals: it is tried on every piece
 * of output (100 MB of it must pass in well under a second), and a pattern that backtracks inside words does not.
 */
const ERROR_WORDS =
  /\b(?:errors?|fail(?:ed|ure|ures|ing)?|panic(?:ked)?|exceptions?|fatal|segmentation fault|abort(?:ed)?|denied)\b|Traceback \(most recent call last\)|\bERR!|[✗✘]/i;
/** An exception's or error's class name (`NullPointerException`, `TypeError`), case-sensitive. */
const ERROR_CLASS = /[a-z](?:Error|Exception)\b/;

/** Whether `text` holds something that looks like an error (see `ERROR_WORDS`). */
export function looksLikeError(text: string): boolean {
  return ERROR_WORDS.test(text) || ERROR_CLASS.test(text);
}
/** A line that only says there was nothing wrong ("0 errors", "no failures"). */
const NOT_AN_ERROR = /^\W*(?:found )?(?:0|no) (?:errors?|failures?)\W*$/i;

export interface PreviewLimits {
  /** Characters kept from the start of the output. */
  readonly headChars: number;
  /** Characters kept from the end of the output. */
  readonly tailChars: number;
  /** Error lines kept (the rest are counted). */
  readonly errorLines: number;
  /** Characters kept of each error line. */
  readonly errorLineChars: number;
}

/** An error line: its 1-based line number and its text (clipped to `errorLineChars`, without the line break). */
export interface ErrorLine {
  readonly line: number;
  readonly text: string;
}

/** What the builder saw of the output. */
export interface OutputSummary {
  readonly chars: number;
  /** Lines as the store counts them (`total_lines`): a last line break ends a line, it starts none. */
  readonly lines: number;
  readonly head: string;
  readonly tail: string;
  readonly errors: readonly ErrorLine[];
  /** Error lines seen beyond `errors`. */
  readonly moreErrors: number;
}

export class OutputPreviewBuilder {
  private chars = 0;
  private breaks = 0;
  private head = '';
  private tail = '';
  private readonly errors: ErrorLine[] = [];
  private moreErrors = 0;
  /** The start of the line being read (at most `errorLineChars` characters), and whether it was longer. */
  private line = '';
  private endsWithBreak = false;

  constructor(readonly limits: PreviewLimits) {}

  /** Reads the next piece of output. */
  push(text: string): void {
    if (text.length === 0) return;
    this.chars += text.length;
    this.endsWithBreak = text.endsWith('\n');
    if (this.head.length < this.limits.headChars) this.head += text.slice(0, this.limits.headChars - this.head.length);
    // The tail is cut only when twice its size, so a long output of small pieces is not copied at every piece.
    this.tail += text.length > this.limits.tailChars ? text.slice(-this.limits.tailChars) : text;
    if (this.tail.length > 2 * this.limits.tailChars) this.tail = this.tail.slice(-this.limits.tailChars);
    this.scanLines(text);
  }

  /** What was seen; call once the output has ended. */
  finish(): OutputSummary {
    if (this.line.length > 0) this.endLine(this.breaks + 1, this.line);
    this.line = '';
    return {
      chars: this.chars,
      lines: this.chars === 0 ? 0 : this.breaks + (this.endsWithBreak ? 0 : 1),
      head: this.head,
      tail: this.tail.slice(-this.limits.tailChars),
      errors: this.errors,
      moreErrors: this.moreErrors,
    };
  }

  private scanLines(text: string): void {
    const max = this.limits.errorLineChars;
    // Most pieces hold no error word: then only their line breaks are counted (the start of the current line is
    // prefixed so a word split between two pieces is still seen).
    if (!looksLikeError(this.line + text)) {
      const last = text.lastIndexOf('\n');
      if (last < 0) {
        if (this.line.length < max) this.line += text.slice(0, max - this.line.length);
        return;
      }
      for (let at = text.indexOf('\n'); at >= 0 && at <= last; at = text.indexOf('\n', at + 1)) this.breaks++;
      this.line = text.slice(last + 1, last + 1 + max);
      return;
    }
    let start = 0;
    for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', start)) {
      const piece = this.line + text.slice(start, Math.min(at, start + max));
      this.endLine(this.breaks + 1, piece.replace(/\r$/, '').slice(0, max));
      this.line = '';
      this.breaks++;
      start = at + 1;
    }
    if (this.line.length < max) this.line += text.slice(start, start + max - this.line.length);
  }

  private endLine(number: number, text: string): void {
    if (!looksLikeError(text) || NOT_AN_ERROR.test(text)) return;
    if (this.errors.length < this.limits.errorLines) this.errors.push({ line: number, text });
    else this.moreErrors++;
  }
}

/**
 * The preview's size when the agent sets none (the wrapper's `--preview-chars`): output up to it is shown
 * unchanged, by the hooks' shell front too.
 */
export const DEFAULT_PREVIEW_CHARS = 8_000;

/** The limits a builder needs for a preview of at most `budget` characters. */
export function previewLimits(budget: number): PreviewLimits {
  return {
    headChars: Math.ceil(budget / 2),
    tailChars: Math.ceil(budget / 2),
    errorLines: 20,
    errorLineChars: 300,
  };
}

export interface PreviewParts {
  /** The first line: the handle, session, sizes and exit status. Always shown whole. */
  readonly handle: string;
  /** How to read, search, tail or write the output (shown as far as the budget allows). */
  readonly hints: string;
  readonly output: OutputSummary;
}

/**
 * The preview: `handle`, `hints`, then the head, the error lines and the tail of the output, in at most `budget`
 * characters (never fewer than the handle line itself: that is always shown, and always first).
 */
export function renderOutputPreview(parts: PreviewParts, budget: number): string {
  const handle = parts.handle.replace(/\n/g, ' ');
  let text = handle + '\n';
  if (text.length >= budget) return handle.length >= budget ? handle : text;
  if (parts.hints.trim() !== '') text += clip(parts.hints.replace(/\n*$/, '\n'), budget - text.length);
  const { output } = parts;
  const left = budget - text.length;
  const whole = `--- the whole output ---\n`;
  if (output.head.length === output.chars && whole.length + output.chars <= left) return text + whole + output.head;
  const errors = errorSection(output, Math.floor(left / 3));
  const headHeader = (n: number): string => `--- first ${n} characters ---\n`;
  const tailHeader = (n: number, omitted: number): string =>
    `--- ${omitted} characters not shown; last ${n} characters ---\n`;
  // Sized for the largest numbers they can show, and a line break closing the head.
  const overhead = headHeader(output.chars).length + tailHeader(output.chars, output.chars).length + 1;
  const room = left - errors.length - overhead;
  if (room <= 0) return text + errors;
  // Head and tail share what the error lines leave; either takes what the other does not need.
  let tailChars = Math.min(output.tail.length, Math.ceil(room / 2));
  const headChars = Math.min(output.head.length, room - tailChars, output.chars - tailChars);
  tailChars = Math.min(output.tail.length, room - headChars, output.chars - headChars);
  const head = toLineEnd(output.head.slice(0, headChars));
  const tail = tailChars > 0 ? fromLineStart(output.tail.slice(-tailChars)) : '';
  if (head.length > 0) text += headHeader(head.length) + head + (head.endsWith('\n') ? '' : '\n');
  text += errors + tailHeader(tail.length, output.chars - head.length - tail.length) + tail;
  return text.length > budget ? text.slice(0, budget) : text;
}

/** `text` up to its last line break, when that keeps most of it (a preview shows whole lines where it can). */
function toLineEnd(text: string): string {
  const end = text.lastIndexOf('\n');
  return end >= text.length / 2 ? text.slice(0, end + 1) : text;
}

/** `text` from after its first line break, when that keeps most of it. */
function fromLineStart(text: string): string {
  const start = text.indexOf('\n');
  return start >= 0 && start < text.length / 2 ? text.slice(start + 1) : text;
}

function errorSection(output: OutputSummary, budget: number): string {
  if (output.errors.length === 0) return '';
  const total = output.errors.length + output.moreErrors;
  const header = `--- ${total === 1 ? '1 line that looks' : `${total} lines that look`} like errors (line: text) ---\n`;
  if (header.length >= budget) return '';
  let text = header;
  let shown = 0;
  for (const { line, text: line_ } of output.errors) {
    const entry = `${line}: ${line_}\n`;
    const more = `(${total - shown - 1} more)\n`;
    if (text.length + entry.length + more.length > budget) break;
    text += entry;
    shown++;
  }
  if (shown < total) {
    const more = `(${total - shown} more)\n`;
    if (text.length + more.length <= budget) text += more;
  }
  return text;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : text.slice(0, Math.max(0, chars - 2)) + '…\n'.slice(0, Math.min(2, chars));
}
