/** Structs entity types, and the type an entity ID names (`2-1` is planet 1; the ID grammar is in `core/ids.ts`). */
import { entityTypeCodeOfId } from '../ids';

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
const TYPES_WITH_ENDPOINT: ReadonlySet<EntityType> = new Set(
  ENTITY_TYPES.filter((type) => type !== 'infusion' && type !== 'address'),
);

/** Whether the Structs API has a `GET /structs/{type}/{id}` endpoint for this type. */
export function hasApiEndpoint(type: EntityType): boolean {
  return TYPES_WITH_ENDPOINT.has(type);
}

/** The key a single-entity API response wraps the entity under: `planet` -> `Planet`. */
export function responseKeyOf(type: EntityType): string {
  return type.charAt(0).toUpperCase() + type.slice(1);
}

/** The entity type of `value` when it is exactly an entity ID (see `core/ids.ts`), otherwise `undefined`. */
export function entityTypeOfId(value: string): EntityType | undefined {
  const code = entityTypeCodeOfId(value);
  return code === undefined ? undefined : ENTITY_TYPES[code];
}
