import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { anthropicProtocol } from './anthropicProtocol';
import { EventStreamWriter } from './eventStream';
import { geminiProtocol } from './geminiProtocol';
import { openaiProtocol } from './openaiProtocol';
import { responsesProtocol } from './responsesProtocol';
import { scriptedReply } from './scenarios';
import type { ProtocolName, WireProtocol } from './wireProtocol';

/**
 * A loopback HTTP server that speaks the real streaming wire protocols of Anthropic's Messages API, OpenAI's
 * Chat Completions and Responses APIs and Gemini's generateContent, so the official SDKs and the agents work
 * against it unchanged, and answers with scripted conversations (see `scenarios.ts` and README.md).
 *
 *   POST {url}/anthropic/v1/messages          GET {url}/anthropic/v1/models
 *   POST {url}/openai/v1/chat/completions     GET {url}/openai/v1/models
 *   POST {url}/openai/v1/responses
 *   POST {url}/gemini/v1beta/models/MODEL:streamGenerateContent?alt=sse  (and :generateContent, :countTokens)
 *   GET  {url}/gemini/v1beta/models           (also without the /gemini prefix)
 *   GET  {url}/__requests                     DELETE {url}/__requests      (the request log, for other processes)
 *   POST {url}/anthropic/v1/messages/count_tokens                          HEAD/GET {url}/   (what Claude Code also asks)
 *
 * Any other route gets the provider's 404 and a line on stderr naming it, so a client asking for something new shows.
 */

/** Options of {@link startModelEndpoint}. */
export interface ModelEndpointOptions {
  /** Port to listen on; 0 (default) picks a free one. */
  port?: number;
  /** Interface to listen on (default `127.0.0.1`). */
  host?: string;
  /** When set, requests must carry this key (`x-api-key`, or `Authorization: Bearer`); others get a 401. */
  apiKey?: string;
  /** Delay between the chunks of every scripted stream, in ms (default 0); `slow` keeps its own 100 ms. */
  chunkDelayMs?: number;
}

/** A request as the endpoint received it, with the values of key headers blanked out. */
export interface RecordedRequest {
  protocol: ProtocolName;
  method: string;
  /** Path and query, e.g. `/anthropic/v1/messages`. */
  path: string;
  /** Lower-case names; `x-api-key` and `authorization` hold `[redacted]`. */
  headers: Record<string, string>;
  /** The parsed JSON body; the raw text when it is not JSON; null without a body (so the HTTP log is the same). */
  body: unknown;
}

export interface ModelEndpoint {
  /** `http://127.0.0.1:PORT` */
  readonly url: string;
  /** What the Anthropic SDK takes as `baseURL`: `{url}/anthropic`. */
  readonly anthropicBaseUrl: string;
  /** What the OpenAI SDK takes as `baseURL`: `{url}/openai/v1` (Chat Completions and Responses). */
  readonly openaiBaseUrl: string;
  /** What Gemini's SDK takes as its base URL (`GOOGLE_GEMINI_BASE_URL`): `{url}/gemini`. */
  readonly geminiBaseUrl: string;
  /** Every request to any of the APIs, oldest first. */
  readonly requests: RecordedRequest[];
  clearRequests(): void;
  /** Ends open streams, drops connections and frees the port. */
  close(): Promise<void>;
}

const REDACTED_HEADERS = new Set(['x-api-key', 'authorization', 'api-key']);
/** Larger request bodies get a 413, as from the real APIs. */
const MAX_BODY_BYTES = 32 * 1024 * 1024;

/** Starts the endpoint; resolves once requests can be made. */
export async function startModelEndpoint(options: ModelEndpointOptions = {}): Promise<ModelEndpoint> {
  const server = http.createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${host}:${address.port}`;

  const requests: RecordedRequest[] = [];
  /** Aborted by `close()`, which stops every stream and pause at once. */
  const closing = new AbortController();
  let idCounter = 0;
  const newId = (prefix: string): string => `${prefix}${(++idCounter).toString().padStart(6, '0')}`;

  server.on('request', (request: http.IncomingMessage, response: http.ServerResponse) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent)
        sendJson(response, { status: 500, body: { error: { message: String(error), type: 'emulator_error' } } });
      else response.destroy();
    });
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const method = request.method ?? 'GET';
    const path = request.url ?? '/';
    const pathname = new URL(path, url).pathname;
    const text = await readBody(request);

    if (pathname === '/__requests') {
      if (method === 'GET') sendJson(response, { status: 200, body: requests });
      else if (method === 'DELETE') {
        requests.length = 0;
        response.writeHead(204).end();
      } else sendJson(response, { status: 405, body: { error: 'GET or DELETE' } });
      return;
    }

    if (pathname === '/' && (method === 'HEAD' || method === 'GET')) {
      response.writeHead(200, { 'content-length': 0 }).end();
      return;
    }
    const found = protocolOf(pathname);
    if (found === undefined) {
      unknownRoute(method, path);
      sendJson(response, {
        status: 404,
        body: { error: `Nothing here. Use ${url}/anthropic, ${url}/openai/v1 or ${url}/gemini.` },
      });
      return;
    }
    const { protocol, rest } = found;
    const body = parseJson(text);
    requests.push({
      protocol: protocol.name,
      method,
      path,
      headers: recordedHeaders(request),
      body: body.ok ? body.value : text === undefined ? null : text.toString('utf8'),
    });

    if (options.apiKey !== undefined && protocol.keyOf(request) !== options.apiKey) {
      sendJson(response, protocol.wrongKey());
      return;
    }
    const kind = protocol.route(method, rest);
    if (kind === 'models') {
      sendJson(response, { status: 200, body: protocol.modelList() });
      return;
    }
    if (kind === 'countTokens' && protocol.countTokens !== undefined) {
      sendJson(response, { status: 200, body: protocol.countTokens(text?.length ?? 0) });
      return;
    }
    if (kind !== 'generate') {
      unknownRoute(method, path);
      sendJson(response, protocol.notFound(method, rest));
      return;
    }
    if (text === undefined) {
      sendJson(response, protocol.invalidBody('The request has no body.'));
      return;
    }
    if (text.length > MAX_BODY_BYTES) {
      sendJson(response, {
        ...protocol.invalidBody('Request exceeds the maximum allowed number of bytes.'),
        status: 413,
      });
      return;
    }
    if (!body.ok) {
      sendJson(
        response,
        protocol.invalidBody('There was an error parsing the body of your request: it is not valid JSON.'),
      );
      return;
    }
    const parsed = protocol.parse(body.value, request);
    if (!parsed.ok) {
      sendJson(response, parsed.error);
      return;
    }
    const reply = scriptedReply(parsed.request.turns, parsed.request.toolNames);
    if (reply.kind === 'error') {
      sendJson(response, protocol.scriptedError(reply.failure, parsed.request.model, reply.flat === true));
      return;
    }
    // One signal per stream: aborted when the client goes away or the endpoint closes.
    const stream = new AbortController();
    const stop = (): void => stream.abort();
    closing.signal.addEventListener('abort', stop, { once: true });
    response.once('close', stop);
    try {
      await protocol.stream(new EventStreamWriter(response, stream.signal), reply, parsed.request, {
        chunkDelayMs: options.chunkDelayMs ?? 0,
        newId,
      });
    } finally {
      closing.signal.removeEventListener('abort', stop);
    }
  }

  return {
    url,
    anthropicBaseUrl: `${url}/anthropic`,
    openaiBaseUrl: `${url}/openai/v1`,
    geminiBaseUrl: `${url}/gemini`,
    requests,
    clearRequests: () => {
      requests.length = 0;
    },
    close: async () => {
      closing.abort();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}

/**
 * The protocol a path belongs to and the path after its prefix: `/anthropic/...`, `/openai/v1/responses` (the
 * Responses API), `/openai/...` (Chat Completions), `/gemini/...`, or `/v1beta/...` (Gemini without a prefix).
 */
function protocolOf(pathname: string): { protocol: WireProtocol; rest: string } | undefined {
  const [, prefix = '', ...parts] = pathname.split('/');
  const rest = `/${parts.join('/')}`;
  if (prefix === 'anthropic') return { protocol: anthropicProtocol, rest };
  if (prefix === 'openai') return { protocol: rest === '/v1/responses' ? responsesProtocol : openaiProtocol, rest };
  if (prefix === 'gemini') return { protocol: geminiProtocol, rest };
  if (prefix === 'v1beta') return { protocol: geminiProtocol, rest: pathname };
  return undefined;
}

function unknownRoute(method: string, path: string): void {
  process.stderr.write(`[model endpoint] no route for ${method} ${path}: answered 404\n`);
}

/** The body, or undefined when there is none; a body over the limit is cut there (and refused). */
async function readBody(request: http.IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size <= MAX_BODY_BYTES + 1) chunks.push(buffer);
  }
  return size === 0 ? undefined : Buffer.concat(chunks);
}

function parseJson(text: Buffer | undefined): { ok: true; value: unknown } | { ok: false } {
  if (text === undefined) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(text.toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

function recordedHeaders(request: http.IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    headers[name] = REDACTED_HEADERS.has(name) ? '[redacted]' : Array.isArray(value) ? value.join(', ') : value;
  }
  return headers;
}

function sendJson(
  response: http.ServerResponse,
  reply: { readonly status: number; readonly body: unknown; readonly headers?: Readonly<Record<string, string>> },
): void {
  if (response.destroyed || response.headersSent) return;
  const text = JSON.stringify(reply.body);
  response.writeHead(reply.status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...reply.headers,
  });
  response.end(text);
}
