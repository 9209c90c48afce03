/**
 * A `ModelClient` for the Anthropic Messages API (and servers that speak it), on the official SDK's raw
 * event stream: text is yielded as each `text_delta` arrives, a tool call once its `tool_use` block stops.
 */
import type Anthropic from '@anthropic-ai/sdk';
import {
  DEFAULT_BASE_URLS,
  resolveClientConfig,
  type EndpointContext,
  type ProviderClientConfig,
} from './clientConfig';
import type { ModelClient, ModelEvent, ModelMessage, ModelRequest, StopReason } from '../modelClient';
import { modelErrorFromAnthropic } from './providerErrors';
import { abortedError, checkStreamEnded, malformedStreamError, streamFailure } from './streamErrors';
import { anthropicSdk } from './sdks';
import { SilenceWatch } from './silenceWatch';

/** See `ProviderClientConfig`. */
export type AnthropicClientConfig = ProviderClientConfig;

/** Sent when no key is set, so the SDK never looks for one in the environment or in credential files. */
const NO_KEY_PLACEHOLDER = 'not-set';

/** Creates a client for one Anthropic endpoint. Nothing is sent until `stream` is called. */
export function createAnthropicClient(config: AnthropicClientConfig): ModelClient {
  const { baseUrl, apiKey, timeoutMs, maxRetries, endpointFor } = resolveClientConfig(
    'anthropic',
    config,
    DEFAULT_BASE_URLS.anthropic,
  );
  const sdk = new (anthropicSdk().Anthropic)({
    apiKey: apiKey ?? NO_KEY_PLACEHOLDER,
    baseURL: baseUrl,
    timeout: timeoutMs,
    maxRetries,
    // The SDK logs unparsable stream lines to the console; they reach the user as a ModelError instead.
    logLevel: 'off',
  });

  return {
    stream: (request, signal) => streamMessage(sdk, request, signal, endpointFor(request.model)),
  };
}

/** The part of a content block that matters while it streams. */
type OpenBlock =
  | { readonly kind: 'text' }
  | { readonly kind: 'toolUse'; readonly id: string; readonly name: string; json: string; readonly startInput: unknown }
  | { readonly kind: 'other' };

async function* streamMessage(
  sdk: Anthropic,
  request: ModelRequest,
  signal: AbortSignal,
  endpoint: EndpointContext,
): AsyncGenerator<ModelEvent> {
  if (signal.aborted) throw abortedError(endpoint);
  const silence = new SilenceWatch(signal, endpoint.timeoutMs);
  let sdkStream: Awaited<ReturnType<typeof createStream>> | undefined;
  let finished = false;
  try {
    sdkStream = await createStream(sdk, request, silence.signal);
    const blocks = new Map<number, OpenBlock>();
    let receivedAnyEvent = false;
    let stopReason: StopReason = 'end_turn';
    let stopped = false;
    for await (const event of silence.watch(sdkStream)) {
      receivedAnyEvent = true;
      switch (event.type) {
        case 'message_start':
          break;
        case 'content_block_start': {
          const block = event.content_block;
          if (block.type === 'text') {
            blocks.set(event.index, { kind: 'text' });
            if (block.text !== '') yield { type: 'text', text: block.text };
          } else if (block.type === 'tool_use') {
            blocks.set(event.index, {
              kind: 'toolUse',
              id: block.id,
              name: block.name,
              json: '',
              startInput: block.input,
            });
          } else {
            // Thinking and server-side tool blocks: nothing the conversation loop shows or runs.
            blocks.set(event.index, { kind: 'other' });
          }
          break;
        }
        case 'content_block_delta': {
          const block = blocks.get(event.index);
          if (block === undefined)
            throw malformedStreamError(
              endpoint,
              `A content_block_delta arrived for block ${event.index}, which never started.`,
            );
          if (event.delta.type === 'text_delta' && block.kind === 'text') {
            if (event.delta.text !== '') yield { type: 'text', text: event.delta.text };
          } else if (event.delta.type === 'input_json_delta' && block.kind === 'toolUse') {
            block.json += event.delta.partial_json;
          }
          break;
        }
        case 'content_block_stop': {
          const block = blocks.get(event.index);
          if (block === undefined)
            throw malformedStreamError(
              endpoint,
              `A content_block_stop arrived for block ${event.index}, which never started.`,
            );
          blocks.delete(event.index);
          if (block.kind === 'toolUse')
            yield { type: 'toolCall', call: { id: block.id, name: block.name, arguments: toolArguments(block) } };
          break;
        }
        case 'message_delta':
          if (event.delta.stop_reason !== null) stopReason = toStopReason(event.delta.stop_reason);
          break;
        case 'message_stop':
          stopped = true;
          break;
        default:
          break;
      }
    }
    checkStreamEnded(endpoint, signal, silence, stopped || undefined, receivedAnyEvent);
    finished = true;
    yield { type: 'end', stopReason };
  } catch (error) {
    throw streamFailure(error, endpoint, signal, silence, modelErrorFromAnthropic);
  } finally {
    silence.disarm();
    // A consumer that stops iterating early leaves the HTTP response open; close it.
    if (!finished) sdkStream?.controller.abort();
  }
}

function createStream(sdk: Anthropic, request: ModelRequest, signal: AbortSignal) {
  return sdk.messages.create(
    {
      model: request.model,
      max_tokens: request.maxTokens,
      messages: toAnthropicMessages(request.messages),
      ...(request.system === '' ? {} : { system: request.system }),
      ...(request.tools.length === 0
        ? {}
        : {
            tools: request.tools.map((tool) => ({
              name: tool.name,
              description: tool.description,
              input_schema: tool.inputSchema as Anthropic.Tool.InputSchema,
            })),
          }),
      stream: true,
    },
    { signal },
  );
}

/** Arguments as the model streamed them; a call with no arguments at all streams nothing and means `{}`. */
function toolArguments(block: { json: string; startInput: unknown }): string {
  if (block.json !== '') return block.json;
  const startInput = block.startInput;
  const hasStartInput = typeof startInput === 'object' && startInput !== null && Object.keys(startInput).length > 0;
  return hasStartInput ? JSON.stringify(startInput) : '{}';
}

function toStopReason(reason: Anthropic.StopReason): StopReason {
  switch (reason) {
    case 'end_turn':
      return 'end_turn';
    case 'tool_use':
      return 'tool_use';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'max_tokens';
    default:
      return 'other';
  }
}

type ContentBlockParam = Anthropic.TextBlockParam | Anthropic.ToolUseBlockParam | Anthropic.ToolResultBlockParam;

/**
 * Translates the conversation. Tool results become a user message of `tool_result` blocks; consecutive
 * messages of one role are merged (tool results followed by the user's next words become one user message),
 * because the API wants roles to alternate and each `tool_result` right after its `tool_use`.
 */
function toAnthropicMessages(messages: readonly ModelMessage[]): Anthropic.MessageParam[] {
  const result: { role: 'user' | 'assistant'; content: ContentBlockParam[] }[] = [];
  const append = (role: 'user' | 'assistant', blocks: ContentBlockParam[]): void => {
    // An empty message is refused by the API; the model saying nothing is not worth a turn.
    if (blocks.length === 0) return;
    const last = result[result.length - 1];
    if (last !== undefined && last.role === role) last.content.push(...blocks);
    else result.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'user':
        append('user', message.text === '' ? [] : [{ type: 'text', text: message.text }]);
        break;
      case 'assistant':
        append('assistant', [
          ...(message.text === '' ? [] : [{ type: 'text' as const, text: message.text }]),
          ...message.toolCalls.map((call) => ({
            type: 'tool_use' as const,
            id: call.id,
            name: call.name,
            input: inputObject(call.arguments),
          })),
        ]);
        break;
      case 'tool':
        append(
          'user',
          message.results.map((result) => ({
            type: 'tool_result' as const,
            tool_use_id: result.callId,
            content: result.content,
            is_error: result.isError,
          })),
        );
        break;
    }
  }
  return result.map(({ role, content }) => {
    // A lone text block goes as a plain string, the form most Anthropic-compatible servers handle best.
    const only = content[0];
    return content.length === 1 && only?.type === 'text' ? { role, content: only.text } : { role, content };
  });
}

/** `tool_use.input` must be an object; arguments the model garbled are sent as `{}` (their tool result says why). */
function inputObject(argumentsText: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(argumentsText);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  } catch {
    return {};
  }
}
