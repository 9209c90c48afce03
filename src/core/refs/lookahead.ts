/**
 * The code-span lookahead: from a backtick run, walks forward through the rest of its paragraph,
 * recording every backtick run by length, until the paragraph ends. It is fed text incrementally
 * (any chunking gives the same answers) and never looks at a character twice, so resolving all the
 * backtick runs of a paragraph costs one pass over it, even with many unmatched runs.
 */
import { GtFinder, scanTag } from './tag';

const enum State {
  /** Inside a line, past its line-start context. */
  Mid,
  /** At a line start, possibly after up to 3 spaces and complete one-line ref tags. */
  LineStart,
  /** The line so far has only spaces, tabs and `\r` but can no longer open a fence. */
  Blank,
  /** Counting a backtick or tilde run that stands at a line start. */
  LineStartRun,
  /** After a line-start run of 3+ backticks: a backtick on the rest of the line makes it inline. */
  Info,
  /** Counting a backtick run inside a line. */
  Run,
}

const BT = 96;
const TILDE = 126;

interface Runs {
  at: number[];
  head: number;
}

/** See the file comment. Offsets are absolute (in the whole message). */
export class SpanLookahead {
  readonly start: number;
  /** Everything before this offset has been consumed. */
  scanned: number;
  /** Offset of the start of the line that ends the paragraph (blank or fence-opening), or -1 while unknown. */
  paraEnd = -1;
  /** Text from `scanned` that could not be decided yet (a partial tag at a line start; bounded). */
  private carry = '';
  private state = State.Mid;
  private lineStart = 0;
  private lineSpaces = 0;
  private lineHadTag = false;
  private runStart = 0;
  private runLen = 0;
  private runChar = 0;
  private readonly runs = new Map<number, Runs>();
  private readonly gt = new GtFinder();
  private generation = -1;
  private nextBt = -2;
  private nextNl = -2;

  /** Starts right after a backtick run, in the middle of its line. */
  constructor(start: number) {
    this.start = start;
    this.scanned = start;
  }

  /** Offset of the first recorded run of exactly `len` backticks at or after `after`, or -1. */
  find(len: number, after: number): number {
    const runs = this.runs.get(len);
    if (runs === undefined) return -1;
    while (runs.head < runs.at.length && (runs.at[runs.head] ?? 0) < after) runs.head++;
    return runs.at[runs.head] ?? -1;
  }

  /**
   * Consumes `text` (which starts at absolute offset `base`) from where the last call stopped.
   * `text` either starts right after all text seen so far, or covers the consumed offset. Stops early
   * right after recording a run of `stopLen` backticks. With `final`, the text ends the message.
   */
  feed(text: string, base: number, final: boolean, stopLen: number, generation: number): void {
    if (this.paraEnd !== -1) return;
    let s = text;
    let sBase = base;
    let sameText = generation === this.generation;
    if (base > this.scanned) {
      s = this.carry + text;
      sBase = this.scanned;
      sameText = false;
    }
    this.carry = '';
    const n = s.length;
    let i = this.scanned - sBase;
    // Search results are kept across calls on the same text (`generation` says so), or a paragraph
    // with many code spans and no newline ahead would search to the end of the text once per span.
    if (!sameText) {
      this.nextBt = this.nextNl = -2;
      this.gt.reset();
    }
    this.generation = s === text ? generation : -1;
    for (;;) {
      switch (this.state) {
        case State.Mid: {
          if (this.nextBt !== -1 && this.nextBt < i) this.nextBt = s.indexOf('`', i);
          if (this.nextNl !== -1 && this.nextNl < i) this.nextNl = s.indexOf('\n', i);
          const nextBt = this.nextBt;
          const nextNl = this.nextNl;
          if (nextNl !== -1 && (nextBt === -1 || nextNl < nextBt)) {
            i = nextNl + 1;
            this.newLine(sBase + i);
            continue;
          }
          if (nextBt === -1) break; // nothing more on this text: the loop ends below and marks it all scanned
          i = nextBt;
          this.state = State.Run;
          this.runStart = sBase + i;
          this.runLen = 0;
          continue;
        }
        case State.Run: {
          while (i < n && s.charCodeAt(i) === BT) {
            i++;
            this.runLen++;
          }
          if (i >= n) break;
          this.state = State.Mid;
          if (this.record(this.runStart, this.runLen, stopLen)) {
            this.scanned = sBase + i;
            return;
          }
          continue;
        }
        case State.LineStart: {
          if (i >= n) break;
          const c = s.charCodeAt(i);
          if (c === 32) {
            i++;
            if (++this.lineSpaces > 3) this.state = this.lineHadTag ? State.Mid : State.Blank;
            continue;
          }
          if (c === 9 || c === 13) {
            i++;
            this.state = this.lineHadTag ? State.Mid : State.Blank;
            continue;
          }
          if (c === 10) {
            if (!this.lineHadTag) {
              this.paraEnd = this.lineStart;
              return;
            }
            i++;
            this.newLine(sBase + i);
            continue;
          }
          if (c === 60 /* < */) {
            const tag = scanTag(s, i, final, this.gt);
            if (tag.kind === 'need') {
              this.carry = s.slice(i);
              this.scanned = sBase + i;
              return;
            }
            if (tag.kind === 'none') {
              this.state = State.Mid;
              continue;
            }
            this.lineHadTag = true;
            const hasNewline = s.slice(i, tag.end).includes('\n');
            i = tag.end;
            if (hasNewline) this.state = State.Mid;
            continue;
          }
          if (c === BT || c === TILDE) {
            this.state = State.LineStartRun;
            this.runStart = sBase + i;
            this.runLen = 0;
            this.runChar = c;
            continue;
          }
          this.state = State.Mid;
          continue;
        }
        case State.Blank: {
          while (i < n) {
            const c = s.charCodeAt(i);
            if (c !== 32 && c !== 9 && c !== 13) break;
            i++;
          }
          if (i >= n) break;
          if (s.charCodeAt(i) === 10) {
            this.paraEnd = this.lineStart;
            return;
          }
          this.state = State.Mid;
          continue;
        }
        case State.LineStartRun: {
          while (i < n && s.charCodeAt(i) === this.runChar) {
            i++;
            this.runLen++;
          }
          if (i >= n) break;
          if (this.runLen >= 3) {
            if (this.runChar === TILDE) {
              this.paraEnd = this.lineStart;
              return;
            }
            this.state = State.Info;
            continue;
          }
          this.state = State.Mid;
          if (this.runChar === BT && this.record(this.runStart, this.runLen, stopLen)) {
            this.scanned = sBase + i;
            return;
          }
          continue;
        }
        case State.Info: {
          const bt = s.indexOf('`', i);
          const nl = s.indexOf('\n', i);
          if (nl !== -1 && (bt === -1 || nl < bt)) {
            this.paraEnd = this.lineStart;
            return;
          }
          if (bt === -1) break; // as above
          // Not a fence after all: the line-start run is an ordinary inline run.
          i = bt;
          this.state = State.Mid;
          if (this.record(this.runStart, this.runLen, stopLen)) {
            this.scanned = sBase + i;
            return;
          }
          continue;
        }
      }
      break;
    }
    this.scanned = sBase + n;
    if (final) this.finish(sBase + n);
  }

  private finish(end: number): void {
    switch (this.state) {
      case State.Run:
        this.record(this.runStart, this.runLen, -1);
        break;
      case State.LineStartRun:
        if (this.runLen >= 3) {
          this.paraEnd = this.lineStart; // an opening fence line at the very end
          return;
        }
        if (this.runChar === BT) this.record(this.runStart, this.runLen, -1);
        break;
      case State.Info:
        this.paraEnd = this.lineStart;
        return;
      default:
        break;
    }
    this.paraEnd = end;
  }

  private newLine(at: number): void {
    this.state = State.LineStart;
    this.lineStart = at;
    this.lineSpaces = 0;
    this.lineHadTag = false;
  }

  /** Records a run; true when it has the length the caller is waiting for. */
  private record(at: number, len: number, stopLen: number): boolean {
    let runs = this.runs.get(len);
    if (runs === undefined) {
      runs = { at: [], head: 0 };
      this.runs.set(len, runs);
    }
    runs.at.push(at);
    return len === stopLen;
  }
}
