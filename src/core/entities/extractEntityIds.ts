import type { EntityType } from './entityTypes';
import { type ExtractionMode, formatFieldPath, walkEntityIds, walkRulesFrom } from './entityIdWalk';

/** Options of {@link extractEntityIds}. */
export interface ExtractEntityIdsOptions {
  /** An ID never to report, typically the ID of the entity the payload describes. */
  excludeId?: string;
  /** `all` (default) reports every ID; `primary` only owner, guildId, planetId, fleetId, ... */
  mode?: ExtractionMode;
  /** Report only IDs of these types. */
  types?: EntityType[];
}

/** One entity ID found in a payload. */
export interface ExtractedEntityId {
  id: string;
  type: EntityType;
  /** Path of the field where it was first seen, e.g. `Player.guildId` or `structs[2].owner`. */
  field: string;
}

/**
 * The entity IDs among the string values of a JSON payload, each once, in first-seen order.
 *
 * A value is an ID only when it is exactly `type-index` (no trimming, no leading zeros, type code
 * 0-11, index 1 or more). Object keys are never IDs. Skipped: a root `references` section; values
 * under `version`, `schema_version`, `api_version`, `coordinates`, `position`, `range`,
 * `timestamp`, `created_at`, `updated_at`, `pagination`, `next_key`, `total`; the value of any
 * `id` field (it names its own object); `excludeId`; and the own ID of a single-entity response
 * (`{"Player":{"id":"1-11",...}}` excludes `1-11`). Throws a TypeError on unknown options, and a
 * RangeError saying so for a payload nested deeper than `MAX_JSON_NESTING` (256) levels.
 */
export function extractEntityIds(payload: unknown, options: ExtractEntityIdsOptions = {}): ExtractedEntityId[] {
  const rules = walkRulesFrom(payload, options);
  const found: ExtractedEntityId[] = [];
  const seen = new Set<string>();
  walkEntityIds(payload, rules, (id, type, position) => {
    if (seen.has(id)) return;
    seen.add(id);
    found.push({ id, type, field: formatFieldPath(position.segments) });
  });
  return found;
}
