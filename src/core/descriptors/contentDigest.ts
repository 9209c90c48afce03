import { createHash } from 'node:crypto';

/** How the store names a text: the hash of its bytes and the encoding they are in (see `docs/STORE.md`). */
export interface ContentDigest {
  /** The first 32 hex digits of the SHA-256 of the text's bytes in `enc`. */
  readonly h: string;
  readonly enc: 'utf8' | 'utf16le';
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The store's name for `text` (its content file is `<h>.txt`, or `<h>.u16` for UTF-16LE): UTF-8, or UTF-16LE when
 * the text holds a lone surrogate, which UTF-8 cannot encode. Equal names mean equal texts, so a new text is
 * compared with a stored one without reading its file. Linear in the text; meant for ref-sized texts.
 */
export function contentDigest(text: string): ContentDigest {
  const enc = LONE_SURROGATE.test(text) ? 'utf16le' : 'utf8';
  return { h: createHash('sha256').update(Buffer.from(text, enc)).digest('hex').slice(0, 32), enc };
}
