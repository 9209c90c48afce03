/**
 * The Markdown-aware scanner that decides which `<ref>` tags are real: not inside a fenced code block,
 * not inside an inline code span. Fences are followed as they come (they can swallow any amount of
 * text); inline code spans are worked out lazily, only in front of a tag candidate, by walking the
 * backtick runs since the last decided spot (`walkTo`). Most text therefore costs a few `indexOf`
 * searches and nothing else.
 *
 * It is incremental: text may arrive in any chunks and the decisions are the same as for the whole
 * text at once, because it only decides once the text seen so far settles the question, and
 * otherwise stalls at the undecided spot. Cost stays linear however the text is chunked: a chunk that
 * holds no possible tag is reported as text and its scan deferred; while stalled, new chunks are only
 * checked by a cheap "can it be decided now?" test; the one unbounded wait, a backtick run looking for
 * its closing run, is tracked by `SpanLookahead`, which consumes each chunk once; and text kept for a
 * later walk is bounded by the text that arrived since (`keepForWalk`).
 */
import type { RefAssembler } from './assembler';
import { SpanLookahead } from './lookahead';
import { GtFinder, MAX_TAG_LENGTH, couldBeginTag, scanTag } from './tag';

const BT = 96;
const TILDE = 126;
const NL = 10;

const enum Stall {
  /** Nothing undecided: any new text can be scanned. */
  None,
  /** A `<` that may begin a tag whose `>` has not arrived. */
  Tag,
  /** A backtick or tilde run touching the end of the text: its length is not known yet. */
  Run,
  /** A run that opens a fence unless its line turns out to contain a backtick: waiting for the line end. */
  OpenLine,
  /** An inline backtick run waiting for its closing run or the end of its paragraph. */
  Span,
  /** A possible closing fence line: waiting to see that only whitespace and `</ref>` follow it. */
  CloseLine,
}

/** Characters that keep a closing-fence candidate undecided; anything else (including `\n`) settles it. */
const CLOSE_LINE_SETTLED = /[^ \t\r<\/ref>]/;

/** Results of `walkTo`. */
const OUTSIDE = 0;
const INSIDE = 1;
const UNDECIDED = 2;

/** How many characters before the resume point are kept, for looking back to a line start (3 spaces and `\n`). */
const LOOKBACK = 4;

/**
 * Where the next run of three `c` characters starts in `s` from `from`, or -1. For a character as rare as
 * `~` a single-character search is much faster than one for the three-character string (for backticks,
 * which prose is full of, it is not: those use `indexOf('```')`).
 */
function indexOfRun(s: string, c: number, from: number): number {
  const ch = String.fromCharCode(c);
  for (let i = s.indexOf(ch, from); i !== -1; i = s.indexOf(ch, i + 1)) {
    if (s.charCodeAt(i + 1) === c && s.charCodeAt(i + 2) === c) return i;
  }
  return -1;
}

/** Whether `chunk` has a `<` that could begin a ref tag (in any case): followed by `r`, `R` or `/`, or ending the chunk. */
function mayHoldTag(chunk: string): boolean {
  for (let i = chunk.indexOf('<'); i !== -1; i = chunk.indexOf('<', i + 1)) {
    const next = chunk.charCodeAt(i + 1);
    if (next !== next || (next | 0x20) === 114 /* r or R */ || next === 47 /* / */) return true; // NaN: `<` ends the chunk
  }
  return false;
}

/** See the file comment. Feeds literal text and tags, in order, to a `RefAssembler`. */
export class RefScanner {
  private buf = '';
  /** Absolute offset of `buf[0]`. */
  private base = 0;
  private pos = 0;
  /** Absolute offset of the first literal text not yet handed to the assembler. */
  private textFrom = 0;
  private total = 0;

  private inFence = false;
  private fenceChar = 0;
  private fenceLen = 0;
  private fenceStr = '';

  /** Absolute end of the last tag, and the line-start spaces before it (-1 when it was not at a line start). */
  private lastTagEnd = -1;
  private lastTagLineSpaces = -1;

  private lookahead: SpanLookahead | undefined;
  private spanLen = 0;
  private spanAfter = 0;
  /** The backtick run (relative to `buf`) a walk stopped at, undecided. */
  private spanRun = 0;

  private stall = Stall.None;
  private stallFrom = 0;
  private stallChar = 0;
  private stallLength = 0;
  private tagHead = '';
  private prefix = '';
  private pieces: string[] = [];
  /** How many of `pieces` were already reported as text by `emitDeferred`. */
  private emittedPieces = 0;

  /** Absolute start of the text kept in `pieces` (at or before `stallFrom`, for a later walk). */
  private keepFrom = 0;
  /** Absolute start of `pieces[emittedPieces]`. */
  private unemittedFrom = 0;
  /** Absolute offset up to which inline code spans are worked out (see `walkTo`). */
  private walkPos = 0;
  /** Where the main loop resumed in the current window (relative to `buf`), to size what may be kept. */
  private windowFrom = 0;

  private nextLt = -2;
  /** The next backtick at or after the last position a walk asked about (-1: none in `buf`). */
  private nextWalkBt = -2;
  private nextFenceBt = -2;
  private nextFenceTilde = -2;
  /** Changes whenever `buf` is replaced, so the lookahead knows when its cached search results are stale. */
  private generation = 0;
  private readonly gt = new GtFinder();

  constructor(private readonly out: RefAssembler) {}

  /** Total length of the text received so far. */
  get length(): number {
    return this.total;
  }

  /** Scans a whole message at once. */
  scanAll(text: string): void {
    this.total = text.length;
    this.pieces = [text];
    this.resume(true);
  }

  /** Adds the next chunk of the message and scans as far as it can be decided. */
  push(chunk: string): void {
    if (chunk.length === 0) return;
    const chunkBase = this.total;
    this.total += chunk.length;
    this.pieces.push(chunk);
    if (this.stall === Stall.None) {
      if (this.inFence) {
        // Inside a fence only a closing fence matters, and it needs the fence character.
        if (chunk.indexOf(this.fenceStr[0] as string) === -1) return this.skipFenced(chunk);
      } else if (!mayHoldTag(chunk)) {
        // The common case, kept short: outside any ref, deferred text needs no reporting.
        if (!this.out.wantsText) {
          this.emittedPieces = this.pieces.length;
          this.unemittedFrom = this.textFrom = this.total;
          return;
        }
        return this.emitDeferred();
      }
    } else if (!this.settles(chunk, chunkBase)) return;
    this.resume(false);
  }

  /**
   * Text with no `<` holds no tag, so whatever the Markdown around it, it belongs to the innermost open
   * ref: it is reported at once, and scanning it waits for the next `<` (or the end). This keeps the
   * cost of a push that brings no tag to a search of the chunk, instead of a rescan of the window.
   */
  private emitDeferred(): void {
    const pieces = this.pieces;
    let from = this.unemittedFrom;
    for (let k = this.emittedPieces; k < pieces.length && this.out.wantsText; k++) {
      const piece = pieces[k] as string;
      const end = from + piece.length;
      if (end > this.textFrom) this.out.text(this.textFrom > from ? piece.slice(this.textFrom - from) : piece);
      from = end;
    }
    this.emittedPieces = pieces.length;
    this.unemittedFrom = this.total;
    this.textFrom = this.total;
  }

  /**
   * A chunk inside a fence without the fence character cannot close it, nor complete a closing run
   * begun before it: it is reported as text and dropped with whatever was kept, but its last characters,
   * which a closing fence line at the start of the next chunk looks back at.
   */
  private skipFenced(chunk: string): void {
    this.emitDeferred();
    this.prefix = chunk.length >= LOOKBACK ? chunk.slice(-LOOKBACK) : (this.prefix + this.pieces.join('')).slice(-LOOKBACK);
    this.pieces = [];
    this.emittedPieces = 0;
    this.stallFrom = this.keepFrom = this.unemittedFrom = this.total;
  }

  /** Scans what is left, knowing the message is complete. */
  finish(): void {
    this.resume(true);
  }

  /** The cheap test run on each new chunk while stalled: can the undecided spot be decided now? */
  private settles(chunk: string, chunkBase: number): boolean {
    switch (this.stall) {
      case Stall.Tag:
        if (chunk.includes('>')) return true;
        this.stallLength += chunk.length;
        if (this.stallLength >= MAX_TAG_LENGTH) return true;
        if (this.tagHead.length < 6) {
          this.tagHead += chunk.slice(0, 6 - this.tagHead.length);
          if (!couldBeginTag(this.tagHead)) return true;
        }
        return false;
      case Stall.Run:
        for (let k = 0; k < chunk.length; k++) if (chunk.charCodeAt(k) !== this.stallChar) return true;
        return false;
      case Stall.OpenLine:
        return chunk.includes('\n') || (this.stallChar === BT && chunk.includes('`'));
      case Stall.CloseLine:
        return CLOSE_LINE_SETTLED.test(chunk);
      case Stall.Span: {
        const la = this.lookahead;
        if (la === undefined) return true;
        la.feed(chunk, chunkBase, false, this.spanLen, ++this.generation);
        return la.paraEnd !== -1 || la.find(this.spanLen, this.spanAfter) !== -1;
      }
      default:
        return true;
    }
  }

  private resume(final: boolean): void {
    const data = this.pieces.length === 1 ? (this.pieces[0] ?? '') : this.pieces.join('');
    this.buf = data;
    this.base = this.keepFrom;
    this.pos = this.stallFrom - this.keepFrom;
    this.windowFrom = this.pos;
    this.pieces = [];
    this.emittedPieces = 0;
    this.stall = Stall.None;
    this.nextLt = this.nextWalkBt = this.nextFenceBt = this.nextFenceTilde = -2;
    this.gt.reset();
    this.generation++;
    this.run(final);
    if (final) {
      this.flushText(this.buf.length);
      this.buf = '';
    }
  }

  /**
   * Stops at `buf[at]`, keeping the text from there for later, and also the text since `walkPos` that a
   * later walk will need (see `keepForWalk`).
   */
  private stallAt(kind: Stall, at: number): void {
    let keep = at;
    if (!this.inFence && kind !== Stall.Span) {
      keep = this.keepForWalk(at);
      if (keep < 0) {
        kind = Stall.Span;
        at = keep = this.spanRun;
      }
    }
    this.flushText(at);
    const s = this.buf;
    this.stall = kind;
    this.stallFrom = this.base + at;
    this.keepFrom = this.base + keep;
    this.unemittedFrom = this.keepFrom;
    // Keep what a line-start look-back may need from before `keep`, without keeping it in the buffer.
    this.prefix = keep >= LOOKBACK ? s.slice(keep - LOOKBACK, keep) : (this.prefix + s.slice(0, keep)).slice(-LOOKBACK);
    this.pieces = keep < s.length ? [s.slice(keep)] : [];
    this.emittedPieces = 0;
    this.stallLength = s.length - at;
    if (kind === Stall.Tag) this.tagHead = s.slice(at, at + 6);
    this.buf = '';
  }

  /**
   * Where the text kept for later must start so that a later walk finds the backtick runs since
   * `walkPos`: there, unless that would keep more than the text this window brought (which could make
   * repeated windows quadratic); then the walk is done now, up to `at`. Returns -1 when that walk
   * stalls at an undecided backtick run (`spanRun`).
   */
  private keepForWalk(at: number): number {
    const w = this.walkPos - this.base;
    if (w >= at) return at;
    if (at - w <= 4 * (this.buf.length - this.windowFrom) + 256) return Math.max(0, w);
    return this.walkTo(at, false) === UNDECIDED ? -1 : at;
  }

  private flushText(at: number): void {
    const to = this.base + at;
    if (to > this.textFrom) {
      if (this.out.wantsText) this.out.text(this.buf.slice(this.textFrom - this.base, at));
      this.textFrom = to;
    }
  }

  private run(final: boolean): void {
    const s = this.buf;
    const n = s.length;
    for (;;) {
      if (this.inFence) {
        if (!this.fenceStep(final)) return;
        continue;
      }
      const pos = this.pos;
      if (this.nextLt !== -1 && this.nextLt < pos) this.nextLt = s.indexOf('<', pos);
      if (this.nextFenceBt !== -1 && this.nextFenceBt < pos) this.nextFenceBt = s.indexOf('```', pos);
      if (this.nextFenceTilde !== -1 && this.nextFenceTilde < pos) this.nextFenceTilde = indexOfRun(s, TILDE, pos);
      let i = this.nextLt;
      if (this.nextFenceBt !== -1 && (i === -1 || this.nextFenceBt < i)) i = this.nextFenceBt;
      if (this.nextFenceTilde !== -1 && (i === -1 || this.nextFenceTilde < i)) i = this.nextFenceTilde;
      if (i === -1) {
        this.pos = n;
        if (!final) {
          // A backtick or tilde run at the end may grow into a fence with the next chunk: keep it.
          let keep = n;
          while (keep > pos && (s.charCodeAt(keep - 1) === BT || s.charCodeAt(keep - 1) === TILDE)) keep--;
          this.stallAt(Stall.None, keep);
        }
        return;
      }
      const c = s.charCodeAt(i);
      if (c === 60 /* < */) {
        const tag = scanTag(s, i, final, this.gt, true);
        if (tag.kind === 'need') return this.stallAt(Stall.Tag, i);
        if (tag.kind === 'none') {
          this.pos = i + 1;
          continue;
        }
        const inSpan = this.walkTo(i, final);
        if (inSpan === UNDECIDED) return this.stallAt(Stall.Span, this.spanRun);
        if (inSpan === INSIDE) {
          // Everything up to the end of that code span is literal.
          this.pos = this.walkPos - this.base;
          continue;
        }
        if (tag.kind === 'cased') {
          // Literal text, exactly as any other `<`: only reported (after the text before it, as a tag is).
          this.flushText(i);
          this.out.casedTag(this.base + i, s.slice(i, tag.end));
          this.pos = i + 1;
          continue;
        }
        const spaces = this.lineStartSpaces(i);
        this.flushText(i);
        const start = this.base + i;
        if (tag.kind === 'open') this.out.open(start, tag.attrs);
        else if (tag.kind === 'self') this.out.selfClosing(start, tag.attrs);
        else this.out.close(start, this.base + tag.end);
        this.lastTagEnd = this.base + tag.end;
        this.lastTagLineSpaces = spaces >= 0 && !s.slice(i, tag.end).includes('\n') ? spaces : -1;
        this.textFrom = this.base + tag.end;
        this.walkPos = this.base + tag.end;
        this.pos = tag.end;
        continue;
      }
      // A run of three or more backticks or tildes: a fence when it stands at a line start.
      let e = i + 3;
      while (e < n && s.charCodeAt(e) === c) e++;
      if (e === n && !final) {
        this.stallChar = c;
        return this.stallAt(Stall.Run, i);
      }
      if (this.lineStartSpaces(i) >= 0) {
        const nl = s.indexOf('\n', e);
        let opens = true;
        if (c === BT) {
          const bt = s.indexOf('`', e);
          opens = bt === -1 || (nl !== -1 && nl < bt);
        }
        if (opens && nl === -1 && !final) {
          this.stallChar = c;
          return this.stallAt(Stall.OpenLine, i);
        }
        if (opens) {
          this.inFence = true;
          this.fenceChar = c;
          this.fenceLen = e - i;
          this.fenceStr = String.fromCharCode(c).repeat(3);
          this.pos = nl === -1 ? n : nl + 1;
          continue;
        }
      }
      // Not a fence: an inline run, which a later walk takes into account.
      this.pos = e;
    }
  }

  /**
   * Works out the inline code spans from `walkPos` up to `buf[p]` (a `<`, or a spot no backtick run
   * crosses): OUTSIDE when `buf[p]` is not in a code span, INSIDE when it is (and `walkPos` is then the
   * end of that span), UNDECIDED when a backtick run's closing run has not arrived yet (`spanRun`).
   */
  private walkTo(p: number, final: boolean): number {
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
    if (this.nextWalkBt !== -1 && this.nextWalkBt < from) this.nextWalkBt = this.buf.indexOf('`', from);
    return this.nextWalkBt;
  }

  /**
   * Inside a fence: finds its closing line. Returns false when it had to stop (stalled or at the end).
   */
  private fenceStep(final: boolean): boolean {
    const s = this.buf;
    const n = s.length;
    const j = s.indexOf(this.fenceStr, this.pos);
    if (j === -1) {
      // Trailing fence characters could start a closing run once more text arrives.
      let keep = n;
      while (keep > this.pos && keep > n - 2 && s.charCodeAt(keep - 1) === this.fenceChar) keep--;
      this.pos = n;
      if (!final) this.stallAt(Stall.None, keep);
      return false;
    }
    let e = j + 3;
    while (e < n && s.charCodeAt(e) === this.fenceChar) e++;
    if (e === n && !final) {
      this.stallChar = this.fenceChar;
      this.stallAt(Stall.Run, j);
      return false;
    }
    if (e - j >= this.fenceLen && this.atFenceLineStart(j)) {
      const verdict = this.closesLine(e, final);
      if (verdict === 'need') {
        this.stallAt(Stall.CloseLine, j);
        return false;
      }
      if (verdict === 'yes') {
        this.inFence = false;
        this.walkPos = this.base + e;
      }
    }
    this.pos = e;
    return true;
  }

  /** After a closing fence run: only spaces, tabs, `\r` and closing ref tags may follow on its line. */
  private closesLine(from: number, final: boolean): 'yes' | 'no' | 'need' {
    const s = this.buf;
    const n = s.length;
    let k = from;
    for (;;) {
      if (k >= n) return final ? 'yes' : 'need';
      const c = s.charCodeAt(k);
      if (c === 32 || c === 9 || c === 13) k++;
      else if (c === NL) return 'yes';
      else if (c === 60) {
        const tag = scanTag(s, k, final, this.gt);
        if (tag.kind === 'need') return 'need';
        if (tag.kind !== 'close') return 'no';
        k = tag.end;
      } else return 'no';
    }
  }

  /** Whether `buf[j]` is preceded on its line by at most 3 spaces (ref tags are not transparent inside a fence). */
  private atFenceLineStart(j: number): boolean {
    let k = j;
    while (this.charBefore(k) === 32) {
      k--;
      if (j - k > 3) return false;
    }
    const c = this.charBefore(k);
    return c === NL || c === -1;
  }

  /** The character before `buf[k]`, reaching into the kept prefix; -1 at the start of the message. */
  private charBefore(k: number): number {
    if (k > 0) return this.buf.charCodeAt(k - 1);
    const p = this.prefix;
    const at = p.length + k - 1;
    if (at >= 0) return p.charCodeAt(at);
    return this.base + k - 1 < 0 ? -1 : -2;
  }

  /**
   * Outside fences: the number of spaces before `buf[i]` in its line-start context (a line start, then
   * up to 3 spaces and one-line ref tags in any order), or -1 when `buf[i]` is not in one.
   */
  private lineStartSpaces(i: number): number {
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
