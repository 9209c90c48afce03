/**
 * Inline code spans for the scanner, worked out lazily: only when a tag candidate needs to know whether
 * it sits inside one, by walking the backtick runs between the last decided spot (`walkPos`) and the
 * candidate. A run closes at the next run of the same length in its paragraph; the common case (the
 * closing run on the same line) is settled by one look, anything further by `SpanLookahead`, which is
 * kept across windows and chunks so each character of a paragraph is consumed once however the text
 * arrives. A run whose closing run has not arrived yet leaves the walk undecided (`spanRun`).
 */
import { SpanLookahead } from './lookahead';

const BT = 96;
const NL = 10;

/** Results of `walkTo`. */
export const OUTSIDE = 0;
export const INSIDE = 1;
export const UNDECIDED = 2;

/** See the file comment. Works on the scanner's current window of text (`window`). */
export class CodeSpanWalker {
  /** Absolute offset up to which inline code spans are worked out. */
  walkPos = 0;
  /** The backtick run (relative to the window) a walk stopped at, undecided. */
  spanRun = 0;

  private buf = '';
  /** Absolute offset of `buf[0]`. */
  private base = 0;
  private lookahead: SpanLookahead | undefined;
  private spanLen = 0;
  private spanAfter = 0;
  /** The next backtick at or after the last position a walk asked about (-1: none in `buf`). */
  private nextBt = -2;
  /** Changes whenever `buf` is replaced, so the lookahead knows when its cached search results are stale. */
  private generation = 0;

  /** Works on `buf`, which starts at absolute offset `base`, from now on. */
  window(buf: string, base: number): void {
    this.buf = buf;
    this.base = base;
    this.nextBt = -2;
    this.generation++;
  }

  /** Lets go of the window's text while the scanner is stalled (it keeps what it needs). */
  release(): void {
    this.buf = '';
  }

  /**
   * While stalled at an undecided backtick run: feeds it the new `chunk` (at absolute `chunkBase`) and says
   * whether the run can be decided now (its closing run arrived or its paragraph ended).
   */
  settles(chunk: string, chunkBase: number): boolean {
    const la = this.lookahead;
    if (la === undefined) return true;
    la.feed(chunk, chunkBase, false, this.spanLen, ++this.generation);
    return la.paraEnd !== -1 || la.find(this.spanLen, this.spanAfter) !== -1;
  }

  /**
   * Works out the inline code spans from `walkPos` up to `buf[p]` (a `<`, or a spot no backtick run
   * crosses): OUTSIDE when `buf[p]` is not in a code span, INSIDE when it is (and `walkPos` is then the
   * end of that span), UNDECIDED when a backtick run's closing run has not arrived yet (`spanRun`).
   */
  walkTo(p: number, final: boolean): number {
    const target = this.base + p;
    if (this.walkPos > target) return INSIDE;
    const s = this.buf;
    let w = this.walkPos - this.base;
    for (;;) {
      const r = this.nextBacktick(w);
      if (r === -1 || r >= p) {
        this.walkPos = target;
        return OUTSIDE;
      }
      let e = r + 1;
      while (s.charCodeAt(e) === BT) e++;
      const len = e - r;
      const close = this.sameLineClose(e, len, final) ?? this.closingRun(r, len, final);
      if (close === -2) {
        this.walkPos = this.base + r;
        this.spanRun = r;
        return UNDECIDED;
      }
      if (close === -1) {
        w = e;
        continue;
      }
      const end = close + len - this.base;
      if (end > p) {
        this.walkPos = this.base + end;
        return INSIDE;
      }
      w = end;
    }
  }

  /**
   * The first backtick in `buf` at or after `from`. Walks ask with ever larger `from`, so the answer is
   * kept: without that, a text with no backtick left would be searched to its end once per tag.
   */
  private nextBacktick(from: number): number {
    if (this.nextBt !== -1 && this.nextBt < from) this.nextBt = this.buf.indexOf('`', from);
    return this.nextBt;
  }

  /**
   * The common case, settled without the lookahead: the next backtick after a run of `len` ending at
   * `buf[e]` is on the same line (so in the same paragraph) and starts a run of the same length: the
   * span closes there (its absolute offset). Undefined when that does not hold.
   */
  private sameLineClose(e: number, len: number, final: boolean): number | undefined {
    const s = this.buf;
    const k = this.nextBacktick(e);
    if (k === -1) return undefined;
    // A look at the characters in between (spans never overlap, so this stays linear) rather than a
    // search for the next newline, which could run far ahead on a long line.
    for (let m = e; m < k; m++) if (s.charCodeAt(m) === NL) return undefined;
    const n = s.length;
    let f = k + 1;
    while (f < n && s.charCodeAt(f) === BT) f++;
    if (f - k !== len || (f === n && !final)) return undefined;
    return this.base + k;
  }

  /**
   * For an inline backtick run of `len` at `buf[i]`: the absolute offset of its closing run, -1 when it
   * has none (it is literal), -2 when that is not known yet.
   */
  private closingRun(i: number, len: number, final: boolean): number {
    const after = this.base + i + len;
    let la = this.lookahead;
    if (la === undefined || la.start > after || after > la.scanned || (la.paraEnd !== -1 && after > la.paraEnd)) {
      la = this.lookahead = new SpanLookahead(after);
    }
    this.spanLen = len;
    this.spanAfter = after;
    let close = la.find(len, after);
    if (close !== -1) return close;
    if (la.paraEnd !== -1) return -1;
    la.feed(this.buf, this.base, final, len, this.generation);
    close = la.find(len, after);
    if (close !== -1) return close;
    return la.paraEnd !== -1 || final ? -1 : -2;
  }
}
