import * as z from 'zod';
import { ENTITY_TYPES, type EntityType } from './entityTypes';
import { type WalkPosition, type WalkRules, formatFieldPath, walkEntityIds, walkRulesFrom } from './entityIdWalk';
import type { EntityResolver } from './entityResolver';
import { type ReferencedEntity, defineField } from './entityResponse';

/** Options of {@link addReferences}, named as the model-facing tools name them. */
export interface AddReferencesOptions {
  /** `false` (default): none; `true` or `'all'`: every ID; `'primary'`: owner, guildId, planetId, ... only. */
  include_references?: boolean | 'all' | 'primary';
  /** 1 (default): the payload's IDs; 2: also the IDs in those entities. Clamped to 0-2. */
  reference_depth?: number;
  /** Only these types, at every depth. */
  reference_types?: EntityType[];
  /** Most entities requested in total, both depths together (default 50). */
  max_references?: number;
  /** Most references each list item, and each depth-1 entity, contributes (default 5). */
  max_references_per_entity?: number;
  /** Leave failed lookups (not found ones included) out instead of listing them with their error. */
  omit_failed?: boolean;
  /** An ID never to reference, typically the entity the payload describes. */
  exclude_id?: string;
  /** Stops the work; the returned promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** One entry of the `references` map: the entity (or its failure) and where it was referenced. */
export type ReferenceEntry = ReferencedEntity & {
  /** Field path where the ID was first seen: `Player.guildId` at depth 1, `owner` inside a depth-1 entity. */
  readonly referenced_from: string;
  /** ID of the entity the reference was found in, when it was inside one. */
  readonly referenced_in?: string;
};

const nonNegativeWholeNumber = (name: string) =>
  z
    .number({ error: `${name} must be a number` })
    .int({ error: `${name} must be a whole number` })
    .min(0, { error: `${name} must be 0 or more` });

const optionsSchema = z.strictObject({
  include_references: z
    .union([z.boolean(), z.enum(['all', 'primary'])], {
      error: 'include_references must be true, false, "all" or "primary"',
    })
    .optional(),
  reference_depth: z
    .number({ error: 'reference_depth must be a number' })
    .int({ error: 'reference_depth must be a whole number' })
    .optional(),
  reference_types: z
    .array(
      z.enum(ENTITY_TYPES as [EntityType, ...EntityType[]], {
        error: (issue) => `unknown entity type ${JSON.stringify(issue.input)}`,
      }),
    )
    .optional(),
  max_references: nonNegativeWholeNumber('max_references').optional(),
  max_references_per_entity: nonNegativeWholeNumber('max_references_per_entity').optional(),
  omit_failed: z.boolean({ error: 'omit_failed must be true or false' }).optional(),
  exclude_id: z.string({ error: 'exclude_id must be a string' }).optional(),
  signal: z.instanceof(AbortSignal, { error: 'signal must be an AbortSignal' }).optional(),
});

/** An ID picked for resolution, with where it was first seen. */
interface Pick {
  id: string;
  from: string;
  in: string | undefined;
}

/**
 * The payload with a root-level `references` map (`{ [id]: entry }`) of the entities it mentions,
 * resolved through `resolver`; a new object, the input untouched. With `include_references` false
 * (the default) the payload itself is returned.
 *
 * Promises: never more than `max_references` entities requested in total, counted as requests are
 * issued, one budget for both depths; at most `max_references_per_entity` references from each list
 * item (the outermost objects in an array) and from each depth-1 entity; each ID once (cycles are
 * harmless), the payload's own ID (`exclude_id`, or a single-entity response's `id`) never;
 * `reference_types` applied at every depth; failures (`not_found` or `failed`) listed with their error
 * unless `omit_failed`; every field of a resolved entity kept, its own `status` included.
 * Depth-1 IDs are resolved concurrently, then depth 2 from the successful depth-1 entities.
 * Throws a TypeError for bad options, or when references are asked for on a payload that is not an
 * object; rejects with the signal's reason when `signal` aborts.
 */
export async function addReferences(
  payload: unknown,
  resolver: EntityResolver,
  options: AddReferencesOptions = {},
): Promise<unknown> {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success)
    throw new TypeError(`addReferences: ${parsed.error.issues.map((issue) => issue.message).join('; ')}`);
  const settings = parsed.data;
  const include = settings.include_references ?? false;
  if (include === false) return payload;
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) {
    throw new TypeError('addReferences: references can only be added to a JSON object payload');
  }
  const depth = Math.min(2, Math.max(0, settings.reference_depth ?? 1));
  const perEntity = settings.max_references_per_entity ?? 5;
  const signal = settings.signal;
  signal?.throwIfAborted();

  const rootRules = walkRulesFrom(payload, {
    mode: include === 'primary' ? 'primary' : 'all',
    types: settings.reference_types,
    excludeId: settings.exclude_id,
  });
  const picked = new Set<string>();
  const budget = { left: settings.max_references ?? 50 };
  const entries: ReferenceEntry[] = [];

  if (depth >= 1) {
    // Depth 1: only list items are capped per entity; a single entity's fields all count.
    const firstLevel = pickIds(
      payload,
      rootRules,
      picked,
      budget,
      perEntity,
      (position) => position.listItem,
      () => undefined,
    );
    const resolved = await Promise.all(firstLevel.map((pick) => resolver.resolve(pick.id, signal ? { signal } : {})));
    resolved.forEach((entity, i) => entries.push(entryOf(entity, firstLevel[i] as Pick)));

    if (depth >= 2) {
      const secondLevel: Pick[] = [];
      for (const entity of resolved) {
        if (entity.reference_status !== 'resolved' || budget.left === 0) continue;
        const rules: WalkRules = { ...rootRules, excludedIds: new Set([...rootRules.excludedIds, entity.id]) };
        // Each depth-1 entity is one contributor, whatever lists it holds.
        secondLevel.push(
          ...pickIds(
            entity,
            rules,
            picked,
            budget,
            perEntity,
            () => 0,
            () => entity.id,
          ),
        );
      }
      const resolvedSecond = await Promise.all(
        secondLevel.map((pick) => resolver.resolve(pick.id, signal ? { signal } : {})),
      );
      resolvedSecond.forEach((entity, i) => entries.push(entryOf(entity, secondLevel[i] as Pick)));
    }
  }

  const references: Record<string, ReferenceEntry> = {};
  for (const entry of entries) {
    if (settings.omit_failed === true && entry.reference_status !== 'resolved') continue;
    references[entry.id] = entry;
  }
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(payload)) if (key !== 'references') result[key] = value;
  result['references'] = references;
  return result;
}

/**
 * The IDs of `value` not yet picked, in document order, within the budget and within `perEntity`
 * for each contributor (`contributorOf` gives -1 for "no per-entity cap").
 */
function pickIds(
  value: unknown,
  rules: WalkRules,
  picked: Set<string>,
  budget: { left: number },
  perEntity: number,
  contributorOf: (position: WalkPosition) => number,
  fallbackReferencedIn: () => string | undefined,
): Pick[] {
  const picks: Pick[] = [];
  const contributed = new Map<number, number>();
  walkEntityIds(value, rules, (id, _type, position) => {
    if (budget.left === 0 || picked.has(id)) return;
    const contributor = contributorOf(position);
    if (contributor >= 0) {
      const count = contributed.get(contributor) ?? 0;
      if (count >= perEntity) return;
      contributed.set(contributor, count + 1);
    }
    picked.add(id);
    budget.left--;
    picks.push({
      id,
      from: formatFieldPath(position.segments),
      in: position.enclosingEntityId ?? fallbackReferencedIn(),
    });
  });
  return picks;
}

/** The entry: the resolution fields, a failure's error, where it was referenced, then every field of the entity. */
function entryOf(entity: ReferencedEntity, pick: Pick): ReferenceEntry {
  const { reference_type, id, reference_status, ...fields } = entity as ReferencedEntity & Record<string, unknown>;
  const entry: Record<string, unknown> = { reference_type, id, reference_status };
  if (entity.reference_status !== 'resolved') entry['error'] = entity.error;
  entry['referenced_from'] = pick.from;
  if (pick.in !== undefined) entry['referenced_in'] = pick.in;
  for (const [field, value] of Object.entries(fields))
    if (!Object.hasOwn(entry, field)) defineField(entry, field, value);
  return entry as ReferenceEntry;
}
