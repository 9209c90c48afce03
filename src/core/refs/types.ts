/** A `<ref id="x">...</ref>` block found in a model's message. Offsets count UTF-16 code units in the whole message. */
export interface ExtractedRef {
  /** The id as written (without the `ref:` prefix). */
  id: string;
  /** The text between the tags, nested ref tags removed, one newline trimmed at each end, a lone fence unwrapped. */
  content: string;
  /** The first word of the fence's info string when the content was exactly one fenced code block. */
  language?: string;
  /** Offset of the `<` of the opening tag. */
  start: number;
  /** Offset just after the `>` of the closing tag. */
  end: number;
}

/**
 * Something in the message that is not a valid ref: an invalid or missing id, an unclosed tag, a stray `</ref>`,
 * a tag in upper case, a ref left out because refs nested too deep would hold too much text.
 */
export interface RefDiagnostic {
  message: string;
  /** Offset of the tag the diagnostic is about (for a ref left out, its closing tag). */
  offset: number;
}

export interface ExtractResult {
  /** Every valid ref, inner and outer, in the order of their opening tags. */
  refs: ExtractedRef[];
  /** In order of offset. */
  diagnostics: RefDiagnostic[];
}

/**
 * What a streaming parser reports while a message arrives, so a UI can show a ref opening, growing and closing.
 * `index` numbers opening tags in the message (0, 1, 2, ...), valid or not, so events of one tag can be matched.
 */
export type RefEvent =
  | { type: 'open'; index: number; id: string | undefined; offset: number }
  | { type: 'text'; index: number; text: string }
  | { type: 'close'; index: number; ref: ExtractedRef | undefined; offset: number }
  | { type: 'diagnostic'; diagnostic: RefDiagnostic };
