/**
 * How the `@fdref` participant lays out a streaming answer in VS Code's Chat view, whose response can only be
 * appended to: the model's text outside refs goes out as Markdown once the `<ref>` parser has decided it holds no
 * tag, and each top-level `<ref>` block goes out whole when it closes, with every ref found in it. No `vscode`
 * import, so it is tested in plain Node.
 */
import { RefStreamParser } from '../core/refs/extract';
import type { ExtractedRef, ExtractResult, RefEvent } from '../core/refs/types';

/** What to show next, in order. */
export type AnswerPart =
  /** Model text outside refs (untrusted Markdown). */
  | { readonly kind: 'markdown'; readonly text: string }
  /**
   * A top-level block closed (or the answer ended inside it). `outer` is the block's own ref when it is a valid
   * one; otherwise `text` (the block as the model wrote it) is shown. `refs` are the valid refs in it, outer first.
   */
  | {
      readonly kind: 'block';
      readonly outer: ExtractedRef | undefined;
      readonly text: string;
      readonly refs: readonly ExtractedRef[];
    };

/** See the file comment. Cost is linear in the answer's length however it is chunked. */
export class AnswerLayout {
  private readonly parser = new RefStreamParser();
  /** The answer's text from `base` on: what is not shown yet. */
  private pending = '';
  private base = 0;
  private total = 0;
  private depth = 0;
  private blockStart = 0;
  private blockRefs: ExtractedRef[] = [];
  private ended = false;

  /** Adds the next chunk of the answer; returns what can be shown now. */
  push(chunk: string): AnswerPart[] {
    if (this.ended) throw new Error('AnswerLayout: push() after end()');
    if (chunk === '') return [];
    this.pending += chunk;
    this.total += chunk.length;
    const parts: AnswerPart[] = [];
    this.handle(this.parser.push(chunk), parts);
    if (this.depth === 0) this.markdownUpTo(this.parser.decided, parts);
    return parts;
  }

  /** Ends the answer: what is left to show, and the parser's result (every ref, the diagnostics). */
  end(): { parts: AnswerPart[]; result: ExtractResult } {
    if (this.ended) throw new Error('AnswerLayout: end() called twice');
    this.ended = true;
    const parts: AnswerPart[] = [];
    const { result, events } = this.parser.endWithEvents();
    this.handle(events, parts);
    this.markdownUpTo(this.total, parts);
    return { parts, result };
  }

  private handle(events: readonly RefEvent[], parts: AnswerPart[]): void {
    for (const event of events) {
      if (event.type === 'open') {
        if (this.depth === 0) {
          this.markdownUpTo(event.offset, parts);
          this.blockStart = event.offset;
          this.blockRefs = [];
        }
        this.depth++;
      } else if (event.type === 'close') {
        this.depth--;
        if (event.ref) this.blockRefs.push(event.ref);
        if (this.depth === 0) parts.push(this.block(event.ref?.end ?? this.closingTagEnd(event.offset)));
      }
    }
  }

  /** The block from its opening tag to `end`, taken off what is pending. */
  private block(end: number): AnswerPart {
    const text = this.pending.slice(this.blockStart - this.base, end - this.base);
    this.consume(end);
    const refs = this.blockRefs.sort((a, b) => a.start - b.start);
    this.blockRefs = [];
    const outer = refs[0]?.start === this.blockStart ? refs[0] : undefined;
    return { kind: 'block', outer, text, refs };
  }

  /** Where the closing tag at `offset` ends (the end of the answer for a ref left open). */
  private closingTagEnd(offset: number): number {
    if (offset >= this.total) return this.total;
    const gt = this.pending.indexOf('>', offset - this.base);
    return gt === -1 ? this.total : this.base + gt + 1;
  }

  private markdownUpTo(offset: number, parts: AnswerPart[]): void {
    if (offset <= this.base) return;
    parts.push({ kind: 'markdown', text: this.pending.slice(0, offset - this.base) });
    this.consume(offset);
  }

  private consume(offset: number): void {
    this.pending = this.pending.slice(offset - this.base);
    this.base = offset;
  }
}
