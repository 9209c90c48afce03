/**
 * The Markdown-aware scanner that decides which `<ref>` tags are real: not inside a fenced code block,
 * not inside an inline code span. Fences are followed as they come (they can swallow any amount of
 * text); inline code spans are worked out lazily, only in front of a tag candidate, by walking the
 * backtick runs since the last decided spot (`CodeSpanWalker` in `codeSpans.ts`). Where a fence may open
 * or close is decided by `FenceLines` (`fenceLines.ts`). Most text therefore costs a few `indexOf`
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
import { CodeSpanWalker, INSIDE, UNDECIDED } from './codeSpans';
import { FenceLines, closesFenceLine, indexOfRun } from './fenceLines';
import { GtFinder, MAX_TAG_LENGTH, couldBeginTag, mayHoldTag, scanTag } from './tag';

const BT = 96;
const TILDE = 126;

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
const CLOSE_LINE_SETTLED = /[^ \t\r</ref>]/;

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

  private readonly spans = new CodeSpanWalker();
  private readonly lines = new FenceLines();

  private stall = Stall.None;
  private stallFrom = 0;
  private stallChar = 0;
  private stallLength = 0;
  private tagHead = '';
  private pieces: string[] = [];
  /** How many of `pieces` were already reported as text by `emitDeferred`. */
  private emittedPieces = 0;

  /** Absolute start of the text kept in `pieces` (at or before `stallFrom`, for a later walk). */
  private keepFrom = 0;
  /** Absolute start of `pieces[emittedPieces]`. */
  private unemittedFrom = 0;
  /** Where the main loop resumed in the current window (relative to `buf`), to size what may be kept. */
  private windowFrom = 0;

  private nextLt = -2;
  private nextFenceBt = -2;
  private nextFenceTilde = -2;
  private readonly gt = new GtFinder();

  constructor(private readonly out: RefAssembler) {}

  /** Total length of the text received so far. */
  get length(): number {
    return this.total;
  }

  /** How much of the text is decided: no tag will be found before this offset. */
  get decided(): number {
    return this.textFrom;
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
    this.lines.keepEndOf(this.pieces, chunk);
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
      case Stall.Span:
        return this.spans.settles(chunk, chunkBase);
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
    this.nextLt = this.nextFenceBt = this.nextFenceTilde = -2;
    this.gt.reset();
    this.spans.window(data, this.base);
    this.lines.window(data, this.base);
    this.run(final);
    if (final) {
      this.flushText(this.buf.length);
      this.buf = '';
    }
  }

  /**
   * Stops at `buf[at]`, keeping the text from there for later, and also the text since the spans' `walkPos`
   * that a later walk will need (see `keepForWalk`).
   */
  private stallAt(kind: Stall, at: number): void {
    let keep = at;
    if (!this.inFence && kind !== Stall.Span) {
      keep = this.keepForWalk(at);
      if (keep < 0) {
        kind = Stall.Span;
        at = keep = this.spans.spanRun;
      }
    }
    this.flushText(at);
    const s = this.buf;
    this.stall = kind;
    this.stallFrom = this.base + at;
    this.keepFrom = this.base + keep;
    this.unemittedFrom = this.keepFrom;
    this.lines.keepBefore(keep);
    this.pieces = keep < s.length ? [s.slice(keep)] : [];
    this.emittedPieces = 0;
    this.stallLength = s.length - at;
    if (kind === Stall.Tag) this.tagHead = s.slice(at, at + 6);
    this.buf = '';
    this.spans.release();
  }

  /**
   * Where the text kept for later must start so that a later walk finds the backtick runs since
   * `walkPos`: there, unless that would keep more than the text this window brought (which could make
   * repeated windows quadratic); then the walk is done now, up to `at`. Returns -1 when that walk
   * stalls at an undecided backtick run (`spanRun`).
   */
  private keepForWalk(at: number): number {
    const w = this.spans.walkPos - this.base;
    if (w >= at) return at;
    if (at - w <= 4 * (this.buf.length - this.windowFrom) + 256) return Math.max(0, w);
    return this.spans.walkTo(at, false) === UNDECIDED ? -1 : at;
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
        const inSpan = this.spans.walkTo(i, final);
        if (inSpan === UNDECIDED) return this.stallAt(Stall.Span, this.spans.spanRun);
        if (inSpan === INSIDE) {
          // Everything up to the end of that code span is literal.
          this.pos = this.spans.walkPos - this.base;
          continue;
        }
        if (tag.kind === 'cased') {
          // Literal text, exactly as any other `<`: only reported (after the text before it, as a tag is).
          this.flushText(i);
          this.out.casedTag(this.base + i, s.slice(i, tag.end));
          this.pos = i + 1;
          continue;
        }
        const spaces = this.lines.spacesBefore(i);
        this.flushText(i);
        const start = this.base + i;
        if (tag.kind === 'open') this.out.open(start, tag.attrs);
        else if (tag.kind === 'self') this.out.selfClosing(start, tag.attrs);
        else this.out.close(start, this.base + tag.end);
        this.lines.tagRead(i, tag.end, spaces);
        this.textFrom = this.base + tag.end;
        this.spans.walkPos = this.base + tag.end;
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
      if (this.lines.spacesBefore(i) >= 0) {
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
    if (e - j >= this.fenceLen && this.lines.atFenceLineStart(j)) {
      const verdict = closesFenceLine(s, e, final, this.gt);
      if (verdict === 'need') {
        this.stallAt(Stall.CloseLine, j);
        return false;
      }
      if (verdict === 'yes') {
        this.inFence = false;
        this.spans.walkPos = this.base + e;
      }
    }
    this.pos = e;
    return true;
  }
}
