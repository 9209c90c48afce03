/**
 * Public entry points for finding `<ref id="x">...</ref>` blocks in a model's message: all at once
 * (`extractRefs`) or while it streams (`RefStreamParser`). Both run the same scanner, so they agree.
 */
import { RefAssembler } from './assembler';
import { RefScanner } from './scanner';
import type { ExtractResult, RefEvent } from './types';

/**
 * Finds every ref in `text` (inner and outer, in the order of their opening tags) and every
 * diagnostic (in offset order). Tags inside fenced code blocks and inline code spans are literal.
 * Nested refs share one string; refs beyond `MAX_REF_CONTENT_FACTOR` are left out with a diagnostic.
 */
export function extractRefs(text: string): ExtractResult {
  const assembler = new RefAssembler();
  const scanner = new RefScanner(assembler);
  scanner.scanAll(text);
  return assembler.finish(scanner.length);
}

/** What most pushes return: one frozen array rather than a new empty one per chunk (chunks can be tiny and many). */
const NO_EVENTS: readonly RefEvent[] = Object.freeze([]);

/**
 * Parses a message as it arrives. `end()` returns exactly what `extractRefs` returns for the whole
 * text, however it was cut into chunks; offsets count from the start of the message. Each `push`
 * returns the events it could be sure of: a ref opening, text appended inside the innermost open ref
 * (raw, in order), a ref closing, diagnostics. Text after an undecided spot (say a backtick run whose
 * closing run has not arrived) is held back until it is decided. Events settled by `end()` itself
 * are not returned; its result has everything. Cost is linear in the message length for any chunking.
 */
export class RefStreamParser {
  private readonly assembler = new RefAssembler([]);
  private readonly scanner = new RefScanner(this.assembler);
  private ended = false;

  /**
   * The offset up to which the message is decided: every tag before it has been reported, and no later event
   * will be about text before it (text outside refs up to here can be shown as it is).
   */
  get decided(): number {
    return this.scanner.decided;
  }

  push(chunk: string): readonly RefEvent[] {
    if (this.ended) throw new Error('RefStreamParser: push() after end()');
    // Most pushes report nothing: an array is only made when there is an event to put in it.
    this.assembler.events = undefined;
    this.assembler.collecting = true;
    this.scanner.push(chunk);
    return this.assembler.events ?? NO_EVENTS;
  }

  end(): ExtractResult {
    if (this.ended) throw new Error('RefStreamParser: end() called twice');
    this.ended = true;
    this.assembler.events = undefined;
    this.assembler.collecting = false;
    this.scanner.finish();
    return this.assembler.finish(this.scanner.length);
  }

  /** Like `end()`, but also returns the events that only the end of the message settled. */
  endWithEvents(): { result: ExtractResult; events: RefEvent[] } {
    if (this.ended) throw new Error('RefStreamParser: end() called twice');
    this.ended = true;
    const events: RefEvent[] = [];
    this.assembler.events = events;
    this.scanner.finish();
    const result = this.assembler.finish(this.scanner.length);
    return { result, events };
  }
}
