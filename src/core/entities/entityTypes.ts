/**
 * Structs entity types and their IDs. An entity ID is `type-index`: a type code 0-11 and a 1-based
 * index, both written without leading zeros (`2-1` is planet 1; `02-1`, `2-01`, `2-0` and `12-3`
 * are not IDs).
 */

/** The twelve Structs entity types, named as a reference's `reference_type` names them. */
export type EntityType =
  | 'guild'
  | 'player'
  | 'planet'
  | 'reactor'
  | 'substation'
  | 'struct'
  | 'allocation'
  | 'infusion'
  | 'address'
  | 'fleet'
  | 'provider'
  | 'agreement';

/** Entity types by type code: `ENTITY_TYPES[2]` is `'planet'`. */
export const ENTITY_TYPES: readonly EntityType[] = [
  'guild',
  'player',
  'planet',
  'reactor',
  'substation',
  'struct',
  'allocation',
  'infusion',
  'address',
  'fleet',
  'provider',
  'agreement',
];

const ENTITY_TYPE_SET: ReadonlySet<string> = new Set(ENTITY_TYPES);

/** Whether `value` names an entity type (`'planet'`), so options from outside can be checked. */
export function isEntityType(value: unknown): value is EntityType {
  return typeof value === 'string' && ENTITY_TYPE_SET.has(value);
}

/**
 * Types the consensus API serves at `GET /structs/{type}/{id}`. Infusions and addresses have no
 * such endpoint today, so resolving them fails without a request.
 */
const TYPES_WITH_ENDPOINT: ReadonlySet<EntityType> = new Set(ENTITY_TYPES.filter((type) => type !== 'infusion' && type !== 'address'));

/** Whether the Structs API has a `GET /structs/{type}/{id}` endpoint for this type. */
export function hasApiEndpoint(type: EntityType): boolean {
  return TYPES_WITH_ENDPOINT.has(type);
}

/** The key a single-entity API response wraps the entity under: `planet` -> `Planet`. */
export function responseKeyOf(type: EntityType): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

const DIGIT_0 = 48;
const DIGIT_9 = 57;
const DASH = 45;

/**
 * The entity type of `value` when it is exactly an entity ID, otherwise `undefined`. No trimming:
 * `" 2-7 "` is not an ID. Written as a character scan because it runs on every string of a payload.
 */
export function entityTypeOfId(value: string): EntityType | undefined {
  const length = value.length;
  if (length < 3) return undefined;
  const first = value.charCodeAt(0);
  if (first < DIGIT_0 || first > DIGIT_9) return undefined;
  let code = first - DIGIT_0;
  let dash = 1;
  const second = value.charCodeAt(1);
  if (second !== DASH) {
    // Two-digit codes are 10 and 11 only.
    if (first !== DIGIT_0 + 1 || (second !== DIGIT_0 && second !== DIGIT_0 + 1)) return undefined;
    code = 10 + (second - DIGIT_0);
    dash = 2;
    if (value.charCodeAt(2) !== DASH) return undefined;
  }
  const indexStart = dash + 1;
  if (indexStart >= length) return undefined;
  const lead = value.charCodeAt(indexStart);
  if (lead <= DIGIT_0 || lead > DIGIT_9) return undefined; // no leading zero, index >= 1
  for (let i = indexStart + 1; i < length; i++) {
    const c = value.charCodeAt(i);
    if (c < DIGIT_0 || c > DIGIT_9) return undefined;
  }
  return ENTITY_TYPES[code];
}

/** Whether `value` is exactly an entity ID (see {@link entityTypeOfId}). */
export function isEntityId(value: unknown): value is string {
  return typeof value === 'string' && entityTypeOfId(value) !== undefined;
}
