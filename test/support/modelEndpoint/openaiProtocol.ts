/**
 * The OpenAI Chat Completions API as the endpoint speaks it: `POST /v1/chat/completions` with `stream: true`
 * answered with `data: {chat.completion.chunk}` lines (tool calls in pieces under `delta.tool_calls[].index`,
 * a last chunk with `finish_reason`, then `data: [DONE]`; a refusal in `delta.refusal` with `content` null), errors as
 * `{"error":{"message","type","param","code"}}` (or flat, `{"object":"error","message",...}`, as SGLang, TensorRT-LLM,
 * FastChat and older vLLM send them), and `GET /v1/models`.
 */
import type * as http from 'node:http';
import type { EventStreamWriter } from './eventStream';
import {
  argumentPieces,
  type ConversationTurn,
  looksLikeToolError,
  type ReceivedToolResult,
  type ScriptedFailure,
} from './scenarios';
import {
  type ErrorReply,
  isRecord,
  type ParseResult,
  roughTokens,
  type StreamedReply,
  type StreamOptions,
  type ValidRequest,
  type WireProtocol,
} from './wireProtocol';

export const OPENAI_MODELS = ['gpt-emulated', 'gpt-emulated-mini', 'o3-emulated'] as const;

/** Models that refuse `max_tokens` and want `max_completion_tokens`, as OpenAI's reasoning models do. */
const WANTS_COMPLETION_TOKENS = /^(?:o\d|gpt-5)/;

export const openaiProtocol: WireProtocol = {
  name: 'openai',

  route(method, path) {
    if (method === 'POST' && path === '/v1/chat/completions') return 'generate';
    return method === 'GET' && path === '/v1/models' ? 'models' : undefined;
  },

  keyOf: bearerKey,

  wrongKey: () => wrongKeyError(),

  parse: parseCompletionRequest,

  scriptedError: openaiScriptedError,

  stream: streamCompletion,

  modelList: openaiModelList,

  notFound: openaiNotFound,

  invalidBody: (message) => openaiError(400, message, 'invalid_request_error', null, null),
};

/** The key of an OpenAI request: `Authorization: Bearer KEY`. */
export function bearerKey(request: http.IncomingMessage): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '')?.[1];
}

export function openaiModelList(): unknown {
  return {
    object: 'list',
    data: OPENAI_MODELS.map((id) => ({ id, object: 'model', created: 1735689600, owned_by: 'fdref-emulator' })),
  };
}

export function openaiNotFound(method: string, path: string): ErrorReply {
  return openaiError(404, `Invalid URL (${method} ${path})`, 'invalid_request_error', null, null);
}

/** A scripted failure as OpenAI answers it, nested in `error` or flat. */
export function openaiScriptedError(failure: ScriptedFailure, model: string, flat: boolean): ErrorReply {
  return flat ? flatError(failure, nestedError(failure, model)) : nestedError(failure, model);
}

/** A scripted failure as OpenAI answers it. */
function nestedError(failure: ScriptedFailure, model: string): ErrorReply {
  switch (failure) {
    case 'context':
      return openaiError(
        400,
        "This model's maximum context length is 128000 tokens. However, your messages resulted in 131072 tokens. Please reduce the length of the messages.",
        'invalid_request_error',
        'messages',
        'context_length_exceeded',
      );
    case 400:
      return openaiError(
        400,
        'There was an issue with the format or content of your request.',
        'invalid_request_error',
        null,
        null,
      );
    case 401:
      return wrongKeyError();
    case 403:
      return openaiError(403, 'You are not allowed to sample from this model', 'invalid_request_error', null, null);
    case 404:
      return openaiError(
        404,
        `The model \`${model}\` does not exist or you do not have access to it.`,
        'invalid_request_error',
        null,
        'model_not_found',
      );
    case 429:
      return {
        ...openaiError(
          429,
          `Rate limit reached for ${model} in organization org-emulated on requests per min (RPM): Limit 50, Used 50, Requested 1. Please try again in 1s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          'requests',
          null,
          'rate_limit_exceeded',
        ),
        headers: { 'retry-after': '1', 'x-ratelimit-limit-requests': '50', 'x-ratelimit-remaining-requests': '0' },
      };
    case 500:
      return openaiError(
        500,
        'The server had an error while processing your request. Sorry about that!',
        'server_error',
        null,
        null,
      );
    case 503:
      return openaiError(503, 'Service Unavailable', 'server_error', null, null);
    case 529:
      return openaiError(
        529,
        'The server is overloaded. Please try again later.',
        'overloaded_error',
        null,
        'overloaded',
      );
  }
}

/** vLLM's `ErrorResponse.type` for the statuses it sends; the others by class. */
function flatErrorType(status: number): string {
  if (status === 404) return 'NotFoundError';
  return status >= 500 ? 'InternalServerError' : 'BadRequestError';
}

/**
 * The flat body of SGLang, TensorRT-LLM, FastChat and older vLLM: `{"object":"error","message":"...",
 * "type":"BadRequestError","param":null,"code":400}`, `code` being the HTTP status. A context overflow is worded as vLLM words it.
 */
function flatError(failure: ScriptedFailure, nested: ErrorReply): ErrorReply {
  const inner = (nested.body as { error: { message: string } }).error;
  const message =
    failure === 'context'
      ? "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion."
      : inner.message;
  return {
    ...nested,
    body: { object: 'error', message, type: flatErrorType(nested.status), param: null, code: nested.status },
  };
}

export function wrongKeyError(): ErrorReply {
  return openaiError(
    401,
    'Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.',
    'invalid_request_error',
    null,
    'invalid_api_key',
  );
}

export function openaiError(
  status: number,
  message: string,
  type: string,
  param: string | null,
  code: string | null,
): ErrorReply {
  return { status, body: { error: { message, type, param, code } } };
}

// ---- Validation -------------------------------------------------------------------------------------------

/** Thrown inside the validation, caught at its top: the first problem is the answer, as with the real API. */
class Invalid extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'];

function parseCompletionRequest(body: unknown, _request: http.IncomingMessage): ParseResult {
  try {
    return { ok: true, request: validate(body) };
  } catch (error) {
    if (error instanceof Invalid)
      return { ok: false, error: openaiError(400, error.message, 'invalid_request_error', error.param, error.code) };
    throw error;
  }
}

function validate(body: unknown): ValidRequest {
  if (!isRecord(body)) throw new Invalid('We could not parse the JSON body of your request.');
  const model = body['model'];
  if (typeof model !== 'string' || model === '') throw new Invalid('you must provide a model parameter');
  for (const name of ['max_tokens', 'max_completion_tokens']) {
    const value = body[name];
    if (value !== undefined && (typeof value !== 'number' || !Number.isInteger(value) || value < 1)) {
      throw new Invalid(`Invalid '${name}': integer below minimum value.`, name, 'integer_below_min_value');
    }
  }
  if (body['max_tokens'] !== undefined && WANTS_COMPLETION_TOKENS.test(model)) {
    throw new Invalid(
      "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
      'max_tokens',
      'unsupported_parameter',
    );
  }
  if (body['stream'] !== true)
    throw new Invalid('This emulated endpoint only answers streaming requests; send "stream": true.', 'stream');
  const toolNames = validateTools(body['tools']);
  const messages = body['messages'];
  if (messages === undefined)
    throw new Invalid("Missing required parameter: 'messages'.", 'messages', 'missing_required_parameter');
  if (!Array.isArray(messages))
    throw new Invalid("Invalid type for 'messages': expected an array.", 'messages', 'invalid_type');
  if (messages.length === 0)
    throw new Invalid(
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
      'messages',
      'empty_array',
    );
  const normalized = messages.map(normalizeMessage);
  checkToolPairing(normalized, toolNames);
  const streamOptions = body['stream_options'];
  return {
    model,
    turns: toTurns(normalized),
    toolNames,
    includeUsage: isRecord(streamOptions) && streamOptions['include_usage'] === true,
    promptChars: JSON.stringify(messages).length,
  };
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new Invalid("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  return tools.map((tool, index) => {
    if (!isRecord(tool) || tool['type'] !== 'function')
      throw new Invalid(
        `Invalid value for 'tools[${index}].type': expected 'function'.`,
        `tools[${index}].type`,
        'invalid_value',
      );
    const fn = tool['function'];
    if (!isRecord(fn))
      throw new Invalid(
        `Missing required parameter: 'tools[${index}].function'.`,
        `tools[${index}].function`,
        'missing_required_parameter',
      );
    const name = fn['name'];
    if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,64}$/.test(name)) {
      throw new Invalid(
        `Invalid 'tools[${index}].function.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${index}].function.name`,
        'invalid_value',
      );
    }
    if (fn['parameters'] !== undefined && !isRecord(fn['parameters'])) {
      throw new Invalid(
        `Invalid type for 'tools[${index}].function.parameters': expected an object.`,
        `tools[${index}].function.parameters`,
        'invalid_type',
      );
    }
    return name;
  });
}

type NormalizedMessage =
  | { readonly role: 'system' | 'user'; readonly text: string }
  | { readonly role: 'assistant'; readonly toolCalls: readonly { readonly id: string; readonly name: string }[] }
  | { readonly role: 'tool'; readonly toolCallId: string; readonly content: string };

function normalizeMessage(message: unknown, i: number): NormalizedMessage {
  if (!isRecord(message))
    throw new Invalid(`Invalid type for 'messages[${i}]': expected an object.`, `messages[${i}]`, 'invalid_type');
  const role = message['role'];
  if (typeof role !== 'string' || !ROLES.includes(role)) {
    throw new Invalid(
      `Invalid value: '${String(role)}'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.`,
      `messages[${i}].role`,
      'invalid_value',
    );
  }
  const content = message['content'];
  switch (role) {
    case 'system':
    case 'developer':
    case 'user':
      return { role: role === 'user' ? 'user' : 'system', text: contentText(content, i, false, PART_BREAK) };
    case 'assistant': {
      const toolCalls = message['tool_calls'];
      if (toolCalls !== undefined && !Array.isArray(toolCalls))
        throw new Invalid(
          `Invalid type for 'messages[${i}].tool_calls': expected an array.`,
          `messages[${i}].tool_calls`,
          'invalid_type',
        );
      const calls = (toolCalls ?? []).map((call: unknown, k: number) => {
        const at = `messages[${i}].tool_calls[${k}]`;
        if (!isRecord(call) || typeof call['id'] !== 'string' || call['id'] === '')
          throw new Invalid(`Missing required parameter: '${at}.id'.`, `${at}.id`, 'missing_required_parameter');
        const fn = call['function'];
        if (!isRecord(fn) || typeof fn['name'] !== 'string')
          throw new Invalid(
            `Missing required parameter: '${at}.function'.`,
            `${at}.function`,
            'missing_required_parameter',
          );
        if (typeof fn['arguments'] !== 'string')
          throw new Invalid(
            `Invalid type for '${at}.function.arguments': expected a string.`,
            `${at}.function.arguments`,
            'invalid_type',
          );
        return { id: call['id'], name: fn['name'] };
      });
      if (calls.length === 0) contentText(content, i, false);
      else if (content !== null && content !== undefined) contentText(content, i, true);
      return { role: 'assistant', toolCalls: calls };
    }
    case 'tool': {
      const toolCallId = message['tool_call_id'];
      if (typeof toolCallId !== 'string' || toolCallId === '')
        throw new Invalid(
          `Missing parameter 'tool_call_id': messages with role 'tool' must have a 'tool_call_id'.`,
          `messages[${i}].tool_call_id`,
          'missing_required_parameter',
        );
      return { role: 'tool', toolCallId, content: contentText(content, i, true) };
    }
    default:
      throw new Invalid(
        `The role 'function' is deprecated and not supported by this emulated endpoint.`,
        `messages[${i}].role`,
        'invalid_value',
      );
  }
}

/**
 * Between the text parts of a message the user sent: each part its own paragraph, so a script keyword in the last
 * part is found after the parts a client puts before it (Qwen Code's `<system-reminder>` parts).
 */
const PART_BREAK = '\n\n';

function contentText(content: unknown, i: number, emptyAllowed: boolean, separator = ''): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content) && (content.length > 0 || emptyAllowed)) {
    return content
      .map((part: unknown) =>
        isRecord(part) && part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '',
      )
      .join(separator);
  }
  if ((content === null || content === undefined) && emptyAllowed) return '';
  throw new Invalid(
    `Invalid type for 'messages[${i}].content': expected one of a string or array of objects, but got ${content === null ? 'null' : typeof content} instead.`,
    `messages[${i}].content`,
    'invalid_type',
  );
}

/** Each tool call answered by the `tool` messages right after it, each `tool` message answering one, every tool defined. */
function checkToolPairing(messages: readonly NormalizedMessage[], toolNames: readonly string[]): void {
  messages.forEach((message, i) => {
    if (message.role === 'assistant' && message.toolCalls.length > 0) {
      const undefinedTool = message.toolCalls.find((call) => !toolNames.includes(call.name));
      if (undefinedTool !== undefined) {
        throw new Invalid(
          `Invalid 'messages[${i}].tool_calls': the tool '${undefinedTool.name}' is not defined in 'tools'.`,
          `messages[${i}].tool_calls`,
          'invalid_value',
        );
      }
      const answered = new Set<string>();
      for (let j = i + 1; j < messages.length; j++) {
        const next = messages[j];
        if (next?.role !== 'tool') break;
        answered.add(next.toolCallId);
      }
      const missing = message.toolCalls.filter((call) => !answered.has(call.id)).map((call) => call.id);
      if (missing.length > 0) {
        throw new Invalid(
          `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${missing.join(', ')}`,
          `messages.[${i}].role`,
        );
      }
    }
    if (message.role === 'tool') {
      let j = i - 1;
      while (messages[j]?.role === 'tool') j--;
      const asked = messages[j];
      if (asked?.role !== 'assistant' || !asked.toolCalls.some((call) => call.id === message.toolCallId)) {
        throw new Invalid(
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          `messages.[${i}].role`,
        );
      }
    }
  });
}

/** Consecutive `tool` messages form one turn of results. */
function toTurns(messages: readonly NormalizedMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const namesById = new Map<string, string>();
  let results: ReceivedToolResult[] | undefined;
  for (const message of messages) {
    if (message.role !== 'tool') results = undefined;
    switch (message.role) {
      case 'system':
        break;
      case 'user':
        turns.push({ kind: 'user', text: message.text });
        break;
      case 'assistant':
        for (const call of message.toolCalls) namesById.set(call.id, call.name);
        turns.push({ kind: 'assistant' });
        break;
      case 'tool':
        if (results === undefined) {
          results = [];
          turns.push({ kind: 'toolResults', results });
        }
        results.push({
          callId: message.toolCallId,
          name: namesById.get(message.toolCallId) ?? '',
          content: message.content,
          isError: looksLikeToolError(message.content),
        });
        break;
    }
  }
  return turns;
}

// ---- The stream -------------------------------------------------------------------------------------------

async function streamCompletion(
  writer: EventStreamWriter,
  reply: StreamedReply,
  request: ValidRequest,
  options: StreamOptions,
): Promise<void> {
  const id = options.newId('chatcmpl-emu');
  const created = Math.floor(Date.now() / 1000);
  const chunk = (delta: unknown, finishReason: string | null): string =>
    `data: ${JSON.stringify({
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      system_fingerprint: 'fp_emulated',
      choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
      ...(request.includeUsage ? { usage: null } : {}),
    })}\n\n`;
  writer.start({ 'x-request-id': options.newId('req_emu_') });
  const refusal = reply.kind === 'answer' && reply.refusal === true;
  // A refusal keeps `content` null and streams its text in `refusal`, as OpenAI does.
  const opening = refusal
    ? { role: 'assistant', content: null, refusal: '' }
    : { role: 'assistant', content: '', refusal: null };
  if (!(await writer.write(chunk(opening, null)))) return;

  const chunkDelayMs = reply.kind === 'answer' ? (reply.chunkDelayMs ?? options.chunkDelayMs) : options.chunkDelayMs;
  let outputChars = 0;
  for (const [n, text] of reply.chunks.entries()) {
    if (n > 0 && !(await writer.pause(chunkDelayMs))) return;
    if (!(await writer.write(chunk(refusal ? { refusal: text } : { content: text }, null)))) return;
    outputChars += text.length;
  }
  if (reply.kind === 'drop') {
    await writer.cutOff();
    return;
  }
  if (reply.kind === 'malformed') {
    await writer.write('data: {"id": "chatcmpl-broken", "choices": [ this is not JSON\n\n');
    writer.end();
    return;
  }

  for (const [index, call] of reply.toolCalls.entries()) {
    const first = {
      tool_calls: [
        { index, id: options.newId('call_emu_'), type: 'function', function: { name: call.name, arguments: '' } },
      ],
    };
    if (!(await writer.write(chunk(first, null)))) return;
    for (const piece of argumentPieces(call.arguments)) {
      if (!(await writer.pause(chunkDelayMs))) return;
      if (!(await writer.write(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null)))) return;
    }
    outputChars += call.arguments.length;
  }
  if (!(await writer.write(chunk({}, reply.toolCalls.length > 0 ? 'tool_calls' : 'stop')))) return;
  if (request.includeUsage) {
    const promptTokens = roughTokens(request.promptChars);
    const completionTokens = roughTokens(outputChars);
    const usage = {
      prompt_tokens: promptTokens,
      completion_tokens: completionTokens,
      total_tokens: promptTokens + completionTokens,
    };
    const usageChunk = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: request.model,
      system_fingerprint: 'fp_emulated',
      choices: [],
      usage,
    };
    if (!(await writer.write(`data: ${JSON.stringify(usageChunk)}\n\n`))) return;
  }
  if (await writer.write('data: [DONE]\n\n')) writer.end();
}
