/**
 * How the provider errors speak of an endpoint: where the request went, which API it is, what to check, and the
 * provider's own words quoted short with the API key blanked out. Shared by the HTTP and the stream errors.
 */
import { DEFAULT_BASE_URLS, type EndpointContext } from './clientConfig';

/** Longest provider message quoted inside `message`; the whole of it stays in `detail`. */
const QUOTED_REASON_LIMIT = 300;

/** "40 ms", "2.5 seconds", "600 seconds". */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${Math.round(ms / 100) / 10} seconds`;
}

export function unreachableMessage(endpoint: EndpointContext): string {
  return `Nothing answers at ${endpoint.baseUrl}. Is the server running? Check the base URL in settings.`;
}

export function connectionLostMessage(endpoint: EndpointContext): string {
  return `The connection to ${where(endpoint)} closed before the answer was complete. Try again.`;
}

// ---- Wording helpers --------------------------------------------------------------------------------------

export function where(endpoint: EndpointContext): string {
  return `${endpoint.label} (${endpoint.baseUrl})`;
}

export function apiName(endpoint: EndpointContext): string {
  return endpoint.protocol === 'anthropic' ? 'Anthropic Messages API' : 'OpenAI-compatible Chat Completions API';
}

export function baseUrlHint(endpoint: EndpointContext): string {
  return endpoint.protocol === 'anthropic'
    ? `Check the base URL in settings: it is the server address without /v1, such as ${DEFAULT_BASE_URLS.anthropic}.`
    : `Check the base URL in settings: it usually ends in /v1, such as ${DEFAULT_BASE_URLS.openai} or http://localhost:11434/v1 for Ollama.`;
}

/** "model named “x”", or "model of that name" when the request named none we know. */
export function modelPhrase(endpoint: EndpointContext): string {
  return endpoint.model === undefined || endpoint.model === ''
    ? 'model of that name'
    : `model named “${endpoint.model}”`;
}

/** The provider's reason on one line, cut to a readable length, ending like a sentence. */
export function quote(reason: string): string {
  const oneLine = reason.replace(/\s+/g, ' ').trim();
  if (oneLine.length > QUOTED_REASON_LIMIT) return `${oneLine.slice(0, QUOTED_REASON_LIMIT)}…`;
  return /[.!?…]$/.test(oneLine) ? oneLine : `${oneLine}.`;
}

/** Servers sometimes echo what they were sent; the key must not reach the screen or a log that way. */
export function redact(text: string, endpoint: EndpointContext): string {
  const key = endpoint.apiKey;
  return key === undefined || key.length < 4 ? text : text.split(key).join('[API key]');
}
