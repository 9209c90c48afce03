/**
 * The errors of a stream that started: it ended before its final event, made no sense, went silent or was
 * stopped; and the checks both providers run when their stream's events run out.
 */
import { ModelError } from '../modelClient';
import { apiName, baseUrlHint, connectionLostMessage, duration, redact, where } from './endpointWords';
import type { EndpointContext } from './clientConfig';
import type { SilenceWatch } from './silenceWatch';

/**
 * After the last event: a stream whose signal aborted, that went silent, or that never sent its final event
 * (`message_stop`, or a `finish_reason`: `final`) is an error, in that order; else `final` is given back.
 */
export function checkStreamEnded<Final>(
  endpoint: EndpointContext,
  signal: AbortSignal,
  silence: SilenceWatch,
  final: Final | undefined,
  receivedAnyEvent: boolean,
): Final {
  // The SDKs end the iteration quietly when the request is aborted, so an early end is checked here.
  if (signal.aborted) throw abortedError(endpoint);
  if (silence.fired) throw silentStreamError(endpoint);
  if (final === undefined) throw streamEndedEarlyError(endpoint, receivedAnyEvent);
  return final;
}

/** What a stream that threw ends with: the silence that aborted it, else what `describe` makes of the error. */
export function streamFailure(
  error: unknown,
  endpoint: EndpointContext,
  signal: AbortSignal,
  silence: SilenceWatch,
  describe: (error: unknown, endpoint: EndpointContext, signal: AbortSignal) => ModelError,
): ModelError {
  if (silence.fired && !signal.aborted) return silentStreamError(endpoint, error);
  return describe(error, endpoint, signal);
}

/** The error for a stream that stopped before its final event (`message_stop`, or a `finish_reason`). */
export function streamEndedEarlyError(endpoint: EndpointContext, receivedAnyEvent: boolean): ModelError {
  // Nothing at all usually means the server ignored `stream: true` or is not this kind of API.
  if (!receivedAnyEvent) return malformedStreamError(endpoint, 'The response held no stream events.');
  return new ModelError('connectionLost', connectionLostMessage(endpoint), {
    detail: 'The stream ended before its final event.',
  });
}

/** The error for a stream whose events make no sense (e.g. a delta for a block that never started). */
export function malformedStreamError(endpoint: EndpointContext, detail: string, cause?: unknown): ModelError {
  return new ModelError(
    'malformedStream',
    `${where(endpoint)} sent a response that is not a valid ${apiName(endpoint)} stream. ${baseUrlHint(endpoint)}`,
    {
      detail: redact(detail, endpoint),
      ...(cause === undefined ? {} : { cause }),
    },
  );
}

/** The error for a stream that went quiet for longer than the timeout after it had started. */
export function silentStreamError(endpoint: EndpointContext, cause?: unknown): ModelError {
  return new ModelError(
    'timeout',
    `${where(endpoint)} stopped sending in the middle of the answer and stayed silent for ${duration(endpoint.timeoutMs)}. Try again, or raise the timeout in settings.`,
    cause === undefined ? {} : { cause },
  );
}

/** The error a stream ends with when its signal aborts. */
export function abortedError(endpoint: EndpointContext, cause?: unknown): ModelError {
  return new ModelError(
    'aborted',
    `The request to ${endpoint.label} was stopped.`,
    cause === undefined ? {} : { cause },
  );
}
