/**
 * The read side of a descriptor's text, whether it is held in memory (`Content`) or read from the store on demand
 * (`StoredContent`). The tools use only this, so the same tool code serves the chat's in-memory session and a
 * store session: a page or a line range costs the page table or a line lookup plus that range, never the whole
 * text (a stored content finds a line from a checkpoint and one block of text, so its memory does not grow with
 * its line count).
 *
 * Offsets and lengths are in UTF-16 code units; lines are counted as `Content` counts them (a trailing newline does
 * not start a line; empty text has none). Each method may answer at once or with a promise: callers `await` it.
 */
export interface TextSource {
  /** Length in UTF-16 code units, known at once. */
  readonly length: number;
  /** Lines in the text, known at once. */
  readonly totalLines: number;
  /** Characters `[start, end)`, clamped to the text; `end` defaults to the end. */
  slice(start: number, end?: number): string | Promise<string>;
  /** The 1-based line holding the character at `offset` (`0 <= offset < length`; 0 for empty text). */
  lineAt(offset: number): number | Promise<number>;
  /**
   * Offset where 1-based `line` starts (lines start at 0 and just after every `\n` that is not the end of the
   * text); `totalLines + 1` gives the end of the text.
   */
  lineStart(line: number): number | Promise<number>;
  /** Page start offsets for `pageSize`, followed by the length as a sentinel (see `Content.pageTable`). */
  pageTable(pageSize: number): Uint32Array | Promise<Uint32Array>;
  /**
   * The line at each offset of `pageTable(pageSize)`, `totalLines + 1` for the sentinel (see `Content.pageLines`):
   * where it is known, a page read looks up no line. Without it, the selection asks `lineAt`.
   */
  pageLines?(pageSize: number): Uint32Array;
  /**
   * The text in order, piece by piece, each with the offset of its first character: a linear scan (`search_fd`)
   * that never holds the whole text. A piece may end anywhere, even inside a line or between a surrogate pair's
   * halves (callers carry a partial line over).
   */
  chunks(): AsyncIterable<TextChunk> | Iterable<TextChunk>;
  /**
   * The store's name for the text (see `contentDigest`), when it is known without reading the text: a stored
   * content has it; an in-memory `Content` has not (it computes `digest` on demand instead).
   */
  readonly ref?: { readonly h: string; readonly enc: string } | undefined;
}

/** The whole text of `source` (a stored content is read, through its cache). */
export async function readText(source: TextSource): Promise<string> {
  return source.slice(0, source.length);
}

/** One piece of a text read in order. */
export interface TextChunk {
  readonly offset: number;
  readonly text: string;
}
