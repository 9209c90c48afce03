/**
 * The provider-neutral shape of a model conversation. The Anthropic and OpenAI-compatible clients
 * (`providers/`) and VS Code's language models (`src/chat/vscodeLmClient.ts`) all translate to and from it,
 * so the conversation loop never knows which provider it talks to.
 */
import type { ToolDefinition } from '../tools/toolTable';
import { brandedInstanceOf } from '../brand';

/** A tool call as the model sent it. `arguments` is the raw JSON text (the loop parses and validates it). */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ModelToolResult {
  readonly callId: string;
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
}

export type ModelMessage =
  | { readonly role: 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly text: string; readonly toolCalls: readonly ModelToolCall[] }
  /** The results of the tool calls of the assistant message just before, in the same order. */
  | { readonly role: 'tool'; readonly results: readonly ModelToolResult[] };

export interface ModelRequest {
  readonly model: string;
  readonly system: string;
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly ToolDefinition[];
  readonly maxTokens: number;
}

export type StopReason = 'end_turn' | 'tool_use' | 'max_tokens' | 'other';

/** What a client yields while a response streams: text as it arrives, each complete tool call, then `end` once. */
export type ModelEvent =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'toolCall'; readonly call: ModelToolCall }
  | { readonly type: 'end'; readonly stopReason: StopReason };

export interface ModelClient {
  /**
   * Streams one model response. Ends with exactly one `end` event; throws `ModelError` for anything that
   * goes wrong (also mid-stream), and a `ModelError` of kind `aborted` when `signal` aborts.
   */
  stream(request: ModelRequest, signal: AbortSignal): AsyncIterable<ModelEvent>;
}

export type ModelErrorKind =
  /** 401: the key is missing or wrong. */
  | 'auth'
  /** 403: the key may not use this model or endpoint. */
  | 'permission'
  /** VS Code's user has not allowed FD Refs to use a `vscode.lm` model (declined when asked, or turned it off). */
  | 'noConsent'
  /** 404: no such model or endpoint path (often a wrong base URL). */
  | 'notFound'
  /** 429 */
  | 'rateLimit'
  /** The conversation is longer than the model's context window. */
  | 'contextTooLong'
  /** Any other 4xx: the request was refused. */
  | 'badRequest'
  /** 529 / overloaded_error */
  | 'overloaded'
  /** 5xx */
  | 'server'
  /** Nothing answers at the base URL (connection refused, DNS, TLS). */
  | 'unreachable'
  | 'timeout'
  /** The connection closed before the response ended. */
  | 'connectionLost'
  /** The stream could not be parsed (not SSE, bad JSON, events out of order). */
  | 'malformedStream'
  | 'aborted';

/** The message of a `contextTooLong` error, whichever client reports it. */
export const CONTEXT_TOO_LONG_MESSAGE =
  "The conversation is longer than the model's context window. Start a new chat, or fork from an earlier message.";

/**
 * A failure described for a person: `message` says what happened and what to do about it, without the key.
 * `detail` is the provider's own words (shown smaller), when there are any.
 */
const MODEL_ERROR = Symbol.for('fdref.ModelError');

export class ModelError extends Error {
  override readonly name = 'ModelError';
  /** The mark every bundle's copy of this class knows (see brand.ts). */
  readonly [MODEL_ERROR] = true;

  static override [Symbol.hasInstance](value: unknown): boolean {
    return brandedInstanceOf(this, ModelError, MODEL_ERROR, value);
  }

  constructor(
    readonly kind: ModelErrorKind,
    message: string,
    readonly options: {
      readonly status?: number;
      readonly detail?: string;
      readonly retryAfterSeconds?: number;
      readonly cause?: unknown;
    } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
  }
}
