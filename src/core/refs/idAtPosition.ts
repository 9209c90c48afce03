import { DESCRIPTOR_ID_SOURCE, isDescriptorId } from '../ids';

/** A descriptor id written in text, such as `ref:parse_config`, `ref:x@2` or `fd:3`. */
export interface IdInText {
  readonly id: string;
  /** Offsets in the line: `start` is the `r` or `f`, `end` is just after the id. */
  readonly start: number;
  readonly end: number;
}

// A whole token: no id character just before it, and no letter, digit, `_`, `-` or `@` just after it.
const ID_IN_TEXT = new RegExp(`(?<![A-Za-z0-9_.-])${DESCRIPTOR_ID_SOURCE}(?![A-Za-z0-9_@-])`, 'g');

/**
 * The ids that the text at `offset` of `line` may mean, longest first. An id may end in `.` or `-`, but a
 * sentence like "see ref:x." usually means `ref:x`, so the shorter reading follows the written one.
 */
export function idsAtOffset(line: string, offset: number): IdInText[] {
  for (const match of line.matchAll(ID_IN_TEXT)) {
    const start = match.index;
    const end = start + match[0].length;
    if (offset < start || offset > end) continue;
    const found: IdInText[] = [{ id: match[0], start, end }];
    const trimmed = match[0].replace(/[.-]+$/, '');
    if (trimmed !== match[0] && isDescriptorId(trimmed))
      found.push({ id: trimmed, start, end: start + trimmed.length });
    return found;
  }
  return [];
}
