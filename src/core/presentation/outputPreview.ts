/**
 * What a model sees of a long text in place of the text (a command's output in fdref's command wrapper, a long
 * tool result, a pasted message): a bounded preview that starts with the handle of the descriptor holding it
 * whole, then how to read it, its first lines, the lines that look like errors or warnings with their line
 * numbers, and its last lines. Models skip what trails a long text, so what says how to get the rest comes first.
 *
 * `OutputPreviewBuilder` reads the output as it streams past and holds only what a preview can show (a head, a
 * tail, the first error and warning lines, the start of the current line and a few counters), so its memory is
 * bounded whatever the output's size; `renderOutputPreview` lays the preview out within a budget of characters
 * (`renderOutputBody` without the handle, for a caller that states it elsewhere).
 */

/**
 * Words of lines that look like an error, a failure or a crash in the output of common tools (`error:`, `FAIL`,
 * `panicked`, `Traceback`, `npm ERR!`, `a.c:3:4: error`, a test runner's ✕). Kept to words and literals: it is tried on every piece
 * of output (100 MB of it must pass in well under a second), and a pattern that backtracks inside words does not.
 */
const ERROR_WORDS =
  /\b(?:errors?|fail(?:ed|ure|ures|ing)?|panic(?:ked)?|exceptions?|fatal|segmentation fault|abort(?:ed)?|denied)\b|Traceback \(most recent call last\)|\bERR!|[✗✘✕]/i;
/** An exception's or error's class name (`NullPointerException`, `TypeError`), case-sensitive. */
const ERROR_CLASS = /[a-z](?:Error|Exception)\b/;

/** Words of a warning (`warning:`, `WARN`, `npm WARN`, `Warnings`). */
const WARNING_WORDS = /\bwarn(?:ings?)?\b/i;

/** Whether `text` holds something that looks like an error (see `ERROR_WORDS`). */
export function looksLikeError(text: string): boolean {
  return ERROR_WORDS.test(text) || ERROR_CLASS.test(text);
}
/** Whether `text` holds something that looks like a warning (see `WARNING_WORDS`). */
export function looksLikeWarning(text: string): boolean {
  return WARNING_WORDS.test(text);
}
/** Both word lists in one pattern: a piece of output with neither is passed over in one scan. */
const NOTABLE_WORDS = new RegExp(`${ERROR_WORDS.source}|${WARNING_WORDS.source}`, 'i');
/** A line that only says there was nothing wrong ("0 errors", "no failures", "0 errors, 0 warnings"). */
const NOT_AN_ERROR =
  /^\W*(?:found )?(?:0|no) (?:errors?|failures?|warnings?)(?:,? (?:and )?(?:0|no) (?:errors?|warnings?))?\W*$/i;

export interface PreviewLimits {
  /** Characters kept from the start of the output. */
  readonly headChars: number;
  /** Characters kept from the end of the output. */
  readonly tailChars: number;
  /** Error lines kept, and as many warning lines again (the rest are counted). */
  readonly errorLines: number;
  /** Characters kept of each error line. */
  readonly errorLineChars: number;
}

/**
 * An error or warning line: its 1-based line number and its text (clipped to `errorLineChars`, without the line
 * break). A text seen again is kept once, at its first line, with how many times it was seen in `repeats`.
 */
export interface ErrorLine {
  readonly line: number;
  readonly text: string;
  /** Set on a line that looks like a warning and not like an error. */
  readonly warning?: true;
  /** Times this text was seen, when more than once. */
  readonly repeats?: number;
}

/** An `ErrorLine` while the builder still counts its repeats. */
type KeptLine = { -readonly [K in keyof ErrorLine]: ErrorLine[K] };

/** What the builder saw of the output. */
export interface OutputSummary {
  readonly chars: number;
  /** Lines as the store counts them (`total_lines`): a last line break ends a line, it starts none. */
  readonly lines: number;
  readonly head: string;
  readonly tail: string;
  /** The error and warning lines kept, in the order of the output. */
  readonly errors: readonly ErrorLine[];
  /** Error and warning lines seen beyond `errors` (not counting repeats of a kept one). */
  readonly moreErrors: number;
}

export class OutputPreviewBuilder {
  private chars = 0;
  private breaks = 0;
  private head = '';
  private tail = '';
  private readonly errors: KeptLine[] = [];
  /** The kept lines by text, to count a repeat instead of keeping it again. */
  private readonly kept = new Map<string, KeptLine>();
  private errorCount = 0;
  private warningCount = 0;
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
    // Most pieces hold no error or warning word: then only their line breaks are counted (the start of the current
    // line is prefixed so a word split between two pieces is still seen).
    const piece = this.line + text;
    if (!NOTABLE_WORDS.test(piece) && !ERROR_CLASS.test(piece)) {
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
    const error = looksLikeError(text);
    if ((!error && !looksLikeWarning(text)) || NOT_AN_ERROR.test(text)) return;
    const seen = this.kept.get(text);
    if (seen !== undefined) {
      seen.repeats = (seen.repeats ?? 1) + 1;
      return;
    }
    // Errors and warnings each have their own room, so a flood of warnings never hides the one failure.
    if (error ? this.errorCount >= this.limits.errorLines : this.warningCount >= this.limits.errorLines) {
      this.moreErrors++;
      return;
    }
    const entry: KeptLine = error ? { line: number, text } : { line: number, text, warning: true };
    if (error) this.errorCount++;
    else this.warningCount++;
    this.errors.push(entry);
    this.kept.set(text, entry);
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
  return text + renderOutputBody(parts.output, budget - text.length);
}

/** `preview` without the header of its head (`--- first N characters ---`), for a reader of the text's own start. */
export function withoutHeadHeader(preview: string): string {
  return preview.replace(/^--- first \d+ characters ---\n/, '');
}

/** What a preview that shows all of the output starts with. */
export const WHOLE_OUTPUT_HEADER = '--- the whole output ---\n';

/**
 * What follows the handle and hints in a preview, in at most `budget` characters: the whole output when it fits,
 * else its head, the lines that look like errors or warnings (at most a third of the budget), and its tail.
 */
export function renderOutputBody(output: OutputSummary, budget: number): string {
  let text = '';
  if (output.head.length === output.chars && WHOLE_OUTPUT_HEADER.length + output.chars <= budget)
    return WHOLE_OUTPUT_HEADER + output.head;
  const errors = renderErrorLines(output, Math.floor(budget / 3));
  const headHeader = (n: number): string => `--- first ${n} characters ---\n`;
  const tailHeader = (n: number, omitted: number): string =>
    `--- ${omitted} characters not shown; last ${n} characters ---\n`;
  // Sized for the largest numbers they can show, and a line break closing the head.
  const overhead = headHeader(output.chars).length + tailHeader(output.chars, output.chars).length + 1;
  const room = budget - errors.length - overhead;
  // Too small for the headers: what fits of the start says more than nothing.
  if (room <= 0) return errors !== '' ? errors : wholeCharacters(toLineEnd(output.head.slice(0, Math.max(0, budget))));
  // Head and tail share what the error lines leave; either takes what the other does not need.
  let tailChars = Math.min(output.tail.length, Math.ceil(room / 2));
  const headChars = Math.min(output.head.length, room - tailChars, output.chars - tailChars);
  tailChars = Math.min(output.tail.length, room - headChars, output.chars - headChars);
  const head = wholeCharacters(toLineEnd(output.head.slice(0, headChars)));
  const tail = tailChars > 0 ? wholeCharacters(fromLineStart(output.tail.slice(-tailChars))) : '';
  if (head.length > 0) text += headHeader(head.length) + head + (head.endsWith('\n') ? '' : '\n');
  text += errors + tailHeader(tail.length, output.chars - head.length - tail.length) + tail;
  return text.length > budget ? text.slice(0, Math.max(0, budget)) : text;
}

/** `text` up to its last line break, when that keeps most of it (a preview shows whole lines where it can). */
function toLineEnd(text: string): string {
  const end = text.lastIndexOf('\n');
  return end >= text.length / 2 ? text.slice(0, end + 1) : text;
}

/** `text` without half of a surrogate pair at either end (a cut made there shows as U+FFFD). */
function wholeCharacters(text: string): string {
  const start = /^[\uDC00-\uDFFF]/.test(text) ? 1 : 0;
  const end = /[\uD800-\uDBFF]$/.test(text) ? text.length - 1 : text.length;
  return start === 0 && end === text.length ? text : text.slice(start, Math.max(start, end));
}

/** `text` from after its first line break, when that keeps most of it. */
function fromLineStart(text: string): string {
  const start = text.indexOf('\n');
  return start >= 0 && start < text.length / 2 ? text.slice(start + 1) : text;
}

/**
 * The error and warning lines under their header, each with its line number and how often its text was seen, in
 * the order of the output, in at most `budget` characters ('' when there are none or the header does not fit);
 * errors are chosen before warnings when not all fit.
 */
export function renderErrorLines(output: OutputSummary, budget: number): string {
  if (output.errors.length === 0) return '';
  const seen = (entry: ErrorLine): number => entry.repeats ?? 1;
  const total = output.errors.reduce((sum, entry) => sum + seen(entry), 0) + output.moreErrors;
  const what = output.errors.some((entry) => entry.warning === true) ? 'errors or warnings' : 'errors';
  const header = `--- ${total === 1 ? '1 line that looks' : `${total} lines that look`} like ${what} (line: text) ---\n`;
  if (header.length >= budget) return '';
  const entryText = ({ line, text, repeats }: ErrorLine): string =>
    `${line}: ${text}${repeats === undefined ? '' : ` (seen ${repeats} times)`}\n`;
  const chosen = new Set<ErrorLine>();
  let used = header.length;
  let shown = 0;
  for (const entry of [...output.errors].sort((a, b) => Number(a.warning === true) - Number(b.warning === true))) {
    const more = `(${total - shown - seen(entry)} more)\n`;
    if (used + entryText(entry).length + more.length > budget) break;
    chosen.add(entry);
    used += entryText(entry).length;
    shown += seen(entry);
  }
  let text =
    header +
    output.errors
      .filter((entry) => chosen.has(entry))
      .map(entryText)
      .join('');
  if (shown < total) {
    const more = `(${total - shown} more)\n`;
    if (text.length + more.length <= budget) text += more;
  }
  return text;
}

function clip(text: string, chars: number): string {
  return text.length <= chars ? text : text.slice(0, Math.max(0, chars - 2)) + '…\n'.slice(0, Math.min(2, chars));
}
