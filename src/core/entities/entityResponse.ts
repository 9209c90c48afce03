/**
 * What resolving an entity gives, and how a Structs API answer becomes it. The body is JSON: either the
 * entity under its type's key (`{"Planet":{...},"gridAttributes":{...}}`), flattened into one frozen
 * entity behind the resolution fields, or a gRPC status (`{"code":5,"message":"..."}`), which tells
 * whether the node has no such entity. A body of any other shape is a `ResolveFailure` saying how.
 */
import * as z from 'zod';
import { errorMessage } from '../errors';
import { type EntityType, responseKeyOf } from './entityTypes';
import { nestedTooDeep, nestingExceeds } from './jsonNesting';
import { ResolveFailure } from './resolveFailure';

/**
 * An entity fetched from the Structs API: how it was resolved, then every field of the entity as the
 * API sent it (its own `status` included), then the response's other sections.
 */
export interface ResolvedEntity {
  readonly reference_type: EntityType;
  readonly id: string;
  readonly reference_status: 'resolved';
  readonly [field: string]: unknown;
}

/** An entity that could not be fetched, with what really went wrong. */
export interface FailedEntity {
  /** `unknown` only when the ID itself is not an entity ID. */
  readonly reference_type: EntityType | 'unknown';
  readonly id: string;
  /** `not_found`: the node answered that it has no such entity; `failed`: anything else went wrong. */
  readonly reference_status: 'not_found' | 'failed';
  readonly error: string;
}

/** What resolving an entity ID gives: the entity, or the reason there is none. */
export type ReferencedEntity = ResolvedEntity | FailedEntity;

/**
 * The fields the resolver adds to every entity, which the entity's own data never overwrites. None of
 * them is a field of any Structs entity (`id` is, with the same value).
 */
export const RESOLUTION_FIELDS: readonly string[] = ['reference_type', 'id', 'reference_status'];

const RESERVED_FIELDS: ReadonlySet<string> = new Set(RESOLUTION_FIELDS);
/** gRPC codes that mean "no such entity": NotFound, and Unknown as structsd sends `ErrObjectNotFound`. */
const GRPC_NOT_FOUND = 5;
const GRPC_UNKNOWN = 2;

export function failed(type: EntityType | 'unknown', id: string, error: string): FailedEntity {
  return { reference_type: type, id, reference_status: 'failed', error };
}

export function notFound(type: EntityType, id: string, error: string): FailedEntity {
  return { reference_type: type, id, reference_status: 'not_found', error };
}

const entityObject = z.looseObject({ id: z.string() });
/** One response schema per type, built once: zod compiles a schema on first use, so reuse pays. */
const responseSchemas = new Map<EntityType, z.ZodType>();

function responseSchemaOf(type: EntityType): z.ZodType {
  let schema = responseSchemas.get(type);
  if (schema === undefined) {
    schema = z.looseObject({ [responseKeyOf(type)]: entityObject });
    responseSchemas.set(type, schema);
  }
  return schema;
}

/**
 * Unwraps `{"Planet":{...},"gridAttributes":{...}}` into one flat, frozen entity: the resolution
 * fields, every field of the entity, then the sibling sections (an entity field wins a name clash).
 */
export function entityFromResponse(type: EntityType, id: string, json: unknown): ResolvedEntity {
  if (nestingExceeds(json)) throw new ResolveFailure(nestedTooDeep('entity body').message);
  const typeKey = responseKeyOf(type);
  const parsed = responseSchemaOf(type).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'response' : issue.path.join('.');
    throw new ResolveFailure(
      `unexpected response shape from the Structs API: ${where}: ${issue?.message ?? 'invalid'}`,
    );
  }
  const response = parsed.data as Record<string, unknown>;
  const entity = response[typeKey] as Record<string, unknown>;
  if (entity['id'] !== id)
    throw new ResolveFailure(
      `unexpected response from the Structs API: asked for ${id}, got ${JSON.stringify(entity['id'])}`,
    );
  const result: Record<string, unknown> = { reference_type: type, id, reference_status: 'resolved' };
  for (const [field, value] of Object.entries(entity))
    if (!RESERVED_FIELDS.has(field)) defineField(result, field, value);
  for (const [section, value] of Object.entries(response)) {
    if (section !== typeKey && !Object.hasOwn(result, section)) defineField(result, section, value);
  }
  return deepFreeze(result) as ResolvedEntity;
}

/** Sets an own, enumerable field by definition, so a key such as `__proto__` from the API stays a plain field. */
export function defineField(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/** Freezes a value and everything in it; only called on values within the nesting limit. */
function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

export function parseJson(text: string): { ok: true; value: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: errorMessage(error) };
  }
}

/** A gRPC status body as the gateway sends errors: `{"code":2,"message":"...","details":[]}`. */
export interface GrpcStatus {
  readonly code: number;
  readonly message: string;
}

export function grpcStatusOf(json: unknown): GrpcStatus | undefined {
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return undefined;
  const { code, message } = json as Record<string, unknown>;
  return typeof code === 'number' && Number.isInteger(code) && typeof message === 'string'
    ? { code, message }
    : undefined;
}

/** gRPC NotFound, or Unknown carrying the keeper's `ErrObjectNotFound` ("codespace structs code 1050: object not found"). */
export function grpcSaysNotFound(status: GrpcStatus): boolean {
  return status.code === GRPC_NOT_FOUND || (status.code === GRPC_UNKNOWN && /object not found/i.test(status.message));
}
