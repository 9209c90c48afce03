/**
 * Markdown that grows: text is appended as it streams, cut into blocks at stable boundaries (see
 * `MarkdownBlockSplitter`); each completed block is rendered once, and only the growing tail is rendered
 * again, at most once per frame. An open code fence in the tail grows by appending to a text node and is
 * highlighted once it closes. `truncate` takes text back (a ref tag found in text already shown).
 */
import { MarkdownBlockSplitter } from './blockSplitter';
import { codeBlockElement } from './codeBlocks';
import { highlightLater } from './highlight';
import { h } from './dom';
import { renderMarkdown } from './markdown';
import type { Renderable, RenderScheduler } from './scheduler';

interface Block {
  text: string;
  /** Offset of the block in the stream's text. */
  start: number;
  element: HTMLElement | undefined;
}

interface Tail {
  element: HTMLElement;
  /** Length of the tail text shown (Markdown mode). */
  shownLength: number;
  shownText: string | undefined;
  /** Set while an open fence is shown as growing plain text. */
  code: { fenceStart: number; text: Text; shown: number } | undefined;
}

/** A tail render slower than this is not repeated every frame (see `tailReadyAt`). */
const SLOW_TAIL_MS = 4;

/**
 * Completed blocks are grouped in chunks of about this much text, each with `content-visibility: auto`:
 * off-screen chunks then cost nothing per frame (layout, pre-paint, paint), and there are few enough of
 * them that the browser's own visibility checks stay cheap too.
 */
const CHUNK_CHARS = 12_000;

interface Chunk {
  element: HTMLElement;
  /** Index of its first block. */
  first: number;
  chars: number;
}

export class MarkdownStream implements Renderable {
  readonly element: HTMLElement = h('div', { class: 'markdown' });
  private readonly splitter = new MarkdownBlockSplitter();
  private blocks: Block[] = [];
  private chunks: Chunk[] = [];
  /** blocks[0, rendered) are in the DOM. */
  private rendered = 0;
  /** Length of the text in `blocks`. */
  private completed = 0;
  private finished = false;
  private disposed = false;
  private tail: Tail | undefined;
  /** When the tail may render again: a slow tail renders less often, so its cost stays a fraction of the time. */
  private tailReadyAt = 0;

  private readonly addBlock = (text: string): void => {
    this.blocks.push({ text, start: this.completed, element: undefined });
    this.completed += text.length;
  };

  constructor(private readonly scheduler: RenderScheduler) {}

  /** Length of all text appended (and not truncated). */
  get length(): number {
    return this.completed + this.splitter.tailLength;
  }

  append(text: string): void {
    if (text === '' || this.finished || this.disposed) return;
    this.splitter.push(text, this.addBlock);
    this.scheduler.schedule(this);
  }

  /** No more text: the tail becomes the last block. */
  finish(): void {
    if (this.finished) return;
    this.finished = true;
    this.splitter.finishLine(this.addBlock);
    const rest = this.splitter.takeTail();
    if (rest !== '') {
      const tail = this.tail;
      if (tail && tail.code === undefined && tail.shownText === rest && this.rendered === this.blocks.length) {
        // The tail on screen is exactly the last block: keep it rather than render it again.
        const block = { text: rest, start: this.completed, element: tail.element };
        this.blocks.push(block);
        this.completed += rest.length;
        this.tail = undefined;
        tail.element.classList.remove('md-tail');
        this.chunkFor(block).element.append(tail.element);
        highlightLater(tail.element);
        this.rendered++;
      } else {
        this.addBlock(rest);
      }
    }
    this.scheduler.schedule(this);
  }

  /** Removes the text from `at` on (offset in this stream's text) and returns it. */
  truncate(at: number): string {
    const removed: string[] = [];
    let keep: string;
    // A cut exactly at a block boundary reopens the block before it: the boundary was decided by the line
    // now taken away, and what comes next may join that block (as a fresh render would have it).
    if (at > this.completed || this.blocks.length === 0) {
      const tail = this.splitter.tail;
      keep = tail.slice(0, at - this.completed);
      removed.push(tail.slice(at - this.completed));
    } else {
      let k = this.blocks.length - 1;
      while (k > 0 && (this.blocks[k] as Block).start >= at) k--;
      const block = this.blocks[k] as Block;
      keep = block.text.slice(0, at - block.start);
      removed.push(block.text.slice(at - block.start));
      for (let i = k + 1; i < this.blocks.length; i++) removed.push((this.blocks[i] as Block).text);
      removed.push(this.splitter.tail);
      for (let i = k; i < this.blocks.length; i++) (this.blocks[i] as Block).element?.remove();
      this.blocks.length = k;
      this.rendered = Math.min(this.rendered, k);
      this.completed = block.start;
      this.dropChunksFrom(this.rendered);
    }
    this.splitter.reset();
    this.dropTail();
    this.finished = false;
    this.splitter.push(keep, this.addBlock);
    this.scheduler.schedule(this);
    return removed.join('');
  }

  /** The whole text (blocks and tail). */
  text(): string {
    return this.blocks.map((b) => b.text).join('') + this.splitter.tail;
  }

  dispose(): void {
    this.disposed = true;
  }

  render(deadline: number): boolean {
    if (this.disposed) return false;
    let done = 0;
    while (this.rendered < this.blocks.length) {
      if (done > 0 && performance.now() > deadline) return true;
      const block = this.blocks[this.rendered] as Block;
      block.element ??= this.renderBlock(block.text);
      this.chunkFor(block).element.append(block.element);
      highlightLater(block.element);
      this.rendered++;
      done++;
    }
    if (this.finished) {
      this.dropTail();
      return false;
    }
    return this.renderTail();
  }

  /** The chunk the next rendered block goes into (a new one when the last is full). */
  private chunkFor(block: Block): Chunk {
    let chunk = this.chunks.at(-1);
    if (!chunk || chunk.chars >= CHUNK_CHARS) {
      chunk = { element: h('div', { class: 'md-chunk' }), first: this.rendered, chars: 0 };
      this.chunks.push(chunk);
      this.element.insertBefore(chunk.element, this.tail?.element ?? null);
    }
    chunk.chars += block.text.length;
    return chunk;
  }

  /** After blocks from `index` on were taken out: drops chunks left empty and recounts the last one. */
  private dropChunksFrom(index: number): void {
    while (this.chunks.length > 0 && (this.chunks.at(-1) as Chunk).first >= index) this.chunks.pop()?.element.remove();
    const last = this.chunks.at(-1);
    if (last) {
      last.chars = 0;
      for (let i = last.first; i < index; i++) last.chars += (this.blocks[i] as Block).text.length;
    }
  }

  private renderBlock(text: string): HTMLElement {
    const element = h('div', { class: 'md-block' });
    element.append(renderMarkdown(text));
    return element;
  }

  private dropTail(): void {
    this.tail?.element.remove();
    this.tail = undefined;
  }

  private renderTail(): boolean {
    const length = this.splitter.tailLength;
    if (length === 0) {
      this.dropTail();
      return false;
    }
    const start = performance.now();
    if (start < this.tailReadyAt) return true;
    let tail = this.tail;
    if (!tail) {
      tail = {
        element: h('div', { class: 'md-block md-tail' }),
        shownLength: -1,
        shownText: undefined,
        code: undefined,
      };
      this.tail = tail;
      this.element.append(tail.element);
    }
    const fence = this.splitter.openFence;
    if (fence) {
      if (tail.code === undefined || tail.code.fenceStart !== fence.start) {
        const before = fence.start > 0 ? renderMarkdown(this.splitter.tail.slice(0, fence.start)) : '';
        const { block, code } = codeBlockElement(fence.language);
        const text = document.createTextNode('');
        code.append(text);
        block.classList.add('is-streaming');
        tail.element.replaceChildren(before, block);
        tail.code = { fenceStart: fence.start, text, shown: fence.contentStart };
        tail.shownText = undefined;
        tail.shownLength = -1;
      }
      if (length > tail.code.shown) {
        tail.code.text.appendData(this.splitter.tail.slice(tail.code.shown));
        tail.code.shown = length;
      }
      return false;
    }
    if (tail.code === undefined && tail.shownLength === length) return false;
    const text = this.splitter.tail;
    tail.element.replaceChildren(renderMarkdown(text));
    tail.code = undefined;
    tail.shownText = text;
    tail.shownLength = length;
    const cost = performance.now() - start;
    this.tailReadyAt = cost > SLOW_TAIL_MS ? performance.now() + cost * 4 : 0;
    return false;
  }
}
