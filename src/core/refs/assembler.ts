/**
 * Pairs tags into refs, collects their content and diagnostics, and reports events. It knows nothing
 * about Markdown: the scanner decides what is a tag and feeds it literal text and tags in order.
 */
import { refContent } from './content';
import { ID_PATTERN, readId } from './tag';
import type { ExtractedRef, ExtractResult, RefDiagnostic, RefEvent } from './types';

interface OpenRef {
  index: number;
  id: string | undefined;
  start: number;
  /** Position in `pieces` where this ref's text begins. */
  from: number;
  /** Position in `slots` of a valid ref, -1 for an invalid one. */
  slot: number;
}

const RULE = `an id must match ${ID_PATTERN.source} (a letter or digit, then up to 127 letters, digits, '_', '.' or '-')`;

/**
 * Receives literal text and tags in message order and builds the `ExtractResult`. When `events` is
 * set, every open, text, close and diagnostic is also appended to it as it happens.
 */
export class RefAssembler {
  events: RefEvent[] | undefined;
  private readonly stack: OpenRef[] = [];
  /** Text inside the outermost open ref; inner refs take a suffix of it. Emptied when no ref is open. */
  private pieces: string[] = [];
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
      case 'unquoted':
        this.diagnose(start, `Unquoted ref id ${idScan.value === '' ? '(empty)' : idScan.value} is not registered: quote it, id="${idScan.value}"; ${RULE}`);
        break;
      case 'unterminated':
        this.diagnose(start, `Ref id "${idScan.value}" has no closing quote and is not registered; ${RULE}`);
        break;
      case 'invalid':
        this.diagnose(start, `Invalid ref id "${idScan.value}" is not registered: ${RULE}`);
        break;
    }
    this.stack.push({ index, id, start, from: this.pieces.length, slot });
  }

  close(start: number, end: number): void {
    const top = this.stack.pop();
    if (top === undefined) {
      this.diagnose(start, 'Stray </ref> without a matching <ref id="..."> is ignored');
      return;
    }
    let ref: ExtractedRef | undefined;
    if (top.id !== undefined) {
      const raw = this.pieces.length - top.from === 1 ? (this.pieces[top.from] ?? '') : this.pieces.slice(top.from).join('');
      ref = { id: top.id, ...refContent(raw), start: top.start, end };
      this.slots[top.slot] = ref;
    }
    if (this.stack.length === 0) this.pieces = [];
    this.emit({ type: 'close', index: top.index, ref, offset: start });
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
      const diagnostic = { message: `Unclosed ${name}: no matching </ref> before the end of the message`, offset: open.start };
      unclosed.push(diagnostic);
      this.emit({ type: 'diagnostic', diagnostic });
    }
    for (let k = this.stack.length - 1; k >= 0; k--) {
      const open = this.stack[k];
      if (open !== undefined) this.emit({ type: 'close', index: open.index, ref: undefined, offset: length });
    }
    this.stack.length = 0;
    this.pieces = [];
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
