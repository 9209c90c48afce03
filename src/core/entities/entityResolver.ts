import PQueue from 'p-queue';
import { z } from 'zod';
import { type EntityType, entityTypeOfId, hasApiEndpoint, responseKeyOf } from './entityTypes';
import { LruCache } from './lruCache';

/** An entity fetched from the Structs API: its own fields, then the response's other sections. */
export interface ResolvedEntity {
  readonly reference_type: EntityType;
  readonly id: string;
  readonly status: 'success';
  readonly [field: string]: unknown;
}

/** An entity that could not be fetched, with what really went wrong. */
export interface FailedEntity {
  /** `unknown` only when the ID itself is not an entity ID. */
  readonly reference_type: EntityType | 'unknown';
  readonly id: string;
  readonly status: 'failed';
  readonly error: string;
}

/** What resolving an entity ID gives: the entity, or the reason there is none. */
export type ReferencedEntity = ResolvedEntity | FailedEntity;

/** Options of an {@link EntityResolver}. */
export interface EntityResolverOptions {
  /** The Structs consensus API, e.g. `http://localhost:1317`. */
  baseUrl: string;
  /** Most requests in flight at once, across all callers (default 5). */
  maxParallel?: number;
  /** Time limit of each HTTP request, body included (default 2000 ms). */
  timeoutMs?: number;
  /** How long a fetched entity is reused (default 30 s); 0 turns the cache off. */
  cacheTtlMs?: number;
  /** Most entities cached; the least recently used goes first (default 1000); 0 turns the cache off. */
  cacheSize?: number;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
}

/** Options of one {@link EntityResolver.resolve} call. */
export interface ResolveOptions {
  /** Stops this caller's wait; the request itself is cancelled once no caller waits for it. */
  signal?: AbortSignal;
  /** Skip the cache and ask the API again. */
  refresh?: boolean;
}

const MAX_ATTEMPTS = 3;
/** Longest pause before a retry, whatever `Retry-After` asks: a reference is not worth a long stall. */
const MAX_RETRY_WAIT_MS = 5000;
const FIRST_BACKOFF_MS = 200;
const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);
/** Fields of a resolved entity that the entity's own data may never overwrite. */
const RESERVED_FIELDS: ReadonlySet<string> = new Set(['reference_type', 'id', 'status']);

interface Flight {
  readonly promise: Promise<ReferencedEntity>;
  readonly controller: AbortController;
  waiting: number;
}

/** A request failure whose message is already the whole explanation. */
class ResolveFailure extends Error {}

/**
 * Fetches Structs entities by ID from the consensus API (`GET {baseUrl}/structs/{type}/{id}`).
 *
 * Promises: at most `maxParallel` requests in flight at any moment for all callers together; each
 * request aborted at `timeoutMs`; concurrent calls for one ID share one request; successes cached
 * by base URL and ID (TTL and least-recently-used eviction), failures never; HTTP 429 and 503
 * retried with exponential backoff that honours `Retry-After`, at most 3 attempts; every response
 * validated. `resolve` never rejects for a failed lookup (it returns a {@link FailedEntity}); it
 * rejects only when the caller's own signal aborts.
 */
export class EntityResolver {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly fetchImpl: typeof fetch;
  private readonly queue: PQueue;
  private readonly cache: LruCache<string, ResolvedEntity> | undefined;
  private readonly flights = new Map<string, Flight>();

  constructor(options: EntityResolverOptions) {
    this.baseUrl = normalizedBaseUrl(options.baseUrl);
    const maxParallel = options.maxParallel ?? 5;
    this.timeoutMs = options.timeoutMs ?? 2000;
    const cacheTtlMs = options.cacheTtlMs ?? 30_000;
    const cacheSize = options.cacheSize ?? 1000;
    if (!Number.isInteger(maxParallel) || maxParallel < 1) throw new RangeError(`maxParallel must be a whole number >= 1 (got ${maxParallel})`);
    if (!(this.timeoutMs > 0) || !Number.isFinite(this.timeoutMs)) throw new RangeError(`timeoutMs must be a positive number (got ${this.timeoutMs})`);
    if (!(cacheTtlMs >= 0)) throw new RangeError(`cacheTtlMs must be >= 0 (got ${cacheTtlMs})`);
    if (!Number.isInteger(cacheSize) || cacheSize < 0) throw new RangeError(`cacheSize must be a whole number >= 0 (got ${cacheSize})`);
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.queue = new PQueue({ concurrency: maxParallel });
    this.cache = cacheSize > 0 && cacheTtlMs > 0 ? new LruCache(cacheSize, cacheTtlMs) : undefined;
  }

  /**
   * The entity with this ID, from the cache or the API. The result is frozen (it may be shared with
   * the cache and other callers). An invalid ID, or a type the API has no endpoint for (infusion,
   * address), gives a failure without any request. Rejects only with the reason of `signal`.
   */
  resolve(id: string, options: ResolveOptions = {}): Promise<ReferencedEntity> {
    const { signal, refresh = false } = options;
    if (signal?.aborted === true) return Promise.reject(signal.reason);
    const type = typeof id === 'string' ? entityTypeOfId(id) : undefined;
    if (type === undefined) {
      return Promise.resolve(failed('unknown', String(id), `not an entity ID: ${JSON.stringify(id)} (expected type-index, e.g. "2-1")`));
    }
    if (!hasApiEndpoint(type)) return Promise.resolve(failed(type, id, `the Structs API has no endpoint for ${type} entities`));
    const key = `${this.baseUrl} ${id}`;
    if (!refresh) {
      const cached = this.cache?.get(key);
      if (cached !== undefined) return Promise.resolve(cached);
    }
    const flight = this.flights.get(key) ?? this.startFlight(key, type, id);
    return this.waitFor(flight, key, signal);
  }

  /** Forgets every cached entity. */
  clearCache(): void {
    this.cache?.clear();
  }

  private startFlight(key: string, type: EntityType, id: string): Flight {
    const controller = new AbortController();
    const promise = this.queue
      .add(() => this.fetchEntity(type, id, controller.signal), { signal: controller.signal, throwOnTimeout: true })
      .then(
        (entity): ReferencedEntity => {
          this.cache?.set(key, entity);
          return entity;
        },
        (error: unknown): ReferencedEntity => failed(type, id, describeError(error, this.baseUrl)),
      )
      .finally(() => {
        if (this.flights.get(key) === flight) this.flights.delete(key);
      });
    const flight: Flight = { promise, controller, waiting: 0 };
    this.flights.set(key, flight);
    return flight;
  }

  private waitFor(flight: Flight, key: string, signal: AbortSignal | undefined): Promise<ReferencedEntity> {
    flight.waiting++;
    if (signal === undefined) return flight.promise;
    return new Promise((resolve, reject) => {
      const stopWaiting = (): void => {
        flight.waiting--;
        if (flight.waiting === 0) {
          // Nobody wants the answer any more: drop the request (unsent if still queued) and let the
          // next caller start afresh rather than join a cancelled one.
          if (this.flights.get(key) === flight) this.flights.delete(key);
          flight.controller.abort(new ResolveFailure('cancelled: every caller stopped waiting'));
        }
        reject(signal.reason);
      };
      signal.addEventListener('abort', stopWaiting, { once: true });
      void flight.promise.then((entity) => {
        if (signal.aborted) return;
        signal.removeEventListener('abort', stopWaiting);
        resolve(entity);
      });
    });
  }

  /** One entity, with retries of 429 and 503; throws a {@link ResolveFailure} saying why not. */
  private async fetchEntity(type: EntityType, id: string, flightSignal: AbortSignal): Promise<ResolvedEntity> {
    const url = `${this.baseUrl}/structs/${type}/${encodeURIComponent(id)}`;
    for (let attempt = 1; ; attempt++) {
      const reply = await this.request(url, flightSignal);
      if (RETRIED_STATUSES.has(reply.status) && attempt < MAX_ATTEMPTS) {
        await pause(retryDelayMs(reply.retryAfter, attempt), flightSignal);
        continue;
      }
      if (reply.status < 200 || reply.status > 299) {
        const tries = RETRIED_STATUSES.has(reply.status) ? ` after ${attempt} attempts` : '';
        const detail = apiErrorMessage(reply.body);
        throw new ResolveFailure(`HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}${tries}${detail ? `: ${detail}` : ''}`);
      }
      let json: unknown;
      try {
        json = JSON.parse(reply.body);
      } catch (error) {
        throw new ResolveFailure(`malformed JSON from the Structs API: ${(error as Error).message}`);
      }
      return entityFromResponse(type, id, json);
    }
  }

  /** One HTTP exchange, body read included, under its own timeout. */
  private async request(url: string, flightSignal: AbortSignal): Promise<{ status: number; statusText: string; retryAfter: string | null; body: string }> {
    flightSignal.throwIfAborted();
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new ResolveFailure(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
    const forwardAbort = (): void => controller.abort(flightSignal.reason);
    flightSignal.addEventListener('abort', forwardAbort, { once: true });
    try {
      const response = await this.fetchImpl(url, { signal: controller.signal, headers: { accept: 'application/json' } });
      const body = await response.text();
      return { status: response.status, statusText: response.statusText, retryAfter: response.headers.get('retry-after'), body };
    } catch (error) {
      // The abort reason says why (timeout or cancellation) better than fetch's generic AbortError.
      if (controller.signal.aborted) throw controller.signal.reason;
      throw error;
    } finally {
      clearTimeout(timer);
      flightSignal.removeEventListener('abort', forwardAbort);
    }
  }
}

function failed(type: EntityType | 'unknown', id: string, error: string): FailedEntity {
  return { reference_type: type, id, status: 'failed', error };
}

function normalizedBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new TypeError(`baseUrl must be http or https (got ${JSON.stringify(baseUrl)})`);
  return url.href.replace(/\/+$/, '');
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

/** Unwraps `{"Planet":{...},"gridAttributes":{...}}` into one flat, frozen entity. */
function entityFromResponse(type: EntityType, id: string, json: unknown): ResolvedEntity {
  const typeKey = responseKeyOf(type);
  const parsed = responseSchemaOf(type).safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'response' : issue.path.join('.');
    throw new ResolveFailure(`unexpected response shape from the Structs API: ${where}: ${issue?.message ?? 'invalid'}`);
  }
  const response = parsed.data as Record<string, unknown>;
  const entity = response[typeKey] as Record<string, unknown>;
  if (entity['id'] !== id) throw new ResolveFailure(`unexpected response from the Structs API: asked for ${id}, got ${JSON.stringify(entity['id'])}`);
  const result: Record<string, unknown> = { reference_type: type, id, status: 'success' };
  for (const [field, value] of Object.entries(entity)) if (!RESERVED_FIELDS.has(field)) result[field] = value;
  // Sibling sections (gridAttributes, playerInventory, ...) keep their names; the entity's own fields win.
  for (const [section, value] of Object.entries(response)) {
    if (section !== typeKey && !RESERVED_FIELDS.has(section) && !(section in result)) result[section] = value;
  }
  return deepFreeze(result) as ResolvedEntity;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}

/** The `message` of a Cosmos-style error body (`{"code":5,"message":"not found"}`), if it has one. */
function apiErrorMessage(body: string): string | undefined {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === 'object' && parsed !== null) {
      const message = (parsed as Record<string, unknown>)['message'];
      if (typeof message === 'string' && message !== '') return message.slice(0, 300);
    }
  } catch {
    // Not JSON: the status line alone has to do.
  }
  return undefined;
}

/** `Retry-After` in seconds or as an HTTP date, else exponential backoff; never above the cap. */
export function retryDelayMs(retryAfter: string | null, attempt: number, now: number = Date.now()): number {
  let delay = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
  if (retryAfter !== null) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) delay = Number(trimmed) * 1000;
    else {
      const date = Date.parse(trimmed);
      if (!Number.isNaN(date)) delay = Math.max(0, date - now);
    }
  }
  return Math.min(delay, MAX_RETRY_WAIT_MS);
}

function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/** What went wrong, in words: the failure's own message, or what the network error really was. */
function describeError(error: unknown, baseUrl: string): string {
  if (error instanceof ResolveFailure) return error.message;
  if (error instanceof Error) {
    const cause = (error as Error & { cause?: unknown }).cause;
    const code = typeof cause === 'object' && cause !== null ? (cause as { code?: unknown }).code : undefined;
    switch (code) {
      case 'ECONNREFUSED':
        return `connection refused by ${baseUrl} (is the Structs API running?)`;
      case 'ENOTFOUND':
      case 'EAI_AGAIN':
        return `host not found: ${new URL(baseUrl).hostname}`;
      case 'ECONNRESET':
      case 'UND_ERR_SOCKET':
        return `connection to ${baseUrl} closed unexpectedly`;
      default: {
        const detail = cause instanceof Error ? cause.message : error.message;
        return `request to ${baseUrl} failed: ${detail}`;
      }
    }
  }
  return `request to ${baseUrl} failed: ${String(error)}`;
}
