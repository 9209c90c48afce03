/**
 * Why an entity lookup failed, in words the user can act on: a `ResolveFailure` carries the whole
 * explanation (an HTTP status and the body's message, a redirect that is not followed, a body too large
 * or unreadable, a refused or reset connection, a host not found), and a `NotFoundFailure` says the node
 * has no such entity. Quoted text from the server is cut short.
 */
import { errorCode, errorMessage } from '../errors';
import { byteSize } from '../quantities';
import { BodyEncodingError, BodyTooLargeError, type BoundedReply } from './boundedGet';

/** A request failure whose message is already the whole explanation. */
export class ResolveFailure extends Error {}

/** The node answered that it has no such entity. */
export class NotFoundFailure extends ResolveFailure {}

/** The `message` of an error body, if it has one. */
export function messageOf(json: unknown): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined;
  const message = (json as Record<string, unknown>)['message'];
  return typeof message === 'string' && message !== '' ? truncated(message) : undefined;
}

export function truncated(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function headerOf(value: string | string[] | undefined): string | null {
  return (Array.isArray(value) ? value[0] : value) ?? null;
}

export function redirectMessage(reply: BoundedReply): string {
  const location = headerOf(reply.headers['location']);
  const target = location === null ? 'elsewhere' : `to ${truncated(JSON.stringify(location), 200)}`;
  return `HTTP ${reply.status}${reply.statusText ? ` ${reply.statusText}` : ''}: the Structs API redirects ${target}; entity lookups do not follow redirects (set fdref.entities.apiBaseUrl to the address that answers)`;
}

function tooLargeMessage(error: BodyTooLargeError): string {
  const limit = byteSize(error.limit);
  return error.stage === 'decoded'
    ? `the Structs API sent a body that decompresses to more than ${limit}, the limit for one entity; reading stopped`
    : `the Structs API sent more than ${limit}, the limit for one entity; reading stopped`;
}

/** What a transport error means, in words: a too large or undecodable body, or what the network error really was. */
export function transportFailure(error: unknown, baseUrl: string): ResolveFailure {
  if (error instanceof ResolveFailure) return error;
  if (error instanceof BodyTooLargeError) return new ResolveFailure(tooLargeMessage(error));
  if (error instanceof BodyEncodingError)
    return new ResolveFailure(`the Structs API sent a body that cannot be read: ${error.message}`);
  switch (errorCode(error)) {
    case 'ECONNREFUSED':
      return new ResolveFailure(`connection refused by ${baseUrl} (is the Structs API running?)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new ResolveFailure(`host not found: ${new URL(baseUrl).hostname}`);
    case 'ECONNRESET':
    case 'EPIPE':
      return new ResolveFailure(`connection to ${baseUrl} closed unexpectedly`);
    default:
      return new ResolveFailure(`request to ${baseUrl} failed: ${errorMessage(error)}`);
  }
}

/** What went wrong, in words: a failure's own message; anything else is a fault of ours, not the network's. */
export function describeError(error: unknown): string {
  if (error instanceof ResolveFailure) return error.message;
  return `could not read the entity: ${errorMessage(error)}`;
}
