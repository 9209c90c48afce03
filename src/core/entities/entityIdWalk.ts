import { type EntityType, entityTypeOfId, isEntityType, responseKeyOf } from './entityTypes';
import { MAX_JSON_NESTING, nestedTooDeep } from './jsonNesting';

/**
 * The walk behind `extractEntityIds` and `addReferences`: every entity ID among a JSON payload's
 * string values, with where it sits. Shared so both apply the same rules on what counts.
 */

/** Fields whose values are never references: versions, geometry, times and paging. */
const NON_ENTITY_FIELDS: ReadonlySet<string> = new Set([
  'version',
  'schema_version',
  'api_version',
  'coordinates',
  'position',
  'range',
  'timestamp',
  'created_at',
  'updated_at',
  'pagination',
  'next_key',
  'total',
]);

/** The direct relationships `primary` mode keeps, in both spellings the API and tools use. */
const PRIMARY_FIELDS: ReadonlySet<string> = new Set([
  'owner',
  'guildId',
  'guild_id',
  'planetId',
  'planet_id',
  'fleetId',
  'fleet_id',
  'substationId',
  'substation_id',
  'reactorId',
  'reactor_id',
  'primaryReactorId',
  'primary_reactor_id',
  'entrySubstationId',
  'entry_substation_id',
]);

/** Which IDs to report: `all` of them, or only the `primary` relationships (owner, guildId, ...). */
export type ExtractionMode = 'all' | 'primary';

/** Rules for one walk; IDs in `excludedIds` and of types outside `types` are not reported. */
export interface WalkRules {
  mode: ExtractionMode;
  types: ReadonlySet<EntityType> | undefined;
  excludedIds: ReadonlySet<string>;
}

/** Where an ID was found, as the walk reports it. */
export interface WalkPosition {
  /** Path segments from the root: object keys and array indexes. */
  readonly segments: readonly (string | number)[];
  /**
   * Serial number of the list item the ID is in: the outermost object that is an element of an
   * array, counted in walk order; -1 outside any list item.
   */
  readonly listItem: number;
  /** ID of the nearest enclosing object that has an entity ID as its own `id`, if any. */
  readonly enclosingEntityId: string | undefined;
}

/** Checks caller-supplied extraction options and turns them into walk rules. */
export function walkRulesFrom(
  payload: unknown,
  options: {
    excludeId?: string | undefined;
    mode?: ExtractionMode | undefined;
    types?: readonly EntityType[] | undefined;
  },
): WalkRules {
  const mode = options.mode ?? 'all';
  if (mode !== 'all' && mode !== 'primary')
    throw new TypeError(`mode must be "all" or "primary" (got ${JSON.stringify(mode)})`);
  let types: Set<EntityType> | undefined;
  if (options.types !== undefined) {
    if (!Array.isArray(options.types)) throw new TypeError('types must be an array of entity types');
    for (const type of options.types) {
      if (!isEntityType(type)) throw new TypeError(`unknown entity type ${JSON.stringify(type)}`);
    }
    types = new Set(options.types);
  }
  if (options.excludeId !== undefined && typeof options.excludeId !== 'string')
    throw new TypeError('excludeId must be a string');
  const excludedIds = new Set(ownIdsOfSingleEntityResponse(payload));
  if (options.excludeId !== undefined) excludedIds.add(options.excludeId);
  return { mode, types, excludedIds };
}

/**
 * The own IDs of a single-entity response such as `{"Player":{"id":"1-11",...}}`: root sections
 * whose key is the type name of the `id` they hold. A response mentioning itself is not a reference.
 */
export function ownIdsOfSingleEntityResponse(payload: unknown): string[] {
  if (!isPlainObject(payload)) return [];
  const ids: string[] = [];
  for (const key of Object.keys(payload)) {
    const section = payload[key];
    if (!isPlainObject(section)) continue;
    const id = section['id'];
    if (typeof id !== 'string') continue;
    const type = entityTypeOfId(id);
    if (type !== undefined && responseKeyOf(type) === key) ids.push(id);
  }
  return ids;
}

/**
 * Calls `visit` for every entity ID among the string values of `payload`, in document order,
 * repeats included. Object keys are never IDs; a root `references` section, the values of
 * {@link NON_ENTITY_FIELDS} and the value of any `id` field are skipped; cyclic objects are
 * walked once per path. Throws a RangeError naming the limit (`JSON payload nested deeper than 256
 * levels`) on reaching an object or array nested deeper than {@link MAX_JSON_NESTING} levels.
 */
export function walkEntityIds(
  payload: unknown,
  rules: WalkRules,
  visit: (id: string, type: EntityType, position: WalkPosition) => void,
): void {
  const segments: (string | number)[] = [];
  const ancestors = new Set<object>();
  let listItems = 0;
  const position = {
    segments,
    listItem: -1,
    enclosingEntityId: undefined as string | undefined,
  };

  // `fieldName` is the nearest object key above the value (arrays are transparent to it), which is
  // what `primary` mode judges; `listItem` and `enclosingEntityId` are restored on the way back up.
  const walk = (value: unknown, fieldName: string | undefined, inArray: boolean): void => {
    if (typeof value === 'string') {
      const type = entityTypeOfId(value);
      if (type === undefined) return;
      if (rules.types !== undefined && !rules.types.has(type)) return;
      if (rules.mode === 'primary' && (fieldName === undefined || !PRIMARY_FIELDS.has(fieldName))) return;
      if (rules.excludedIds.has(value)) return;
      visit(value, type, position);
      return;
    }
    if (typeof value !== 'object' || value === null || ancestors.has(value)) return;
    if (segments.length >= MAX_JSON_NESTING) throw nestedTooDeep('JSON payload');
    ancestors.add(value);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++) {
        segments.push(i);
        walk(value[i], fieldName, true);
        segments.pop();
      }
    } else {
      const outerItem = position.listItem;
      const outerEntity = position.enclosingEntityId;
      if (inArray && outerItem === -1) position.listItem = listItems++;
      const object = value as Record<string, unknown>;
      const ownId = object['id'];
      if (typeof ownId === 'string' && entityTypeOfId(ownId) !== undefined) position.enclosingEntityId = ownId;
      const atRoot = segments.length === 0;
      for (const key of Object.keys(object)) {
        if (key === 'id' || NON_ENTITY_FIELDS.has(key) || (atRoot && key === 'references')) continue;
        segments.push(key);
        walk(object[key], key, false);
        segments.pop();
      }
      position.listItem = outerItem;
      position.enclosingEntityId = outerEntity;
    }
    ancestors.delete(value);
  };

  walk(payload, undefined, false);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/**
 * A field path as references report it: keys joined with dots and array indexes in brackets,
 * `Player.guildId`, `Planet.landSlots[2]`, `[0].owner` for a root array; a key that is not a plain
 * identifier is quoted, `["odd key"]`. The root itself is the empty string.
 */
export function formatFieldPath(segments: readonly (string | number)[]): string {
  let path = '';
  for (const segment of segments) {
    if (typeof segment === 'number') path += `[${segment}]`;
    else if (IDENTIFIER.test(segment)) path += path === '' ? segment : `.${segment}`;
    else path += `[${JSON.stringify(segment)}]`;
  }
  return path;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
