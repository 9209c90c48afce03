import type * as http from 'node:http';
import type { EventStreamWriter } from './eventStream';
import type { ConversationTurn, ScriptedFailure, ScriptedReply } from './scenarios';

/** An error response in the provider's own shape. */
export interface ErrorReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A request that passed validation, reduced to what the scripts and the stream need. */
export interface ValidRequest {
  readonly model: string;
  readonly turns: readonly ConversationTurn[];
  readonly toolNames: readonly string[];
  /** OpenAI's `stream_options.include_usage`. */
  readonly includeUsage: boolean;
  /** Characters of prompt, for a plausible token count. */
  readonly promptChars: number;
}

export type ParseResult =
  { readonly ok: true; readonly request: ValidRequest } | { readonly ok: false; readonly error: ErrorReply };

/** A reply that streams (errors are sent as plain responses before any stream starts). */
export type StreamedReply = Exclude<ScriptedReply, { kind: 'error' }>;

export interface StreamOptions {
  readonly chunkDelayMs: number;
  /** A fresh id with this prefix, unique for the endpoint's lifetime. */
  readonly newId: (prefix: string) => string;
}

/** The protocols the endpoint speaks: Anthropic Messages, OpenAI Chat Completions, OpenAI Responses, Gemini. */
export type ProtocolName = 'anthropic' | 'openai' | 'responses' | 'gemini';

/** What a request to a protocol's route is for. */
export type RouteKind = 'generate' | 'models' | 'countTokens';

/** What the endpoint needs from each provider's wire protocol. */
export interface WireProtocol {
  readonly name: ProtocolName;
  /** The route `METHOD /path` (after the protocol's prefix, without the query) is for, or undefined (a 404). */
  route(method: string, path: string): RouteKind | undefined;
  /** The API key the request carries, if any. */
  keyOf(request: http.IncomingMessage): string | undefined;
  wrongKey(): ErrorReply;
  /** Checks headers and body as the real API does, enough to catch translation mistakes. */
  parse(body: unknown, request: http.IncomingMessage): ParseResult;
  /** `flat`: the error fields without the `error` wrapper, where the protocol's servers send that shape. */
  scriptedError(failure: ScriptedFailure, model: string, flat: boolean): ErrorReply;
  stream(writer: EventStreamWriter, reply: StreamedReply, request: ValidRequest, options: StreamOptions): Promise<void>;
  modelList(): unknown;
  /** The body answering a `countTokens` route, for a request of this many characters. */
  countTokens?(chars: number): unknown;
  notFound(method: string, path: string): ErrorReply;
  invalidBody(message: string): ErrorReply;
}

/** A plausible token count for this many characters, for the usage numbers of a stream. */
export function roughTokens(chars: number): number {
  return Math.max(1, Math.ceil(chars / 4));
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
