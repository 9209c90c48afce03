/**
 * Cuts streaming Markdown into blocks that render on their own: a cut falls before an unindented line
 * that follows a blank line, never inside a fenced code block. Each push looks only at the text it
 * brings (plus the line it completes), so splitting a whole answer costs time linear in its length.
 * No DOM here: the unit tests run it in Node.
 */

/** A tail this long is also cut before indented lines after a blank line (keeps re-renders of the tail small). */
const CUT_INDENTED_AFTER = 16_384;
/** A tail this long is cut before any line outside a fence (a paragraph may split; rendering stays bounded). */
const CUT_ANY_LINE_AFTER = 65_536;

// Liberal on purpose: a fence we fail to see lets a blank line inside it cut the block (a broken render),
// while a fence seen where Markdown has none only keeps a block whole (always safe).
const FENCE_OPEN = /^[\t >]*(?:(?:[-+*]|\d{1,9}[.)])[\t ]+)?(`{3,}|~{3,})([^\n]*)/;
const FENCE_CLOSE = /^[\t >]*(`{3,}|~{3,})[\t ]*\r?\n?$/;
const BLANK = /^[\t ]*\r?\n?$/;

export interface OpenFence {
  /** Offset in the tail of the line that opened the fence. */
  start: number;
  /** Offset in the tail just after that line: the code starts here. */
  contentStart: number;
  /** First word of the info string ('' when none). */
  language: string;
}

export class MarkdownBlockSplitter {
  /** Complete lines of the current (last, unfinished) block. */
  private pieces: string[] = [];
  private piecesLength = 0;
  /** The incomplete last line. */
  private line = '';
  private afterBlank = false;
  private fence: { char: string; length: number; open: OpenFence } | undefined;

  /** Appends `text`; calls `onBlock` with each block it completes, in order. */
  push(text: string, onBlock: (block: string) => void): void {
    let from = 0;
    for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
      const piece = text.slice(from, nl + 1);
      const line = this.line === '' ? piece : this.line + piece;
      this.line = '';
      from = nl + 1;
      this.completeLine(line, onBlock);
    }
    if (from < text.length) this.line += from === 0 ? text : text.slice(from);
  }

  /** The text of the unfinished block (everything not yet handed to `onBlock`). */
  get tail(): string {
    if (this.pieces.length > 1) this.pieces = [this.pieces.join('')];
    return (this.pieces[0] ?? '') + this.line;
  }

  get tailLength(): number {
    return this.piecesLength + this.line.length;
  }

  /** The fence open in the tail, if any. */
  get openFence(): OpenFence | undefined {
    return this.fence?.open;
  }

  /**
   * The text is over: decides the incomplete last line as if it were complete, so a block ends the same
   * whether or not more text had come after it and been taken back.
   */
  finishLine(onBlock: (block: string) => void): void {
    if (this.line === '') return;
    const line = this.line;
    this.line = '';
    this.completeLine(line, onBlock);
  }

  /** Returns the tail and starts over (the state at a block boundary is the initial state). */
  takeTail(): string {
    const tail = this.tail;
    this.reset();
    return tail;
  }

  reset(): void {
    this.pieces = [];
    this.piecesLength = 0;
    this.line = '';
    this.afterBlank = false;
    this.fence = undefined;
  }

  private completeLine(line: string, onBlock: (block: string) => void): void {
    if (this.fence) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1]?.[0] === this.fence.char && close[1].length >= this.fence.length) this.fence = undefined;
      this.add(line);
      return;
    }
    if (BLANK.test(line)) {
      this.afterBlank = true;
      this.add(line);
      return;
    }
    const length = this.piecesLength;
    if (length > 0) {
      const indented = line.charCodeAt(0) === 32 || line.charCodeAt(0) === 9;
      if ((this.afterBlank && (!indented || length >= CUT_INDENTED_AFTER)) || length >= CUT_ANY_LINE_AFTER) {
        onBlock(this.pieces.length === 1 ? (this.pieces[0] as string) : this.pieces.join(''));
        this.pieces = [];
        this.piecesLength = 0;
      }
    }
    this.afterBlank = false;
    const open = FENCE_OPEN.exec(line);
    if (open) {
      const run = open[1] as string;
      const info = (open[2] ?? '').trim();
      // A backtick fence's info string cannot hold a backtick: that is inline code, not a fence.
      if (!(run[0] === '`' && info.includes('`'))) {
        const start = this.piecesLength;
        this.fence = {
          char: run[0] as string,
          length: run.length,
          open: { start, contentStart: start + line.length, language: info.split(/\s+/)[0] ?? '' },
        };
      }
    }
    this.add(line);
  }

  private add(line: string): void {
    this.pieces.push(line);
    this.piecesLength += line.length;
  }
}
