/**
 * Turns what the Anthropic and OpenAI SDKs throw (HTTP errors, connection failures, timeouts, aborts, a stream
 * that breaks off or cannot be parsed) into a `ModelError` whose message a person can act on: it names the
 * endpoint and says what to do. The provider's own words go to `detail`; the API key never appears in either.
 */
import { CONTEXT_TOO_LONG_MESSAGE, ModelError, type ModelErrorKind } from '../modelClient';
import {
  apiName,
  baseUrlHint,
  connectionLostMessage,
  duration,
  modelPhrase,
  quote,
  redact,
  unreachableMessage,
  where,
} from './endpointWords';
import type { EndpointContext } from './clientConfig';
import { abortedError, malformedStreamError } from './streamErrors';
import { anthropicSdk, openAiSdk } from './sdks';
import { errorMessage } from '../../errors';

/** The command that stores a key, as the user sees it in the palette. */
const SET_API_KEY_COMMAND = '“FD Refs: Set API Key…”';

/**
 * Describes anything the Anthropic SDK (or the stream loop around it) threw. Always returns a `ModelError`;
 * one that already is a `ModelError` is returned unchanged, and anything at all becomes `aborted` once
 * `signal` has aborted.
 */
export function modelErrorFromAnthropic(error: unknown, endpoint: EndpointContext, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  const sdk = anthropicSdk();
  if (signal?.aborted === true || error instanceof sdk.APIUserAbortError) return abortedError(endpoint, error);
  if (error instanceof sdk.APIConnectionTimeoutError) return timeoutError(endpoint, error);
  if (error instanceof sdk.APIConnectionError) return connectionFailure(endpoint, error);
  if (error instanceof sdk.APIError) {
    const body = asRecord(asRecord(error.error)?.['error']);
    return describeProviderFailure(
      {
        // The SDKs type an APIError's status and headers by generic parameters that default to `any`.
        status: error.status as number | undefined,
        type: error.type ?? stringField(body, 'type'),
        code: error.errorCode ?? undefined,
        param: undefined,
        reason: error.apiMessage ?? stringField(body, 'message') ?? plainSdkMessage(error),
        retryAfterSeconds: retryAfterSeconds(error.headers as Headers | undefined),
      },
      endpoint,
      error,
    );
  }
  if (error instanceof sdk.AnthropicError) return malformedStreamError(endpoint, error.message, error);
  return describeRawFailure(error, endpoint);
}

/** Describes anything the OpenAI SDK (or the stream loop around it) threw; same promises as for Anthropic. */
export function modelErrorFromOpenAI(error: unknown, endpoint: EndpointContext, signal?: AbortSignal): ModelError {
  if (error instanceof ModelError) return error;
  const sdk = openAiSdk();
  if (signal?.aborted === true || error instanceof sdk.APIUserAbortError) return abortedError(endpoint, error);
  if (error instanceof sdk.APIConnectionTimeoutError) return timeoutError(endpoint, error);
  if (error instanceof sdk.APIConnectionError) return connectionFailure(endpoint, error);
  if (error instanceof sdk.APIError) {
    // The SDK keeps the inner `error` object of `{"error": {...}}`; some servers send a bare string instead.
    const body = asRecord(error.error);
    return describeProviderFailure(
      {
        status: error.status as number | undefined,
        type: stringOrUndefined(error.type) ?? stringField(body, 'type'),
        code: stringOrUndefined(error.code) ?? stringField(body, 'code'),
        param: stringOrUndefined(error.param),
        reason:
          stringField(body, 'message') ?? (typeof error.error === 'string' ? error.error : plainSdkMessage(error)),
        retryAfterSeconds: retryAfterSeconds(error.headers as Headers | undefined),
      },
      endpoint,
      error,
    );
  }
  if (error instanceof sdk.OpenAIError) return malformedStreamError(endpoint, error.message, error);
  return describeRawFailure(error, endpoint);
}

// ---- HTTP errors ------------------------------------------------------------------------------------------

/** An error response reduced to what both SDKs can tell us. */
interface ProviderFailure {
  /** Undefined for an error event inside a stream that had already started. */
  readonly status: number | undefined;
  readonly type: string | undefined;
  readonly code: string | undefined;
  readonly param: string | undefined;
  readonly reason: string | undefined;
  readonly retryAfterSeconds: number | undefined;
}

/** Anthropic's error types, for an `error` event inside a stream, which has no HTTP status of its own. */
const STATUS_OF_ERROR_TYPE: Readonly<Record<string, number>> = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  server_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
};

function describeProviderFailure(failure: ProviderFailure, endpoint: EndpointContext, cause: unknown): ModelError {
  const status = failure.status ?? (failure.type === undefined ? undefined : STATUS_OF_ERROR_TYPE[failure.type]);
  const reason = failure.reason === undefined ? undefined : redact(failure.reason, endpoint);
  const make = (kind: ModelErrorKind, message: string, retryAfterSeconds?: number): ModelError =>
    new ModelError(kind, message, {
      ...(status === undefined ? {} : { status }),
      ...(reason === undefined ? {} : { detail: reason }),
      ...(retryAfterSeconds === undefined ? {} : { retryAfterSeconds }),
      cause,
    });

  if (isContextTooLong(status, failure, reason)) return make('contextTooLong', CONTEXT_TOO_LONG_MESSAGE);
  if (failure.type === 'overloaded_error' || status === 529 || (status === 503 && /overload/i.test(reason ?? ''))) {
    return make('overloaded', `${endpoint.label} is overloaded right now. Try again in a minute.`);
  }
  switch (status) {
    case 401:
      return make(
        'auth',
        endpoint.apiKey === undefined || endpoint.apiKey === ''
          ? `${where(endpoint)} needs an API key, and none is set. Set one with ${SET_API_KEY_COMMAND}.`
          : `${where(endpoint)} refused the API key. Set a valid key with ${SET_API_KEY_COMMAND}.`,
      );
    case 403:
      return make(
        'permission',
        `${where(endpoint)} does not let this API key use ${modelPhrase(endpoint)}. Check the key's permissions, or choose another model.`,
      );
    case 404:
      return looksLikeMissingModel(failure, reason)
        ? make('notFound', `${where(endpoint)} has no ${modelPhrase(endpoint)}. Check the model name in settings.`)
        : make(
            'notFound',
            `${endpoint.label} found no ${apiName(endpoint)} at ${endpoint.baseUrl} (404). ${baseUrlHint(endpoint)}`,
          );
    case 429: {
      if (failure.code === 'insufficient_quota' || failure.type === 'insufficient_quota') {
        return make(
          'rateLimit',
          `${endpoint.label} says this API key has no quota left (429). Check the plan and billing of the account.`,
        );
      }
      const wait = failure.retryAfterSeconds;
      return make(
        'rateLimit',
        `${endpoint.label} is limiting how often it may be asked (429). ` +
          (wait === undefined
            ? 'Wait a moment and try again.'
            : `Try again in ${wait} second${wait === 1 ? '' : 's'}.`),
        wait,
      );
    }
    default:
      break;
  }
  if (status !== undefined && status >= 500) {
    return make(
      'server',
      `${endpoint.label} failed with a server error (${status}). Try again; if it keeps failing, check the server's status or log.`,
    );
  }
  if (status !== undefined && status >= 400) {
    return make(
      'badRequest',
      reason === undefined || reason === ''
        ? `${where(endpoint)} refused the request (${status}).`
        : `${endpoint.label} refused the request (${status}): ${quote(reason)}`,
    );
  }
  // An error event without a status or a type we know: the server says something failed, so treat it as its fault.
  return make(
    'server',
    `${endpoint.label} reported an error while answering. Try again; if it keeps failing, check the server's status or log.`,
  );
}

function isContextTooLong(status: number | undefined, failure: ProviderFailure, reason: string | undefined): boolean {
  if (status === 413 || failure.type === 'request_too_large') return true;
  if (failure.code === 'context_length_exceeded' || failure.type === 'exceed_context_size_error') return true;
  // Anthropic: "prompt is too long: N tokens > M maximum"; OpenAI, vLLM: "maximum context length is N tokens";
  // llama.cpp: "exceeds the available context size"; others talk of a context window.
  return status === 400 && /prompt is too long|context (?:length|size|window)|too many tokens/i.test(reason ?? '');
}

function looksLikeMissingModel(failure: ProviderFailure, reason: string | undefined): boolean {
  return failure.code === 'model_not_found' || failure.param === 'model' || /\bmodel\b/i.test(reason ?? '');
}

// ---- Failures below HTTP ----------------------------------------------------------------------------------

/** Error codes of Node and undici that mean the server could not be reached at all. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** Codes that mean a connection that worked was closed under us. */
const CONNECTION_LOST_CODES = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET', 'UND_ERR_CLOSED', 'ECONNABORTED']);

function connectionFailure(endpoint: EndpointContext, error: Error): ModelError {
  const codes = errorCodesIn(error);
  const detail = redact(deepestMessage(error), endpoint);
  if (codes.some((code) => UNREACHABLE_CODES.has(code))) {
    return new ModelError('unreachable', unreachableMessage(endpoint), { detail, cause: error });
  }
  if (codes.some((code) => /^(?:CERT_|ERR_TLS_|ERR_SSL_)|SELF_SIGNED|UNABLE_TO_VERIFY|DEPTH_ZERO/.test(code))) {
    return new ModelError(
      'unreachable',
      `Could not make a secure connection to ${endpoint.baseUrl}. Check the base URL (http or https) and the server's certificate.`,
      { detail, cause: error },
    );
  }
  if (codes.some((code) => CONNECTION_LOST_CODES.has(code))) {
    return new ModelError('connectionLost', connectionLostMessage(endpoint), { detail, cause: error });
  }
  return new ModelError('unreachable', unreachableMessage(endpoint), { detail, cause: error });
}

/** Something thrown that is not an SDK error: while reading the stream, or by the stream loop itself. */
function describeRawFailure(error: unknown, endpoint: EndpointContext): ModelError {
  if (error instanceof SyntaxError) return malformedStreamError(endpoint, error.message, error);
  if (error instanceof Error && error.name === 'AbortError') return abortedError(endpoint, error);
  if (error instanceof Error) {
    const codes = errorCodesIn(error);
    // undici reports a body cut off mid-stream as `TypeError: terminated` caused by a socket error.
    if (
      codes.some((code) => CONNECTION_LOST_CODES.has(code)) ||
      /^terminated$|other side closed|socket hang up/i.test(allMessages(error))
    ) {
      return new ModelError('connectionLost', connectionLostMessage(endpoint), {
        detail: redact(deepestMessage(error), endpoint),
        cause: error,
      });
    }
    return malformedStreamError(endpoint, error.message, error);
  }
  return malformedStreamError(endpoint, String(error), error);
}

function timeoutError(endpoint: EndpointContext, cause: unknown): ModelError {
  return new ModelError(
    'timeout',
    `${where(endpoint)} did not answer within ${duration(endpoint.timeoutMs)}. Try again, or raise the timeout in settings.`,
    { cause },
  );
}

// ---- Reading errors ---------------------------------------------------------------------------------------

/** Seconds to wait from `retry-after-ms` or `retry-after` (seconds or an HTTP date), rounded up. */
function retryAfterSeconds(headers: Headers | undefined): number | undefined {
  const millis = Number.parseFloat(headers?.get('retry-after-ms') ?? '');
  if (Number.isFinite(millis) && millis > 0) return Math.ceil(millis / 1000);
  const value = headers?.get('retry-after');
  if (value === null || value === undefined || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, Math.ceil((date - Date.now()) / 1000));
}

/** `code`s along the `cause` chain, including the members of an AggregateError (one per address tried). */
function errorCodesIn(error: unknown, depth = 0): string[] {
  if (typeof error !== 'object' || error === null || depth > 8) return [];
  const record = error as Record<string, unknown>;
  const own = typeof record['code'] === 'string' ? [record['code']] : [];
  const members =
    error instanceof AggregateError ? error.errors.flatMap((member) => errorCodesIn(member, depth + 1)) : [];
  return [...own, ...members, ...errorCodesIn(record['cause'], depth + 1)];
}

function deepestMessage(error: unknown): string {
  let current: unknown = error;
  let message = errorMessage(error);
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current.message !== '') message = current.message;
    current = current.cause;
  }
  return message;
}

function allMessages(error: unknown): string {
  const messages: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    messages.push(current.message);
    current = current.cause;
  }
  return messages.join('\n');
}

/** The SDKs prefix the status to their message ("429 {...}"); without a body that is all there is. */
function plainSdkMessage(error: Error): string | undefined {
  const message = error.message.replace(/^\d{3}\s+/, '');
  return message === '' || /status code \(no body\)$/.test(message) ? undefined : message;
}

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
}

function stringField(record: Record<string, unknown> | undefined, name: string): string | undefined {
  return stringOrUndefined(record?.[name]);
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
