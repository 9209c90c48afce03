/**
 * A `ModelClient` for the Chat Completions API of OpenAI and the servers that copy it (Ollama, LM Studio, vLLM,
 * llama.cpp), on the official SDK's stream. Tool calls arrive in pieces keyed by `index` and are yielded once
 * the choice finishes, since only then are their arguments complete.
 */
import type OpenAI from 'openai';
import {
  DEFAULT_BASE_URLS,
  resolveClientConfig,
  type EndpointContext,
  type ProviderClientConfig,
} from './clientConfig';
import type { ModelClient, ModelEvent, ModelRequest, ModelToolCall, StopReason } from '../modelClient';
import { modelErrorFromOpenAI } from './providerErrors';
import { abortedError, checkStreamEnded, streamFailure } from './streamErrors';
import { openAiSdk } from './sdks';
import { SilenceWatch } from './silenceWatch';

/** See `ProviderClientConfig`. */
export type OpenAiCompatibleClientConfig = ProviderClientConfig;

/** The SDK insists on a key; local servers ignore whatever is sent. */
const NO_KEY_PLACEHOLDER = 'not-needed';

/**
 * The SDK, reading both shapes of error body. OpenAI sends `{"error": {"message", "type", "param", "code"}}`;
 * SGLang, TensorRT-LLM, FastChat and older vLLM send the same fields flat, `{"object": "error", "message", ...}`.
 * The SDK keeps only the inner `error` object, so a flat body is wrapped into one before it is read: the server's
 * message then reaches the user, and a context overflow is recognised, whichever shape the server uses.
 * Made when the first client is, since the SDK is loaded then.
 */
let compatibleOpenAI: typeof OpenAI | undefined;

function compatibleOpenAIClass(): typeof OpenAI {
  compatibleOpenAI ??= class CompatibleOpenAI extends openAiSdk().OpenAI {
    protected override makeStatusError(status: number, error: object, message: string | undefined, headers: Headers) {
      return super.makeStatusError(status, isFlatErrorBody(error) ? { error } : error, message, headers);
    }
  };
  return compatibleOpenAI;
}

/** `{"object": "error", "message": "..."}` or any other body with a `message` but no `error` member. */
function isFlatErrorBody(body: unknown): body is Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return false;
  const record = body as Record<string, unknown>;
  return record['error'] === undefined && typeof record['message'] === 'string';
}

/** Creates a client for one OpenAI-compatible endpoint. Nothing is sent until `stream` is called. */
export function createOpenAiCompatibleClient(config: OpenAiCompatibleClientConfig): ModelClient {
  const { baseUrl, apiKey, timeoutMs, maxRetries, endpointFor } = resolveClientConfig(
    'openai',
    config,
    DEFAULT_BASE_URLS.openai,
  );
  const sdk = new (compatibleOpenAIClass())({
    apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
    baseURL: baseUrl,
    // Explicit nulls keep OPENAI_ORG_ID and OPENAI_PROJECT from the environment out of the requests.
    organization: null,
    project: null,
    timeout: timeoutMs,
    maxRetries,
    // The SDK logs unparsable stream lines to the console; they reach the user as a ModelError instead.
    logLevel: 'off',
  });
  // Newer OpenAI models refuse `max_tokens`; once one has said so, this client sends `max_completion_tokens`.
  const modelsWantingCompletionTokens = new Set<string>();

  return {
    stream: (request, signal) =>
      streamCompletion(sdk, request, signal, endpointFor(request.model), modelsWantingCompletionTokens),
  };
}

/** A tool call while its pieces arrive. */
interface PendingToolCall {
  id: string;
  name: string;
  arguments: string;
}

async function* streamCompletion(
  sdk: OpenAI,
  request: ModelRequest,
  signal: AbortSignal,
  endpoint: EndpointContext,
  modelsWantingCompletionTokens: Set<string>,
): AsyncGenerator<ModelEvent> {
  if (signal.aborted) throw abortedError(endpoint);
  const silence = new SilenceWatch(signal, endpoint.timeoutMs);
  let sdkStream: Awaited<ReturnType<typeof createStream>> | undefined;
  let finished = false;
  try {
    sdkStream = await createStreamChoosingTokenLimit(sdk, request, silence.signal, modelsWantingCompletionTokens);
    const pending = new Map<number, PendingToolCall>();
    let receivedAnyChunk = false;
    let finishReason: string | undefined;
    for await (const chunk of silence.watch(sdkStream)) {
      receivedAnyChunk = true;
      // Only the first choice is asked for; a usage-only chunk has none.
      const choice = chunk.choices?.[0];
      if (choice === undefined) continue;
      const delta = choice.delta ?? {};
      if (typeof delta.content === 'string' && delta.content !== '') yield { type: 'text', text: delta.content };
      // OpenAI streams a refusal in its own field (`content` stays null); it is the answer the user sees.
      if (typeof delta.refusal === 'string' && delta.refusal !== '') yield { type: 'text', text: delta.refusal };
      for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
        // Some servers leave out `index` when they send each call whole.
        const index = typeof piece.index === 'number' ? piece.index : position;
        const call = pending.get(index) ?? { id: '', name: '', arguments: '' };
        pending.set(index, call);
        if (typeof piece.id === 'string' && piece.id !== '' && call.id === '') call.id = piece.id;
        if (typeof piece.function?.name === 'string' && piece.function.name !== '' && call.name === '')
          call.name = piece.function.name;
        if (typeof piece.function?.arguments === 'string') call.arguments += piece.function.arguments;
      }
      // Typed as a closed set, but compatible servers send other words (and some send "").
      const reason: unknown = choice.finish_reason;
      if (typeof reason === 'string' && reason !== '') finishReason = reason;
    }
    const finish = checkStreamEnded(endpoint, signal, silence, finishReason, receivedAnyChunk);
    const calls = completedToolCalls(pending);
    for (const call of calls) yield { type: 'toolCall', call };
    finished = true;
    yield { type: 'end', stopReason: toStopReason(finish, calls.length > 0) };
  } catch (error) {
    throw streamFailure(error, endpoint, signal, silence, modelErrorFromOpenAI);
  } finally {
    silence.disarm();
    // A consumer that stops iterating early leaves the HTTP response open; close it.
    if (!finished) sdkStream?.controller.abort();
  }
}

async function createStreamChoosingTokenLimit(
  sdk: OpenAI,
  request: ModelRequest,
  signal: AbortSignal,
  modelsWantingCompletionTokens: Set<string>,
) {
  if (modelsWantingCompletionTokens.has(request.model))
    return createStream(sdk, request, signal, 'max_completion_tokens');
  try {
    // `max_tokens` first: every compatible server knows it, not all know `max_completion_tokens`.
    return await createStream(sdk, request, signal, 'max_tokens');
  } catch (error) {
    if (!refusesMaxTokens(error)) throw error;
    modelsWantingCompletionTokens.add(request.model);
    return createStream(sdk, request, signal, 'max_completion_tokens');
  }
}

function refusesMaxTokens(error: unknown): boolean {
  return (
    error instanceof openAiSdk().BadRequestError &&
    (error.param === 'max_tokens' || /max_completion_tokens/.test(error.message))
  );
}

function createStream(
  sdk: OpenAI,
  request: ModelRequest,
  signal: AbortSignal,
  tokenLimit: 'max_tokens' | 'max_completion_tokens',
) {
  // No `stream_options: {include_usage}`: some compatible servers refuse the field, and usage is not shown.
  return sdk.chat.completions.create(
    {
      model: request.model,
      messages: toOpenAIMessages(request),
      ...(tokenLimit === 'max_tokens'
        ? { max_tokens: request.maxTokens }
        : { max_completion_tokens: request.maxTokens }),
      ...(request.tools.length === 0
        ? {}
        : {
            tools: request.tools.map((tool) => ({
              type: 'function' as const,
              function: {
                name: tool.name,
                description: tool.description,
                parameters: tool.inputSchema as Record<string, unknown>,
              },
            })),
          }),
      stream: true,
    },
    { signal },
  );
}

/** In index order; a server that sent no id gets one made up, since the result must name the call it answers. */
function completedToolCalls(pending: ReadonlyMap<number, PendingToolCall>): ModelToolCall[] {
  return [...pending.entries()]
    .sort(([a], [b]) => a - b)
    .map(([index, call]) => ({
      id: call.id === '' ? `call_${index}` : call.id,
      name: call.name,
      arguments: call.arguments === '' ? '{}' : call.arguments,
    }));
}

function toStopReason(finishReason: string, madeToolCalls: boolean): StopReason {
  // Some local servers finish with "stop" even when the message holds tool calls.
  if (madeToolCalls) return 'tool_use';
  switch (finishReason) {
    case 'stop':
      return 'end_turn';
    case 'tool_calls':
    case 'function_call':
      return 'tool_use';
    case 'length':
      return 'max_tokens';
    default:
      return 'other';
  }
}

/** The system prompt first; each tool result as its own `tool` message, in the order of the calls. */
function toOpenAIMessages(request: ModelRequest): OpenAI.ChatCompletionMessageParam[] {
  const messages: OpenAI.ChatCompletionMessageParam[] =
    request.system === '' ? [] : [{ role: 'system', content: request.system }];
  for (const message of request.messages) {
    switch (message.role) {
      case 'user':
        messages.push({ role: 'user', content: message.text });
        break;
      case 'assistant':
        messages.push({
          role: 'assistant',
          // `null` rather than "" beside tool calls: that is what OpenAI itself sends back.
          content: message.text === '' && message.toolCalls.length > 0 ? null : message.text,
          ...(message.toolCalls.length === 0
            ? {}
            : {
                tool_calls: message.toolCalls.map((call) => ({
                  id: call.id,
                  type: 'function' as const,
                  function: { name: call.name, arguments: call.arguments },
                })),
              }),
        });
        break;
      case 'tool':
        // Chat Completions has no error flag for a tool result; our tools' error results say so in their text.
        for (const result of message.results)
          messages.push({ role: 'tool', tool_call_id: result.callId, content: result.content });
        break;
    }
  }
  return messages;
}
