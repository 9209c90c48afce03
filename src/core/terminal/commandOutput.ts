/**
 * One command's output on its way to where it is kept: raw terminal data in, filtered text out (see
 * `TerminalTextFilter`), at most `capBytes` UTF-8 bytes of it written, every character counted. Each piece is
 * written before the next is taken (the caller awaits `push`), so memory stays at one piece whatever the total.
 */
import type { CommandRun } from '../descriptors/descriptorDetails';
import { utf8Length } from '../quantities';
import { TerminalTextFilter } from './terminalTextFilter';

/** Where the kept text goes: a content streamed into the store, or `MemoryOutput`. */
export interface OutputSink {
  write(piece: string): Promise<void>;
}

/** The most characters filtered without yielding: about a millisecond of work. */
export const SLICE_CHARS = 1 << 17;

/** Lets timers and I/O run (a resolved promise would not: it continues before them). */
function yieldToEventLoop(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

export class CommandOutput {
  private readonly filter = new TerminalTextFilter();
  private seen = 0;
  private keptBytes = 0;
  private cutHere = false;
  private ended = false;

  constructor(
    private readonly sink: OutputSink,
    private readonly capBytes: number,
  ) {}

  /** Characters of text seen so far (after filtering), kept or not. */
  get outputChars(): number {
    return this.seen;
  }

  /** Whether the cap was reached: what came after it is counted, not kept. */
  get cut(): boolean {
    return this.cutHere;
  }

  /**
   * Filters a chunk of raw output and writes what fits under the cap. A large chunk (the host batches output) is
   * filtered in slices of `SLICE_CHARS`, yielding to the event loop between them, so no step holds the thread
   * for more than about a millisecond.
   */
  async push(raw: string): Promise<void> {
    if (this.ended) throw new Error('This command output has ended.');
    for (let from = 0; from < raw.length; from += SLICE_CHARS) {
      if (from > 0) await yieldToEventLoop();
      await this.keep(this.filter.push(raw.length <= SLICE_CHARS ? raw : raw.slice(from, from + SLICE_CHARS)));
    }
  }

  /** Writes what the filter still held (the last line); nothing may be pushed after it. */
  async end(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    await this.keep(this.filter.end());
  }

  private async keep(text: string): Promise<void> {
    if (text.length === 0) return;
    this.seen += text.length;
    if (this.cutHere) return;
    const bytes = utf8Length(text);
    if (this.keptBytes + bytes <= this.capBytes) {
      this.keptBytes += bytes;
      await this.sink.write(text);
      return;
    }
    this.cutHere = true;
    const head = prefixWithin(text, this.capBytes - this.keptBytes);
    this.keptBytes += utf8Length(head);
    if (head.length > 0) await this.sink.write(head);
  }
}

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes that does not split a surrogate pair. */
export function prefixWithin(text: string, bytes: number): string {
  let used = 0;
  let i = 0;
  while (i < text.length) {
    const code = text.charCodeAt(i);
    const pair = code >= 0xd800 && code <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > bytes) break;
    used += size;
    i += pair ? 2 : 1;
  }
  return text.slice(0, i);
}

/**
 * The most characters of a command's output held in memory per terminal while `fdref.terminal.keepOutput` is off
 * (for Keep Last Terminal Output): 2 Mi characters, 4 MiB as JavaScript strings. The end of the output is held,
 * the start dropped: after a long build, its last lines are what a user wants.
 */
export const MEMORY_TAIL_CHARS = 2 * 1024 * 1024;

/**
 * The last `maxChars` characters of a command's text, held in memory as the pieces they came in (a ring: whole
 * pieces fall off the front, the first one is read from an offset), so a piece is never copied again however many
 * come after it. `replay` writes what is held into another sink; `droppedChars` says how much fell off the front.
 */
export class TailOutput implements OutputSink {
  private pieces: string[] = [];
  /** Index in `pieces` of the first piece held. */
  private first = 0;
  /** Characters of the first piece dropped already. */
  private offset = 0;
  /** Characters held (from `offset` in the first piece). */
  private held = 0;
  private dropped = 0;

  constructor(private readonly maxChars: number = MEMORY_TAIL_CHARS) {}

  /** Characters written and dropped from the front to stay within `maxChars`. */
  get droppedChars(): number {
    return this.dropped;
  }

  /** Characters held. */
  get heldChars(): number {
    return this.held;
  }

  write(piece: string): Promise<void> {
    if (piece.length === 0) return Promise.resolve();
    if (piece.length >= this.maxChars) {
      // It replaces everything: hold only its end (one copy of at most `maxChars`).
      this.dropped += this.held + piece.length - this.maxChars;
      this.pieces = [piece.slice(piece.length - this.maxChars)];
      this.first = 0;
      this.offset = 0;
      this.held = this.maxChars;
      return Promise.resolve();
    }
    this.pieces.push(piece);
    this.held += piece.length;
    let excess = this.held - this.maxChars;
    while (excess > 0) {
      const rest = (this.pieces[this.first] ?? '').length - this.offset;
      if (rest <= excess) {
        this.pieces[this.first] = '';
        this.first++;
        this.offset = 0;
        this.held -= rest;
        this.dropped += rest;
        excess -= rest;
      } else {
        this.offset += excess;
        this.held -= excess;
        this.dropped += excess;
        excess = 0;
      }
    }
    // Compacts the array once the dropped slots outnumber the held ones: linear over all writes.
    if (this.first > 32 && this.first * 2 > this.pieces.length) {
      this.pieces = this.pieces.slice(this.first);
      this.first = 0;
    }
    return Promise.resolve();
  }

  /** The text held, in order (for tests and small outputs). */
  text(): string {
    return this.heldPieces().join('');
  }

  /**
   * What is held now, at most `maxBytes` UTF-8 bytes of it (its end, when it holds more), and how many characters
   * of the whole were dropped from its front (by `maxChars` or `maxBytes`). Taken at once, so the count and the
   * pieces agree while more output arrives.
   */
  snapshot(maxBytes = Number.POSITIVE_INFINITY): { pieces: string[]; droppedChars: number } {
    const pieces = this.heldPieces();
    // Three bytes at most per UTF-16 code unit: within the cap without counting.
    if (this.held * 3 <= maxBytes) return { pieces, droppedChars: this.dropped };
    let bytes = 0;
    let from = pieces.length;
    let skipped = 0;
    let head: string | undefined;
    // From the end: whole pieces while they fit, then the end of the one that does not.
    while (from > 0) {
      const piece = pieces[from - 1] ?? '';
      const size = utf8Length(piece);
      if (bytes + size > maxBytes) {
        head = suffixWithin(piece, maxBytes - bytes);
        skipped = piece.length - head.length;
        for (let i = 0; i < from - 1; i++) skipped += (pieces[i] ?? '').length;
        break;
      }
      bytes += size;
      from--;
    }
    const kept = pieces.slice(from);
    if (head !== undefined && head.length > 0) kept.unshift(head);
    return { pieces: kept, droppedChars: this.dropped + skipped };
  }

  /** Writes what `snapshot(maxBytes)` gives, in order, into `sink`; resolves to its `droppedChars`. */
  async replay(sink: OutputSink, maxBytes = Number.POSITIVE_INFINITY): Promise<number> {
    const { pieces, droppedChars } = this.snapshot(maxBytes);
    for (const piece of pieces) await sink.write(piece);
    return droppedChars;
  }

  /** Forgets the text. */
  clear(): void {
    this.pieces = [];
    this.first = 0;
    this.offset = 0;
    this.held = 0;
  }

  private heldPieces(): string[] {
    const pieces = this.pieces.slice(this.first);
    if (pieces.length > 0 && this.offset > 0) pieces[0] = (pieces[0] ?? '').slice(this.offset);
    return pieces;
  }
}

/** The longest suffix of `text` of at most `bytes` UTF-8 bytes that does not split a surrogate pair. */
export function suffixWithin(text: string, bytes: number): string {
  let used = 0;
  let i = text.length;
  while (i > 0) {
    const code = text.charCodeAt(i - 1);
    const pair = code >= 0xdc00 && code <= 0xdfff && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
    if (used + size > bytes) break;
    used += size;
    i -= pair ? 2 : 1;
  }
  return text.slice(i);
}

/** What a kept command's descriptor says about it. */
export function commandRun(run: {
  readonly commandLine: string;
  readonly cwd: string | undefined;
  readonly exitCode: number | undefined;
  readonly startedAt: Date;
  readonly endedAt: Date | undefined;
  readonly output: Pick<CommandOutput, 'outputChars' | 'cut'>;
  /** Characters dropped from the start (held in memory, only its end kept); 0 or absent when none. */
  readonly startDroppedChars?: number;
}): CommandRun {
  return {
    commandLine: run.commandLine,
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(run.exitCode === undefined ? {} : { exitCode: run.exitCode }),
    startedAt: run.startedAt.toISOString(),
    ...(run.endedAt === undefined ? { unfinished: true } : { endedAt: run.endedAt.toISOString() }),
    outputChars: run.output.outputChars,
    cut: run.output.cut,
    ...(run.startDroppedChars ? { startDroppedChars: run.startDroppedChars } : {}),
  };
}
