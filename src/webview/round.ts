/**
 * One round of an answer: its text as Markdown segments and ref frames, then its diagnostics and tool
 * calls. While streaming, text goes to the active segment (a Markdown stream, or the body of the open
 * frame) and the ref events cut it: `refOpened` ends the Markdown at the tag and opens a frame,
 * `refClosed` closes it, nested tags are cut out of the body. `roundEnded` is authoritative: when its
 * refs describe other frames than streaming built, the segments are derived again from the whole text.
 */
import type { DiagnosticView, RefView, RoundView, ToolCallView } from '../core/chat/protocol';
import { scheduler } from './context';
import { h, icon } from './dom';
import { MarkdownStream } from './markdownStream';
import { perf } from './perf';
import { RefFrame } from './refFrame';
import { deriveSegments } from './segments';
import { ToolCallCard } from './toolCall';

type StreamEvent =
  | { kind: 'open'; index: number; id: string | undefined; offset: number }
  | { kind: 'close'; index: number; offset: number; ref: RefView | undefined };

interface MarkdownPart {
  kind: 'markdown';
  start: number;
  stream: MarkdownStream;
}

interface FramePart {
  kind: 'ref';
  start: number;
  /** Undefined while the frame is open. */
  end: number | undefined;
  frame: RefFrame;
  /** Offsets of the nested tags cut out of the body. */
  cuts: number[];
}

/** Where streamed text goes, and how offsets in the round map to offsets in that stream. */
interface Sink {
  stream: MarkdownStream;
  /** Offset in the round where the stream's text starts. */
  srcStart: number;
  /** Characters of the round cut out of the stream since `srcStart` (nested tags). */
  skipped: number;
  part: MarkdownPart | FramePart;
}

export class RoundComponent {
  readonly element: HTMLElement;
  private readonly textElement = h('div', { class: 'round-text' });
  private readonly diagnosticsElement = h('ul', {
    class: 'diagnostics',
    attrs: { 'aria-label': 'Problems with refs in this answer' },
  });
  private readonly toolsElement = h('div', { class: 'tool-calls' });
  private chunks: string[] = [];
  private length = 0;
  private parts: (MarkdownPart | FramePart)[] = [];
  private sink: Sink | undefined;
  private openFrame: { index: number; part: FramePart } | undefined;
  /** Opening-tag indexes of nested refs cut out of the open frame (their closing tags are cut too). */
  private readonly nestedOpen = new Set<number>();
  /** Events whose text has not arrived yet, in order. */
  private deferred: StreamEvent[] = [];
  private refs: RefView[] = [];
  private readonly cards = new Map<string, ToolCallCard>();

  constructor(view: RoundView | undefined, streaming: boolean) {
    this.diagnosticsElement.hidden = true;
    this.element = h('div', { class: 'round' }, this.textElement, this.diagnosticsElement, this.toolsElement);
    if (view) {
      this.load(view, streaming);
    } else if (streaming) {
      this.startSink(0);
    }
  }

  /** The round's raw text (tags included). */
  text(): string {
    if (this.chunks.length > 1) this.chunks = [this.chunks.join('')];
    return this.chunks[0] ?? '';
  }

  get isStreaming(): boolean {
    return this.sink !== undefined;
  }

  // ---- streaming ---------------------------------------------------------------------------------

  appendText(delta: string): void {
    if (delta === '') return;
    this.chunks.push(delta);
    this.length += delta.length;
    (this.sink ?? this.startSink(this.length - delta.length)).stream.append(delta);
    if (this.deferred.length > 0) this.flushDeferred();
  }

  refOpened(index: number, id: string | undefined, offset: number): void {
    this.deferred.push({ kind: 'open', index, id, offset });
    this.flushDeferred();
  }

  refClosed(index: number, offset: number, ref: RefView | undefined): void {
    this.deferred.push({ kind: 'close', index, offset, ref });
    this.flushDeferred();
  }

  /** The round's text is complete; `refs` and `diagnostics` are the final word. */
  end(refs: RefView[], diagnostics: DiagnosticView[]): void {
    this.deferred = [];
    this.refs = refs;
    this.renderDiagnostics(diagnostics);
    const text = this.text();
    const derived = deriveSegments(text, refs).filter((s) => s.kind === 'ref');
    const frames = this.parts.filter((p): p is FramePart => p.kind === 'ref');
    const same =
      frames.length === derived.length &&
      frames.every((f, i) => f.start === derived[i]?.start && f.end === derived[i]?.end);
    if (!same) {
      if (perf) perf.rebuilds = (perf.rebuilds ?? 0) + 1;
      this.build(text, false);
      return;
    }
    this.stopStreaming();
    const last = this.parts.at(-1);
    if (last) this.dropIfBlank(last);
    frames.forEach((part, i) => {
      const segment = derived[i];
      if (segment?.kind !== 'ref') return;
      part.frame.setRef(segment.ref);
      part.frame.setWriting(false);
      part.frame.setNested(segment.nested);
      if (part.cuts.join() !== segment.cuts.join()) {
        if (perf) perf.rebuilds = (perf.rebuilds ?? 0) + 1;
        part.frame.replaceBody(segment.body);
      }
    });
  }

  // ---- whole state -------------------------------------------------------------------------------

  /** A `messageUpdated`: keeps what is on screen when the text is the same (the usual end of a stream). */
  update(view: RoundView, streaming: boolean): void {
    const text = this.text();
    if (view.text !== text) {
      if (streaming && view.text.length > text.length && view.text.startsWith(text)) {
        this.appendText(view.text.slice(text.length));
      } else {
        this.load(view, streaming);
        return;
      }
    }
    if (!streaming && (this.sink !== undefined || JSON.stringify(view.refs) !== JSON.stringify(this.refs))) {
      this.end(view.refs, view.diagnostics);
    } else {
      this.renderDiagnostics(view.diagnostics);
    }
    this.setToolCalls(view.toolCalls);
  }

  toolCall(call: ToolCallView): void {
    const card = this.cards.get(call.callId);
    if (card) {
      card.update(call);
    } else {
      const created = new ToolCallCard(call);
      this.cards.set(call.callId, created);
      this.toolsElement.append(created.element);
    }
  }

  dispose(): void {
    for (const part of this.parts) {
      if (part.kind === 'markdown') part.stream.dispose();
      else part.frame.dispose();
    }
  }

  private load(view: RoundView, streaming: boolean): void {
    this.chunks = [view.text];
    this.length = view.text.length;
    this.refs = view.refs;
    this.deferred = [];
    this.build(view.text, streaming);
    this.renderDiagnostics(view.diagnostics);
    this.setToolCalls(view.toolCalls);
  }

  /** Renders the segments of `text` from scratch; when `streaming`, the end stays open for more text. */
  private build(text: string, streaming: boolean): void {
    this.dispose();
    this.parts = [];
    this.sink = undefined;
    this.openFrame = undefined;
    this.nestedOpen.clear();
    this.textElement.replaceChildren();
    const segments = deriveSegments(text, this.refs);
    for (const segment of segments) {
      if (segment.kind === 'markdown') {
        const part = this.addMarkdownPart(segment.start);
        part.stream.append(text.slice(segment.start, segment.end));
        if (streaming && segment.end === text.length)
          this.sink = { stream: part.stream, srcStart: segment.start, skipped: 0, part };
        else part.stream.finish();
      } else {
        const frame = new RefFrame(segment.ref.id);
        frame.body.append(segment.body);
        frame.body.finish();
        frame.setRef(segment.ref);
        frame.setWriting(false);
        frame.setNested(segment.nested);
        this.parts.push({ kind: 'ref', start: segment.start, end: segment.end, frame, cuts: segment.cuts });
        this.textElement.append(frame.element);
      }
    }
    if (streaming && !this.sink) this.startSink(text.length);
  }

  private addMarkdownPart(start: number): MarkdownPart {
    const part: MarkdownPart = { kind: 'markdown', start, stream: new MarkdownStream(scheduler) };
    this.parts.push(part);
    this.textElement.append(part.stream.element);
    return part;
  }

  private startSink(start: number): Sink {
    const part = this.addMarkdownPart(start);
    this.sink = { stream: part.stream, srcStart: start, skipped: 0, part };
    return this.sink;
  }

  private stopStreaming(): void {
    this.sink?.stream.finish();
    this.sink = undefined;
    this.openFrame?.part.frame.setWriting(false);
    this.openFrame = undefined;
  }

  private flushDeferred(): void {
    while (this.deferred.length > 0) {
      if (!this.apply(this.deferred[0] as StreamEvent)) return;
      this.deferred.shift();
    }
  }

  /** Applies a ref event; false when its text has not all arrived (it is then tried again later). */
  private apply(event: StreamEvent): boolean {
    if (event.offset >= this.length) return false;
    const sink = this.sink ?? this.startSink(this.length);
    const at = event.offset - sink.srcStart - sink.skipped;
    if (at < 0) return true; // before the active segment: nothing left to cut
    const open = this.openFrame;
    if (event.kind === 'open') {
      if (event.id === undefined) return true; // an invalid tag stays literal text
      if (open) return this.cutNestedTag(sink, open.part, at, event.offset, () => this.nestedOpen.add(event.index));
      const tag = takeTag(sink, at);
      if (!tag) return false;
      sink.stream.finish();
      this.dropIfBlank(sink.part);
      const frame = new RefFrame(event.id);
      const part: FramePart = { kind: 'ref', start: event.offset, end: undefined, frame, cuts: [] };
      this.parts.push(part);
      this.textElement.append(frame.element);
      this.openFrame = { index: event.index, part };
      this.nestedOpen.clear();
      this.sink = { stream: frame.body, srcStart: event.offset + tag.length, skipped: 0, part };
      frame.body.append(tag.after);
      return true;
    }
    if (!open) return true; // closes a tag that has no frame (invalid or stray)
    if (event.index === open.index) {
      const tag = takeTag(sink, at);
      if (!tag) return false;
      sink.stream.finish();
      const end = event.offset + tag.length;
      open.part.end = end;
      open.part.frame.setRef(event.ref);
      open.part.frame.setWriting(false);
      this.openFrame = undefined;
      const next = this.startSink(end);
      next.stream.append(tag.after);
      return true;
    }
    if (this.nestedOpen.has(event.index)) {
      return this.cutNestedTag(sink, open.part, at, event.offset, () => {
        this.nestedOpen.delete(event.index);
        if (event.ref) open.part.frame.addNested(event.ref);
      });
    }
    return true;
  }

  /** Takes the tag at `at` out of the open frame's body. */
  private cutNestedTag(sink: Sink, part: FramePart, at: number, offset: number, done: () => void): boolean {
    const tag = takeTag(sink, at);
    if (!tag) return false;
    sink.skipped += tag.length;
    part.cuts.push(offset);
    sink.stream.append(tag.after);
    done();
    return true;
  }

  /** Markdown that is only whitespace is left out, as `deriveSegments` leaves it out of a fresh render. */
  private dropIfBlank(part: MarkdownPart | FramePart): void {
    if (part.kind !== 'markdown' || part.stream.length > 1000 || !/^\s*$/.test(part.stream.text())) return;
    this.parts.splice(this.parts.indexOf(part), 1);
    part.stream.dispose();
    part.stream.element.remove();
  }

  private renderDiagnostics(diagnostics: readonly DiagnosticView[]): void {
    this.diagnosticsElement.replaceChildren(
      ...diagnostics.map((d) => h('li', { class: 'diagnostic' }, icon('warning'), h('span', { text: d.message }))),
    );
    this.diagnosticsElement.hidden = diagnostics.length === 0;
  }

  private setToolCalls(calls: readonly ToolCallView[]): void {
    const keep = new Set(calls.map((c) => c.callId));
    for (const [id, card] of this.cards) {
      if (!keep.has(id)) {
        card.element.remove();
        this.cards.delete(id);
      }
    }
    for (const call of calls) {
      const card = this.cards.get(call.callId);
      if (card) card.update(call);
      else this.toolCall(call);
      this.toolsElement.append((this.cards.get(call.callId) as ToolCallCard).element);
    }
  }
}

/**
 * Takes back the text of `sink` from `at` on, where a tag starts: its length (through `>`) and what came after
 * it. Undefined, with the text put back, while the tag's `>` has not arrived yet.
 */
function takeTag(sink: Sink, at: number): { length: number; after: string } | undefined {
  const removed = sink.stream.truncate(at);
  const gt = removed.indexOf('>');
  if (gt === -1) {
    sink.stream.append(removed);
    return undefined;
  }
  return { length: gt + 1, after: removed.slice(gt + 1) };
}
