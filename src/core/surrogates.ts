/**
 * UTF-16 surrogate pairs, where text is cut: a page, a quoted prefix, a stored chunk must not end between the two
 * halves of one character. At the bottom of the core (it imports nothing), so the quoting of input
 * (`quoteInput.ts`) and the text model (`descriptors/`) both use it without depending on each other.
 */

/** Whether cutting `text` at `offset` would separate the two halves of a surrogate pair. */
export function splitsSurrogatePair(text: string, offset: number): boolean {
  return offset > 0 && isHighSurrogate(text.charCodeAt(offset - 1)) && isLowSurrogate(text.charCodeAt(offset));
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
