import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type DataSetOptions,
  type EntityResponse,
  type ServedKind,
  type StructsDataSet,
  SERVED_KINDS,
  entityOf,
  generateDataSet,
  responseKeyOf,
} from './dataSet';

/**
 * A loopback HTTP server that speaks the Structs consensus API over a generated world, with knobs
 * for the failures a real node shows and counters the tests read. It answers as structsd behind
 * Cosmos SDK v0.53's gRPC gateway does:
 *
 *   GET /structs/{kind}/{id}                                   one entity, or for an id it lacks (of any
 *                                                              kind) HTTP 500 with {@link NOT_FOUND_BODY}
 *   GET /structs/{kind}?pagination.key=&pagination.limit=      a page of entities; a bad parameter is 400, code 3
 *   anything else                                              501, code 12
 */

/**
 * structsd's answer for an id it does not have (keeper `ErrObjectNotFound`, registered as code 1050,
 * which the gateway sends as gRPC Unknown), with HTTP 500.
 */
export const NOT_FOUND_STATUS = 500;
export const NOT_FOUND_BODY = {
  code: 2,
  message: 'codespace structs code 1050: object not found',
  details: [],
} as const;

/** An answer given as is: status, raw body, extra headers. */
export interface ScriptedAnswer {
  status: number;
  body: string;
  headers?: http.OutgoingHttpHeaders;
}

/** Failure and timing knobs; set them on `api.knobs` before a test, `resetKnobs()` after. */
export interface EmulatorKnobs {
  /** Delay before every answer, in ms. */
  latencyMs: number;
  /** IDs that answer as a real node answers an id it lacks (HTTP 500, {@link NOT_FOUND_BODY}). */
  notFound: Set<string>;
  /** IDs answered with exactly this, before any other knob. */
  scripted: Map<string, ScriptedAnswer>;
  /** IDs that answer 500. */
  serverError: Set<string>;
  /** IDs that answer `status` (429 by default) with `Retry-After` for their next `times` requests. */
  rateLimited: Map<string, { times: number; retryAfter?: string; status?: 429 | 503 }>;
  /** IDs whose answer takes this many ms instead of `latencyMs`. */
  slow: Map<string, number>;
  /** IDs that answer 200 with a body that is not JSON. */
  malformedJson: Set<string>;
  /** IDs that answer 200 with JSON of the wrong shape. */
  wrongShape: Set<string>;
}

/** What the server has seen since the last `resetStats()`. */
export interface EmulatorStats {
  /** Requests received. */
  total: number;
  /** Requests being answered right now. */
  inFlight: number;
  /** The most requests ever in flight at once. */
  maxInFlight: number;
  /** Requests per entity ID (single-entity requests only). */
  perId: Map<string, number>;
}

/** Options of {@link StructsApiEmulator.start}. */
export interface EmulatorOptions extends DataSetOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** Initial `knobs.latencyMs` (default 0). */
  latencyMs?: number;
}

const DEFAULT_PAGE_LIMIT = 100;

/** The emulator; start it with {@link StructsApiEmulator.start}, stop it with `close()`. */
export class StructsApiEmulator {
  readonly knobs: EmulatorKnobs;
  readonly stats: EmulatorStats = { total: 0, inFlight: 0, maxInFlight: 0, perId: new Map() };

  private constructor(
    private readonly server: http.Server,
    readonly baseUrl: string,
    readonly data: StructsDataSet,
    private readonly initialLatencyMs: number,
  ) {
    this.knobs = StructsApiEmulator.defaultKnobs(initialLatencyMs);
  }

  /** Generates the world and listens; resolves once requests can be made to `baseUrl`. */
  static async start(options: EmulatorOptions = {}): Promise<StructsApiEmulator> {
    const data = generateDataSet(options);
    const server = http.createServer();
    server.keepAliveTimeout = 30_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const address = server.address() as AddressInfo;
    const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    const emulator = new StructsApiEmulator(server, `http://${host}:${address.port}`, data, options.latencyMs ?? 0);
    server.on('request', (request, response) => emulator.handle(request, response));
    return emulator;
  }

  private static defaultKnobs(latencyMs: number): EmulatorKnobs {
    return {
      latencyMs,
      notFound: new Set(),
      scripted: new Map(),
      serverError: new Set(),
      rateLimited: new Map(),
      slow: new Map(),
      malformedJson: new Set(),
      wrongShape: new Set(),
    };
  }

  /** The IDs of one kind, in index order. */
  idsOf(kind: ServedKind): readonly string[] {
    return this.data.idsByKind.get(kind) ?? [];
  }

  /** The response body the API gives for `id`, or undefined for an unknown ID. */
  responseFor(id: string): EntityResponse | undefined {
    return this.data.responses.get(id);
  }

  /** Requests seen for `id`. */
  requestsFor(id: string): number {
    return this.stats.perId.get(id) ?? 0;
  }

  /** Zeroes the counters (requests still being answered stay counted in `inFlight`). */
  resetStats(): void {
    this.stats.total = 0;
    this.stats.maxInFlight = this.stats.inFlight;
    this.stats.perId.clear();
  }

  /** Puts every knob back to its starting value. */
  resetKnobs(): void {
    Object.assign(this.knobs, StructsApiEmulator.defaultKnobs(this.initialLatencyMs));
  }

  /** Stops listening and drops open connections. */
  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
  }

  private handle(request: http.IncomingMessage, response: http.ServerResponse): void {
    this.stats.total++;
    this.stats.inFlight++;
    this.stats.maxInFlight = Math.max(this.stats.maxInFlight, this.stats.inFlight);
    let timer: NodeJS.Timeout | undefined;
    response.once('close', () => {
      this.stats.inFlight--;
      if (timer !== undefined) clearTimeout(timer);
    });

    const url = new URL(request.url ?? '/', 'http://emulator');
    const parts = url.pathname.split('/').filter((part) => part !== '');
    const kind = parts[1] as ServedKind;
    let delayMs = this.knobs.latencyMs;
    let answer: () => void;
    if (request.method !== 'GET' || parts[0] !== 'structs' || !SERVED_KINDS.includes(kind) || parts.length > 3) {
      answer = () => sendJson(response, 501, { code: 12, message: 'Not Implemented', details: [] });
    } else if (parts.length === 2) {
      answer = () => this.answerList(response, kind, url.searchParams);
    } else {
      const id = decodeURIComponent(parts[2] ?? '');
      this.stats.perId.set(id, (this.stats.perId.get(id) ?? 0) + 1);
      delayMs = this.knobs.slow.get(id) ?? delayMs;
      answer = () => this.answerEntity(response, kind, id);
    }
    if (delayMs > 0) timer = setTimeout(answer, delayMs);
    else answer();
  }

  private answerEntity(response: http.ServerResponse, kind: ServedKind, id: string): void {
    const scripted = this.knobs.scripted.get(id);
    if (scripted !== undefined) {
      if (response.destroyed) return;
      response.writeHead(scripted.status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(scripted.body),
        ...scripted.headers,
      });
      response.end(scripted.body);
      return;
    }
    const limited = this.knobs.rateLimited.get(id);
    if (limited !== undefined && limited.times > 0) {
      limited.times--;
      const status = limited.status ?? 429;
      const headers: http.OutgoingHttpHeaders =
        limited.retryAfter === undefined ? {} : { 'retry-after': limited.retryAfter };
      sendJson(
        response,
        status,
        { code: 8, message: status === 429 ? 'rate limit exceeded' : 'service unavailable', details: [] },
        headers,
      );
      return;
    }
    if (this.knobs.serverError.has(id)) {
      sendJson(response, 500, { code: 13, message: 'internal error', details: [] });
      return;
    }
    const body = this.data.responses.get(id);
    // The keeper looks the id up in the store of the kind asked for: another kind's id is not there.
    if (body === undefined || this.knobs.notFound.has(id) || entityOf(body, kind) === undefined) {
      sendJson(response, NOT_FOUND_STATUS, NOT_FOUND_BODY);
      return;
    }
    if (this.knobs.malformedJson.has(id)) {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body).slice(0, 40));
      return;
    }
    if (this.knobs.wrongShape.has(id)) {
      sendJson(response, 200, { result: [id] });
      return;
    }
    sendJson(response, 200, body);
  }

  private answerList(response: http.ServerResponse, kind: ServedKind, query: URLSearchParams): void {
    const ids = this.idsOf(kind);
    const key = query.get('pagination.key') ?? '';
    const offset = key === '' ? 0 : Number(Buffer.from(key, 'base64').toString('utf8'));
    const limitText = query.get('pagination.limit') ?? '';
    const limit = limitText === '' ? DEFAULT_PAGE_LIMIT : Number(limitText);
    if (!Number.isInteger(offset) || offset < 0 || !Number.isInteger(limit) || limit < 1) {
      sendJson(response, 400, { code: 3, message: 'invalid pagination', details: [] });
      return;
    }
    const page = ids.slice(offset, offset + limit).map((id) => entityOf(this.data.responses.get(id), kind));
    const next = offset + limit < ids.length ? Buffer.from(String(offset + limit)).toString('base64') : null;
    sendJson(response, 200, { [responseKeyOf(kind)]: page, pagination: { next_key: next, total: String(ids.length) } });
  }
}

function sendJson(
  response: http.ServerResponse,
  status: number,
  body: unknown,
  headers: http.OutgoingHttpHeaders = {},
): void {
  if (response.destroyed) return;
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
