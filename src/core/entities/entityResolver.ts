import PQueue from 'p-queue';
import { type BoundedReply, type HttpGet, boundedGet } from './boundedGet';
import { type EntityType, entityTypeOfId, hasApiEndpoint } from './entityTypes';
import {
  type ReferencedEntity,
  type ResolvedEntity,
  entityFromResponse,
  failed,
  grpcSaysNotFound,
  grpcStatusOf,
  notFound,
  parseJson,
} from './entityResponse';
import { LruCache } from './lruCache';
import {
  NotFoundFailure,
  ResolveFailure,
  describeError,
  headerOf,
  messageOf,
  redirectMessage,
  transportFailure,
  truncated,
} from './resolveFailure';
import { MAX_ATTEMPTS, RETRIED_STATUSES, pause, retryDelayMs } from './retry';

export type { FailedEntity, ReferencedEntity, ResolvedEntity } from './entityResponse';
export { retryDelayMs } from './retry';

/** Options of an {@link EntityResolver}. */
export interface EntityResolverOptions {
  /** The Structs consensus API, e.g. `http://localhost:1317`. */
  baseUrl: string;
  /** Most requests in flight at once, across all callers (default 5). */
  maxParallel?: number;
  /**
   * Time limit of each HTTP request, body included (default 2000 ms). The request settles by then
   * whatever the HTTP stack does, so its place in the queue is always given back.
   */
  timeoutMs?: number;
  /** Most bytes of one response, read off the connection and after decompression alike (default 1 MiB). */
  maxResponseBytes?: number;
  /** How long a fetched entity is reused (default 30 s); 0 turns the cache off. */
  cacheTtlMs?: number;
  /** Most entities cached; the least recently used goes first (default 1000); 0 turns the cache off. */
  cacheSize?: number;
  /** Most bytes of response bodies the cache holds (default 16 MiB); the least recently used goes first. */
  cacheMaxBytes?: number;
  /** The HTTP GET to use (default {@link boundedGet}); tests stand in a stack that misbehaves. */
  transport?: HttpGet;
}

/** Options of one {@link EntityResolver.resolve} call. */
export interface ResolveOptions {
  /** Stops this caller's wait; the request itself is cancelled once no caller waits for it. */
  signal?: AbortSignal;
  /** Skip the cache and ask the API again. */
  refresh?: boolean;
}

const DEFAULT_MAX_RESPONSE_BYTES = 1024 * 1024;
const DEFAULT_CACHE_MAX_BYTES = 16 * 1024 * 1024;

interface Flight {
  readonly promise: Promise<ReferencedEntity>;
  readonly controller: AbortController;
  waiting: number;
}

/**
 * Fetches Structs entities by ID from the consensus API (`GET {baseUrl}/structs/{type}/{id}`).
 *
 * Promises: at most `maxParallel` requests in flight at any moment for all callers together; each
 * request settled at `timeoutMs` even when the HTTP stack never gives up, so the queue always moves;
 * at most `maxResponseBytes` read per response, compressed and decompressed; redirects never
 * followed; concurrent calls for one ID share one request; successes cached by base URL and ID (TTL,
 * least-recently-used eviction, a byte budget), failures never; HTTP 429 and 503 retried with
 * exponential backoff that honours `Retry-After`, at most 3 attempts; a gRPC "not found" body (code 5,
 * or code 2 with "object not found", as structsd sends with HTTP 500) at any HTTP status is a
 * `not_found` entity, never retried; every response validated, bodies nested too deep refused.
 * `resolve` never rejects for a failed lookup (it returns a {@link FailedEntity}); it rejects only
 * when the caller's own signal aborts.
 */
export class EntityResolver {
  private readonly baseUrl: string;
  private readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly transport: HttpGet;
  private readonly queue: PQueue;
  private readonly cache: LruCache<string, ResolvedEntity> | undefined;
  private readonly flights = new Map<string, Flight>();

  constructor(options: EntityResolverOptions) {
    this.baseUrl = normalizedBaseUrl(options.baseUrl);
    const maxParallel = options.maxParallel ?? 5;
    this.timeoutMs = options.timeoutMs ?? 2000;
    const cacheTtlMs = options.cacheTtlMs ?? 30_000;
    const cacheSize = options.cacheSize ?? 1000;
    const cacheMaxBytes = options.cacheMaxBytes ?? DEFAULT_CACHE_MAX_BYTES;
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    if (!Number.isInteger(maxParallel) || maxParallel < 1)
      throw new RangeError(`maxParallel must be a whole number >= 1 (got ${maxParallel})`);
    if (!(this.timeoutMs > 0) || !Number.isFinite(this.timeoutMs))
      throw new RangeError(`timeoutMs must be a positive number (got ${this.timeoutMs})`);
    if (!(cacheTtlMs >= 0)) throw new RangeError(`cacheTtlMs must be >= 0 (got ${cacheTtlMs})`);
    if (!Number.isInteger(cacheSize) || cacheSize < 0)
      throw new RangeError(`cacheSize must be a whole number >= 0 (got ${cacheSize})`);
    if (!(cacheMaxBytes >= 0)) throw new RangeError(`cacheMaxBytes must be >= 0 (got ${cacheMaxBytes})`);
    if (!Number.isInteger(this.maxResponseBytes) || this.maxResponseBytes < 1) {
      throw new RangeError(`maxResponseBytes must be a whole number >= 1 (got ${this.maxResponseBytes})`);
    }
    this.transport = options.transport ?? boundedGet;
    this.queue = new PQueue({ concurrency: maxParallel });
    this.cache =
      cacheSize > 0 && cacheTtlMs > 0 && cacheMaxBytes > 0
        ? new LruCache(cacheSize, cacheTtlMs, Date.now, cacheMaxBytes)
        : undefined;
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
      return Promise.resolve(
        failed('unknown', String(id), `not an entity ID: ${JSON.stringify(id)} (expected type-index, e.g. "2-1")`),
      );
    }
    if (!hasApiEndpoint(type))
      return Promise.resolve(failed(type, id, `the Structs API has no endpoint for ${type} entities`));
    const key = `${this.baseUrl} ${id}`;
    if (!refresh) {
      const cached = this.cache?.get(key);
      if (cached !== undefined) return Promise.resolve(cached);
    }
    const flight = this.flights.get(key) ?? this.startFlight(key, type, id);
    return this.waitFor(flight, key, signal);
  }

  private startFlight(key: string, type: EntityType, id: string): Flight {
    const controller = new AbortController();
    const promise = this.queue
      .add(() => this.fetchEntity(type, id, controller.signal), { signal: controller.signal, throwOnTimeout: true })
      .then(
        ({ entity, bytes }): ReferencedEntity => {
          this.cache?.set(key, entity, bytes);
          return entity;
        },
        (error: unknown): ReferencedEntity =>
          error instanceof NotFoundFailure ? notFound(type, id, error.message) : failed(type, id, describeError(error)),
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

  /** One entity and its body's size, with retries of 429 and 503; throws a {@link ResolveFailure} saying why not. */
  private async fetchEntity(
    type: EntityType,
    id: string,
    flightSignal: AbortSignal,
  ): Promise<{ entity: ResolvedEntity; bytes: number }> {
    const url = new URL(`${this.baseUrl}/structs/${type}/${encodeURIComponent(id)}`);
    for (let attempt = 1; ; attempt++) {
      const reply = await this.request(url, flightSignal);
      const json = parseJson(reply.body);
      const grpc = json.ok ? grpcStatusOf(json.value) : undefined;
      // structsd answers a missing id with HTTP 500; some nodes with 200. The body says what it is.
      if (grpc !== undefined && grpcSaysNotFound(grpc))
        throw new NotFoundFailure(`no ${type} ${id} on this Structs node (${truncated(grpc.message)})`);
      if (reply.status >= 300 && reply.status <= 399) throw new ResolveFailure(redirectMessage(reply));
      if (RETRIED_STATUSES.has(reply.status) && attempt < MAX_ATTEMPTS) {
        await pause(retryDelayMs(headerOf(reply.headers['retry-after']), attempt), flightSignal);
        continue;
      }
      if (reply.status < 200 || reply.status > 299) {
        const tries = RETRIED_STATUSES.has(reply.status) ? ` after ${attempt} attempts` : '';
        const detail = json.ok ? messageOf(json.value) : undefined;
        throw new ResolveFailure(
          `HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}${tries}${detail ? `: ${detail}` : ''}`,
        );
      }
      if (!json.ok) throw new ResolveFailure(`malformed JSON from the Structs API: ${json.error}`);
      if (grpc !== undefined && grpc.code !== 0) {
        throw new ResolveFailure(
          `the Structs API answered HTTP ${reply.status} with gRPC error ${grpc.code}: ${truncated(grpc.message)}`,
        );
      }
      return { entity: entityFromResponse(type, id, json.value), bytes: reply.bytes };
    }
  }

  /**
   * One HTTP exchange, body included. Settles by `timeoutMs` or the flight's cancellation on its own
   * timer and listener, not by waiting for the transport to give up (an HTTP stack can hang while it
   * decompresses an aborted body); the transport is aborted too, to free the connection.
   */
  private request(url: URL, flightSignal: AbortSignal): Promise<BoundedReply> {
    return new Promise((resolve, reject) => {
      if (flightSignal.aborted) {
        reject(flightSignal.reason);
        return;
      }
      const controller = new AbortController();
      const done = (): void => {
        clearTimeout(timer);
        flightSignal.removeEventListener('abort', onFlightAbort);
      };
      const stop = (reason: unknown): void => {
        done();
        controller.abort(reason);
        reject(reason);
      };
      const onFlightAbort = (): void => stop(flightSignal.reason);
      const timer = setTimeout(() => stop(new ResolveFailure(`timed out after ${this.timeoutMs} ms`)), this.timeoutMs);
      flightSignal.addEventListener('abort', onFlightAbort, { once: true });
      this.transport(url, {
        signal: controller.signal,
        maxBytes: this.maxResponseBytes,
        headers: { accept: 'application/json' },
      }).then(
        (reply) => {
          done();
          resolve(reply);
        },
        (error: unknown) => {
          done();
          reject(transportFailure(error, this.baseUrl));
        },
      );
    });
  }
}

function normalizedBaseUrl(baseUrl: string): string {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new TypeError(`baseUrl is not a URL: ${JSON.stringify(baseUrl)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new TypeError(`baseUrl must be http or https (got ${JSON.stringify(baseUrl)})`);
  return url.href.replace(/\/+$/, '');
}
