/**
 * The line rules of fences. A fence run opens or closes a fence only at a line start: after a newline
 * (or at the start of the message) and at most 3 spaces. Outside fences, one-line ref tags earlier on
 * the line do not count (the tag is taken out of the text, so the run after it still starts the line);
 * inside a fence they do. A closing run ends its fence only when nothing but whitespace and closing ref
 * tags follow it on its line. The scanner's window is a slice of the message, so the few characters
 * before it are kept to look back across its start.
 */
import { type GtFinder, scanTag } from './tag';

const NL = 10;

/** How many characters before the resume point are kept, for looking back to a line start (3 spaces and `\n`). */
const LOOKBACK = 4;

/**
 * Where the next run of three `c` characters starts in `s` from `from`, or -1. For a character as rare as
 * `~` a single-character search is much faster than one for the three-character string (for backticks,
 * which prose is full of, it is not: those use `indexOf('```')`).
 */
export function indexOfRun(s: string, c: number, from: number): number {
  const ch = String.fromCharCode(c);
  for (let i = s.indexOf(ch, from); i !== -1; i = s.indexOf(ch, i + 1)) {
    if (s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === c) return i;
  }
  return -1;
}

/**
 * After a closing fence run ending at `s[from]`: whether only spaces, tabs, `\r` and closing ref tags
 * follow on its line, so that it closes the fence (`need` when the text so far cannot tell).
 */
export function closesFenceLine(s: string, from: number, final: boolean, gt: GtFinder): 'yes' | 'no' | 'need' {
  const n = s.length;
  let k = from;
  for (;;) {
    if (k >= n) return final ? 'yes' : 'need';
    const c = s.charCodeAt(k);
    if (c === 32 || c === 9 || c === 13) k++;
    else if (c === NL) return 'yes';
    else if (c === 60) {
      const tag = scanTag(s, k, final, gt);
      if (tag.kind === 'need') return 'need';
      if (tag.kind !== 'close') return 'no';
      k = tag.end;
    } else return 'no';
  }
}

/** See the file comment. Works on the scanner's current window of text (`window`). */
export class FenceLines {
  private buf = '';
  /** Absolute offset of `buf[0]`. */
  private base = 0;
  /** The last `LOOKBACK` characters before `buf` (fewer at the start of the message). */
  private prefix = '';
  /** Absolute end of the last tag, and the line-start spaces before it (-1 when it was not at a line start). */
  private lastTagEnd = -1;
  private lastTagLineSpaces = -1;

  /** Works on `buf`, which starts at absolute offset `base`, from now on. */
  window(buf: string, base: number): void {
    this.buf = buf;
    this.base = base;
  }

  /** The next window starts at `buf[keep]`: keeps what a look-back may need from before it, without the window itself. */
  keepBefore(keep: number): void {
    const s = this.buf;
    this.prefix = keep >= LOOKBACK ? s.slice(keep - LOOKBACK, keep) : (this.prefix + s.slice(0, keep)).slice(-LOOKBACK);
    this.buf = '';
  }

  /** The text kept since the window, `pieces` (`last` at its end), is dropped: keeps its last characters. */
  keepEndOf(pieces: readonly string[], last: string): void {
    this.prefix = last.length >= LOOKBACK ? last.slice(-LOOKBACK) : (this.prefix + pieces.join('')).slice(-LOOKBACK);
  }

  /** A tag from `buf[i]` to `buf[end]` was read, `spaces` after its line start (-1: not at one). */
  tagRead(i: number, end: number, spaces: number): void {
    this.lastTagEnd = this.base + end;
    this.lastTagLineSpaces = spaces >= 0 && !this.buf.slice(i, end).includes('\n') ? spaces : -1;
  }

  /** Whether `buf[j]` is preceded on its line by at most 3 spaces (ref tags are not transparent inside a fence). */
  atFenceLineStart(j: number): boolean {
    let k = j;
    while (this.charBefore(k) === 32) {
      k--;
      if (j - k > 3) return false;
    }
    const c = this.charBefore(k);
    return c === NL || c === -1;
  }

  /**
   * Outside fences: the number of spaces before `buf[i]` in its line-start context (a line start, then
   * up to 3 spaces and one-line ref tags in any order), or -1 when `buf[i]` is not in one.
   */
  spacesBefore(i: number): number {
    let k = i;
    while (this.charBefore(k) === 32) {
      k--;
      if (i - k > 3) return -1;
    }
    const spaces = i - k;
    const c = this.charBefore(k);
    if (c === NL || c === -1) return spaces;
    if (this.base + k === this.lastTagEnd && this.lastTagLineSpaces >= 0 && this.lastTagLineSpaces + spaces <= 3) {
      return this.lastTagLineSpaces + spaces;
    }
    return -1;
  }

  /** The character before `buf[k]`, reaching into the kept prefix; -1 at the start of the message. */
  private charBefore(k: number): number {
    if (k > 0) return this.buf.charCodeAt(k - 1);
    const p = this.prefix;
    const at = p.length + k - 1;
    if (at >= 0) return p.charCodeAt(at);
    return this.base + k - 1 < 0 ? -1 : -2;
  }
}
