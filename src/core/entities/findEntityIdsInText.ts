import { type EntityType, entityTypeOfId } from './entityTypes';

/** One entity ID in free text: `text.slice(start, end) === id`. */
export interface EntityIdInText {
  id: string;
  type: EntityType;
  start: number;
  end: number;
}

// A candidate is a whole token: not glued to a letter, digit, `_`, `-` or `.` before it (`v1-2`,
// `1.2-3`), nor to a letter, digit, `_` or `-` after it (`10-20-30`); a trailing `.` ends a sentence
// unless a letter or digit follows it (`2-1.5` is a number, `2-1.` an ID).
const CANDIDATE = /(?<![\p{L}\p{N}_.-])\d+-\d+(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}_])/gu;

/**
 * Every entity ID in `text` that stands as a whole token, in order, repeats included: `planet 2-1`,
 * `"2-1"`, `(2-1)`, `2-1,` and a sentence-ending `2-1.` count; dates (`2024-01-15`), ranges
 * (`10-20-30`), versions (`v1-2`), decimals (`1.2-3`, `2-1.5`), unknown type codes (`12-3`) and
 * leading zeros or index 0 (`02-3`, `2-0`) do not.
 */
export function findEntityIdsInText(text: string): EntityIdInText[] {
  const found: EntityIdInText[] = [];
  for (const match of text.matchAll(CANDIDATE)) {
    const id = match[0];
    const type = entityTypeOfId(id);
    if (type === undefined) continue;
    found.push({ id, type, start: match.index, end: match.index + id.length });
  }
  return found;
}
