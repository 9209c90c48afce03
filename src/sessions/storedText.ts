import type { StoredContent } from '../core/store';
import { utf8Length } from '../core/quantities';

/** Characters read for a preview (a hover, a picker's line): enough for a screenful, never a whole large content. */
const PREVIEW_CHARS = 16 * 1024;

/**
 * The size of a stored content in UTF-8, as an `fdref:` file serves it: its size on disk when it is kept as
 * UTF-8 (nearly always), read and counted only for a text kept as UTF-16 (one with lone surrogates).
 */
export async function utf8Size(content: StoredContent): Promise<number> {
  return content.ref.enc === 'utf8' ? content.bytes : utf8Length(await content.text());
}

/** The start of a stored content, read by range: what previews show. */
export function previewText(content: StoredContent): Promise<string> {
  return content.slice(0, PREVIEW_CHARS);
}
