/**
 * Pairs tags into refs, collects their content and diagnostics, and reports events. It knows nothing
 * about Markdown: the scanner decides what is a tag and feeds it literal text and tags in order.
 */
import { REF_ID, REF_ID_RULE } from '../ids';
import { clipInput } from '../quoteInput';
import { refContent } from './content';
import { readId } from './tag';
import type { ExtractedRef, ExtractResult, RefDiagnostic, RefEvent } from './types';

interface OpenRef {
  index: number;
  id: string | undefined;
  start: number;
  /** Position in `pieces` where this ref's text begins. */
  from: number;
  /** Offset in the text of `pieces` (all of it joined) where this ref's text begins. */
  fromChar: number;
  /** Position in `slots` of a valid ref, -1 for an invalid one. */
  slot: number;
}

/** A closed ref whose content is cut from the outermost ref's text once that closes (see `settle`). */
interface PendingRef {
  id: string;
  slot: number;
  start: number;
  end: number;
  /** Its text in the outermost ref's text, `[from, to)`. */
  from: number;
  to: number;
}

/**
 * The refs of one message may hold, in all, at most this many times the message's length: refs nested
 * deeper repeat the same text once per level, which would make time and memory grow with the square of
 * the message. Checked at each `</ref>` against the message up to it, so a stream and a whole message
 * agree, and refs nested up to this deep always fit.
 */
export const MAX_REF_CONTENT_FACTOR = 4;

const RULE = `an id must match ${REF_ID.source} (${REF_ID_RULE})`;

/**
 * Receives literal text and tags in message order and builds the `ExtractResult`. When `events` is
 * set, every open, text, close and diagnostic is also appended to it as it happens.
 */
export class RefAssembler {
  events: RefEvent[] | undefined;
  private readonly stack: OpenRef[] = [];
  /** Text inside the outermost open ref; inner refs take a suffix of it. Emptied when no ref is open. */
  private pieces: string[] = [];
  /** Total length of `pieces`. */
  private piecesLength = 0;
  /** Closed refs waiting for their content, in closing order (only while no one listens to events). */
  private pending: PendingRef[] = [];
  /** Raw length of the content of the refs registered so far (see `MAX_REF_CONTENT_FACTOR`). */
  private registeredLength = 0;
  private readonly slots: (ExtractedRef | undefined)[] = [];
  private readonly diagnostics: RefDiagnostic[] = [];
  private nextIndex = 0;

  constructor(events?: RefEvent[]) {
    this.events = events;
  }

  /** Whether events are wanted (a stream parser's push); `events` is then made on the first one. */
  collecting = false;

  private emit(event: RefEvent): void {
    if (this.events) this.events.push(event);
    else if (this.collecting) this.events = [event];
  }

  /** Whether literal text matters now (a ref is open), so callers can skip cutting it out when it does not. */
  get wantsText(): boolean {
    return this.stack.length > 0;
  }

  /** Literal text at the current position; ignored outside refs. */
  text(s: string): void {
    const stack = this.stack;
    // Checked before indexing: reading index -1 of an empty array is a slow property lookup in V8.
    if (stack.length === 0 || s.length === 0) return;
    const top = stack[stack.length - 1] as OpenRef;
    this.pieces.push(s);
    this.piecesLength += s.length;
    this.emit({ type: 'text', index: top.index, text: s });
  }

  open(start: number, attrs: string): void {
    const idScan = readId(attrs);
    const index = this.nextIndex++;
    let id: string | undefined;
    let slot = -1;
    if (idScan.kind === 'ok') {
      id = idScan.id;
      slot = this.slots.length;
      this.slots.push(undefined);
    }
    this.emit({ type: 'open', index, id, offset: start });
    switch (idScan.kind) {
      case 'ok':
        break;
      case 'missing':
        this.diagnose(start, `<ref> without an id is not registered: write <ref id="...">, where ${RULE}`);
        break;
      case 'unquoted': {
        const value = clipInput(idScan.value);
        this.diagnose(
          start,
          `Unquoted ref id ${value === '' ? '(empty)' : value} is not registered: quote it, id="${value}"; ${RULE}`,
        );
        break;
      }
      case 'unterminated':
        this.diagnose(start, `Ref id "${clipInput(idScan.value)}" has no closing quote and is not registered; ${RULE}`);
        break;
      case 'invalid':
        this.diagnose(start, `Invalid ref id "${clipInput(idScan.value)}" is not registered: ${RULE}`);
        break;
      case 'cased': {
        const value = clipInput(idScan.value);
        this.diagnose(
          start,
          `Ref attribute ${clipInput(idScan.name)}="${value}" is not an id and the ref is not registered: attribute names are lower case, write id="${value}"`,
        );
        break;
      }
    }
    this.stack.push({ index, id, start, from: this.pieces.length, fromChar: this.piecesLength, slot });
  }

  close(start: number, end: number): void {
    const top = this.stack.pop();
    if (top === undefined) {
      this.diagnose(start, 'Stray </ref> without a matching <ref id="..."> is ignored');
      return;
    }
    let ref: ExtractedRef | undefined;
    if (top.id !== undefined) {
      const length = this.piecesLength - top.fromChar;
      if (this.registeredLength + length > MAX_REF_CONTENT_FACTOR * end) {
        this.diagnose(
          start,
          `Ref id "${top.id}" is not registered: refs nested this deep repeat too much text (the refs of a message may hold ` +
            `at most ${MAX_REF_CONTENT_FACTOR} times its length in all)`,
        );
      } else {
        this.registeredLength += length;
        if (this.events === undefined && !this.collecting) {
          // No one needs the content now: it is cut from the outermost ref's text when that closes, so
          // nested refs share that one string instead of each joining a copy of its own.
          this.pending.push({
            id: top.id,
            slot: top.slot,
            start: top.start,
            end,
            from: top.fromChar,
            to: this.piecesLength,
          });
        } else {
          let raw = this.pieces[top.from] ?? '';
          if (this.pieces.length - top.from > 1) {
            raw = this.pieces.slice(top.from).join('');
            // The joined text stands for its pieces from now on, so an outer ref joins it as one piece.
            this.pieces.length = top.from;
            this.pieces.push(raw);
          }
          ref = { id: top.id, ...refContent(raw), start: top.start, end };
          this.slots[top.slot] = ref;
        }
      }
    }
    if (this.stack.length === 0) this.settle();
    this.emit({ type: 'close', index: top.index, ref, offset: start });
  }

  /** A tag that would be a ref tag in lower case (`<REF id="x">`, `</Ref>`): literal text, but worth a word. */
  casedTag(start: number, tag: string): void {
    const lower = tag.charCodeAt(1) === 47 ? '</ref>' : '<ref id="...">';
    this.diagnose(start, `${clipInput(tag)} is not a ref tag and is ignored: ref tags are lower case, write ${lower}`);
  }

  /** Gives the pending refs their content, cut from the text of the outermost ref, and forgets that text. */
  private settle(): void {
    if (this.pending.length > 0) {
      const all = this.pieces.length === 1 ? (this.pieces[0] ?? '') : this.pieces.join('');
      for (const p of this.pending)
        this.slots[p.slot] = { id: p.id, ...refContent(all.slice(p.from, p.to)), start: p.start, end: p.end };
      this.pending = [];
    }
    this.pieces = [];
    this.piecesLength = 0;
  }

  selfClosing(start: number, attrs: string): void {
    const idScan = readId(attrs);
    const shown = idScan.kind === 'ok' ? `<ref id="${idScan.id}"/>` : '<ref/>';
    this.diagnose(start, `Self-closing ${shown} is not a ref: write <ref id="...">content</ref>`);
  }

  /**
   * Reports refs still open at `length` (the end of the message) and returns the result. Their
   * diagnostics sit at their opening tags, so they are merged into offset order.
   */
  finish(length: number): ExtractResult {
    const unclosed: RefDiagnostic[] = [];
    for (const open of this.stack) {
      const name = open.id === undefined ? '<ref>' : `<ref id="${open.id}">`;
      const diagnostic = {
        message: `Unclosed ${name}: no matching </ref> before the end of the message`,
        offset: open.start,
      };
      unclosed.push(diagnostic);
      this.emit({ type: 'diagnostic', diagnostic });
    }
    for (let k = this.stack.length - 1; k >= 0; k--) {
      const open = this.stack[k];
      if (open !== undefined) this.emit({ type: 'close', index: open.index, ref: undefined, offset: length });
    }
    this.stack.length = 0;
    this.settle();
    const refs: ExtractedRef[] = [];
    for (const ref of this.slots) if (ref !== undefined) refs.push(ref);
    return { refs, diagnostics: mergeByOffset(this.diagnostics, unclosed) };
  }

  private diagnose(offset: number, message: string): void {
    const diagnostic = { message, offset };
    this.diagnostics.push(diagnostic);
    this.emit({ type: 'diagnostic', diagnostic });
  }
}

/** Merges two lists already in offset order; on equal offsets `a` comes first. */
function mergeByOffset(a: RefDiagnostic[], b: RefDiagnostic[]): RefDiagnostic[] {
  if (b.length === 0) return a;
  const out: RefDiagnostic[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const x = a[i];
    const y = b[j];
    if (y === undefined || (x !== undefined && x.offset <= y.offset)) {
      if (x !== undefined) out.push(x);
      i++;
    } else {
      out.push(y);
      j++;
    }
  }
  return out;
}
