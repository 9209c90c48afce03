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
 * A command's kept text held in memory (the last command of a terminal, while output is not kept in the store):
 * bounded by the `CommandOutput` cap in front of it; `replay` writes it into another sink.
 */
export class MemoryOutput implements OutputSink {
  private pieces: string[] = [];

  write(piece: string): Promise<void> {
    this.pieces.push(piece);
    return Promise.resolve();
  }

  /** Writes every piece, in order, into `sink`. */
  async replay(sink: OutputSink): Promise<void> {
    for (const piece of this.pieces) await sink.write(piece);
  }

  /** Forgets the text. */
  clear(): void {
    this.pieces = [];
  }
}

/** What a kept command's descriptor says about it. */
export function commandRun(run: {
  readonly commandLine: string;
  readonly cwd: string | undefined;
  readonly exitCode: number | undefined;
  readonly startedAt: Date;
  readonly endedAt: Date | undefined;
  readonly output: Pick<CommandOutput, 'outputChars' | 'cut'>;
}): CommandRun {
  return {
    commandLine: run.commandLine,
    ...(run.cwd === undefined ? {} : { cwd: run.cwd }),
    ...(run.exitCode === undefined ? {} : { exitCode: run.exitCode }),
    startedAt: run.startedAt.toISOString(),
    ...(run.endedAt === undefined ? { unfinished: true } : { endedAt: run.endedAt.toISOString() }),
    outputChars: run.output.outputChars,
    cut: run.output.cut,
  };
}
