/**
 * The Anthropic Messages API as the endpoint speaks it: `POST /v1/messages` with `stream: true` answered with
 * the real event sequence (message_start, ping, content_block_start/delta/stop, message_delta, message_stop),
 * errors as `{"type":"error","error":{"type","message"}}`, and `GET /v1/models`.
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

export const ANTHROPIC_MODELS = ['claude-emulated-large', 'claude-emulated-small'] as const;

export const anthropicProtocol: WireProtocol = {
  name: 'anthropic',

  route(method, path) {
    if (method === 'POST' && path === '/v1/messages') return 'generate';
    // Claude Code counts before it sends; an estimate is all it needs.
    if (method === 'POST' && path === '/v1/messages/count_tokens') return 'countTokens';
    return method === 'GET' && path === '/v1/models' ? 'models' : undefined;
  },

  countTokens: (chars) => ({ input_tokens: roughTokens(chars) }),

  keyOf(request) {
    const key = request.headers['x-api-key'];
    if (typeof key === 'string') return key;
    const bearer = /^Bearer\s+(.+)$/i.exec(request.headers.authorization ?? '');
    return bearer?.[1];
  },

  wrongKey: () => anthropicError(401, 'authentication_error', 'invalid x-api-key'),

  parse: parseMessagesRequest,

  // Anthropic always wraps its errors, so `flat` changes nothing here.
  scriptedError(failure: ScriptedFailure, model: string): ErrorReply {
    switch (failure) {
      case 'context':
        return anthropicError(400, 'invalid_request_error', 'prompt is too long: 208310 tokens > 200000 maximum');
      case 400:
        return anthropicError(
          400,
          'invalid_request_error',
          'There was an issue with the format or content of your request.',
        );
      case 401:
        return anthropicError(401, 'authentication_error', 'invalid x-api-key');
      case 403:
        return anthropicError(
          403,
          'permission_error',
          'Your API key does not have permission to use the specified resource.',
        );
      case 404:
        return anthropicError(404, 'not_found_error', `model: ${model}`);
      case 429:
        return {
          ...anthropicError(
            429,
            'rate_limit_error',
            'This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please reduce the prompt length or the maximum tokens requested, or try again later.',
          ),
          headers: {
            'retry-after': '1',
            'anthropic-ratelimit-requests-limit': '50',
            'anthropic-ratelimit-requests-remaining': '0',
          },
        };
      case 500:
        return anthropicError(500, 'api_error', 'Internal server error');
      case 503:
        return anthropicError(503, 'api_error', 'Service unavailable');
      case 529:
        return anthropicError(529, 'overloaded_error', 'Overloaded');
    }
  },

  stream: streamMessage,

  modelList: () => ({
    data: ANTHROPIC_MODELS.map((id, index) => ({
      type: 'model',
      id,
      display_name: `Emulated Claude (${id.split('-').pop() ?? ''})`,
      created_at: `2025-0${index + 1}-01T00:00:00Z`,
    })),
    has_more: false,
    first_id: ANTHROPIC_MODELS[0],
    last_id: ANTHROPIC_MODELS[ANTHROPIC_MODELS.length - 1],
  }),

  notFound: () => anthropicError(404, 'not_found_error', 'Not Found'),

  invalidBody: (message) => anthropicError(400, 'invalid_request_error', message),
};

function anthropicError(status: number, type: string, message: string): ErrorReply {
  return { status, body: { type: 'error', error: { type, message }, request_id: `req_emu_${status}` } };
}

// ---- Validation -------------------------------------------------------------------------------------------

/** Thrown inside the validation, caught at its top: the first problem is the answer, as with the real API. */
class Invalid extends Error {}

function parseMessagesRequest(body: unknown, request: http.IncomingMessage): ParseResult {
  try {
    return { ok: true, request: validate(body, request) };
  } catch (error) {
    if (error instanceof Invalid)
      return { ok: false, error: anthropicError(400, 'invalid_request_error', error.message) };
    throw error;
  }
}

function validate(body: unknown, request: http.IncomingMessage): ValidRequest {
  if (typeof request.headers['anthropic-version'] !== 'string')
    throw new Invalid('anthropic-version: header is required');
  if (!isRecord(body)) throw new Invalid('Input should be a valid dictionary');
  const model = body['model'];
  if (typeof model !== 'string' || model === '') throw new Invalid('model: Field required');
  const maxTokens = body['max_tokens'];
  if (maxTokens === undefined) throw new Invalid('max_tokens: Field required');
  if (typeof maxTokens !== 'number' || !Number.isInteger(maxTokens) || maxTokens < 1)
    throw new Invalid('max_tokens: Input should be a valid integer greater than or equal to 1');
  if (body['stream'] !== true)
    throw new Invalid('stream: this emulated endpoint only answers streaming requests; send "stream": true');
  const system = body['system'];
  if (
    system !== undefined &&
    typeof system !== 'string' &&
    !(
      Array.isArray(system) &&
      system.every((block) => isRecord(block) && block['type'] === 'text' && typeof block['text'] === 'string')
    )
  ) {
    throw new Invalid('system: Input should be a valid string or a list of text blocks');
  }
  const toolNames = validateTools(body['tools']);
  const messages = body['messages'];
  if (messages === undefined) throw new Invalid('messages: Field required');
  if (!Array.isArray(messages)) throw new Invalid('messages: Input should be a valid list');
  if (messages.length === 0) throw new Invalid('messages: at least one message is required');
  const normalized = messages.map((message, index) => normalizeMessage(message, index, index === messages.length - 1));
  checkToolPairing(normalized, toolNames);
  return {
    model,
    turns: toTurns(normalized),
    toolNames,
    includeUsage: false,
    promptChars:
      JSON.stringify(messages).length +
      (typeof system === 'string' ? system.length : JSON.stringify(system ?? '').length),
  };
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new Invalid('tools: Input should be a valid list');
  return tools.map((tool, index) => {
    if (!isRecord(tool)) throw new Invalid(`tools.${index}: Input should be a valid dictionary`);
    const name = tool['name'];
    if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(name))
      throw new Invalid(`tools.${index}.custom.name: String should match pattern '^[a-zA-Z0-9_-]{1,128}$'`);
    const schema = tool['input_schema'];
    if (!isRecord(schema)) throw new Invalid(`tools.${index}.custom.input_schema: Field required`);
    if (schema['type'] !== 'object')
      throw new Invalid(`tools.${index}.custom.input_schema.type: Input should be 'object'`);
    if (tool['description'] !== undefined && typeof tool['description'] !== 'string')
      throw new Invalid(`tools.${index}.custom.description: Input should be a valid string`);
    return name;
  });
}

type Block =
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tool_use'; readonly id: string; readonly name: string; readonly index: number }
  | {
      readonly type: 'tool_result';
      readonly toolUseId: string;
      readonly content: string;
      readonly isError: boolean;
      readonly index: number;
    }
  | { readonly type: 'other' };

interface NormalizedMessage {
  readonly role: 'user' | 'assistant';
  readonly blocks: readonly Block[];
}

function normalizeMessage(message: unknown, i: number, isLast: boolean): NormalizedMessage {
  if (!isRecord(message)) throw new Invalid(`messages.${i}: Input should be a valid dictionary`);
  const role = message['role'];
  if (role !== 'user' && role !== 'assistant')
    throw new Invalid(`messages.${i}.role: Input should be 'user' or 'assistant'`);
  const content = message['content'];
  const emptyAllowed = isLast && role === 'assistant';
  if (typeof content === 'string') {
    if (content === '' && !emptyAllowed)
      throw new Invalid(
        `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
      );
    return { role, blocks: [{ type: 'text', text: content }] };
  }
  if (!Array.isArray(content))
    throw new Invalid(`messages.${i}.content: Input should be a valid string or a list of content blocks`);
  if (content.length === 0 && !emptyAllowed)
    throw new Invalid(
      `messages.${i}: all messages must have non-empty content except for the optional final assistant message`,
    );
  return { role, blocks: content.map((block, j) => normalizeBlock(block, role, i, j)) };
}

function normalizeBlock(block: unknown, role: 'user' | 'assistant', i: number, j: number): Block {
  const at = `messages.${i}.content.${j}`;
  if (!isRecord(block)) throw new Invalid(`${at}: Input should be a valid dictionary`);
  switch (block['type']) {
    case 'text': {
      const text = block['text'];
      if (typeof text !== 'string') throw new Invalid(`${at}.text.text: Field required`);
      if (text === '') throw new Invalid('messages: text content blocks must be non-empty');
      return { type: 'text', text };
    }
    case 'tool_use': {
      if (role !== 'assistant') throw new Invalid(`${at}: tool_use blocks can only appear in assistant messages`);
      const { id, name, input } = block;
      if (typeof id !== 'string' || id === '') throw new Invalid(`${at}.tool_use.id: Field required`);
      if (typeof name !== 'string' || name === '') throw new Invalid(`${at}.tool_use.name: Field required`);
      if (!isRecord(input)) throw new Invalid(`${at}.tool_use.input: Input should be a valid dictionary`);
      return { type: 'tool_use', id, name, index: j };
    }
    case 'tool_result': {
      if (role !== 'user') throw new Invalid(`${at}: tool_result blocks can only appear in user messages`);
      const toolUseId = block['tool_use_id'];
      if (typeof toolUseId !== 'string' || toolUseId === '')
        throw new Invalid(`${at}.tool_result.tool_use_id: Field required`);
      const isError = block['is_error'];
      if (isError !== undefined && typeof isError !== 'boolean')
        throw new Invalid(`${at}.tool_result.is_error: Input should be a valid boolean`);
      const content = toolResultText(block['content'], at);
      return {
        type: 'tool_result',
        toolUseId,
        content,
        isError: isError === true || looksLikeToolError(content),
        index: j,
      };
    }
    case 'image':
    case 'document':
    case 'thinking':
    case 'redacted_thinking':
      return { type: 'other' };
    default:
      throw new Invalid(
        `${at}: Input tag '${String(block['type'])}' found using 'type' does not match any of the expected tags`,
      );
  }
}

function toolResultText(content: unknown, at: string): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((part, k) => {
        if (!isRecord(part)) throw new Invalid(`${at}.tool_result.content.${k}: Input should be a valid dictionary`);
        return part['type'] === 'text' && typeof part['text'] === 'string' ? part['text'] : '';
      })
      .join('');
  }
  throw new Invalid(`${at}.tool_result.content: Input should be a valid string or a list of content blocks`);
}

/** Each tool_use answered in the very next message, each tool_result answering the message before, every tool defined. */
function checkToolPairing(messages: readonly NormalizedMessage[], toolNames: readonly string[]): void {
  messages.forEach((message, i) => {
    const uses = message.blocks.filter((block) => block.type === 'tool_use');
    const results = message.blocks.filter((block) => block.type === 'tool_result');
    if ((uses.length > 0 || results.length > 0) && toolNames.length === 0) {
      throw new Invalid('Requests which include `tool_use` or `tool_result` blocks must define tools.');
    }
    for (const use of uses) {
      if (!toolNames.includes(use.name))
        throw new Invalid(
          `messages.${i}.content.${use.index}: tool_use names a tool that is not defined in \`tools\`: ${use.name}`,
        );
    }
    if (uses.length > 0) {
      const next = messages[i + 1];
      const answered = new Set(
        next?.role === 'user'
          ? next.blocks.flatMap((block) => (block.type === 'tool_result' ? [block.toolUseId] : []))
          : [],
      );
      const missing = uses.filter((use) => !answered.has(use.id)).map((use) => use.id);
      if (missing.length > 0) {
        throw new Invalid(
          `messages.${i + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${missing.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
        );
      }
    }
    if (results.length > 0) {
      const previous = messages[i - 1];
      const asked = new Set(
        previous?.role === 'assistant'
          ? previous.blocks.flatMap((block) => (block.type === 'tool_use' ? [block.id] : []))
          : [],
      );
      const stray = results.find((result) => !asked.has(result.toolUseId));
      if (stray !== undefined) {
        throw new Invalid(
          `messages.${i}.content.${stray.index}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${stray.toolUseId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
        );
      }
    }
  });
}

/** A user message with text counts as typed by the user (after its tool results, when it has both). */
function toTurns(messages: readonly NormalizedMessage[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const namesById = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'assistant') {
      for (const block of message.blocks) if (block.type === 'tool_use') namesById.set(block.id, block.name);
      turns.push({ kind: 'assistant' });
      continue;
    }
    const results: ReceivedToolResult[] = message.blocks.flatMap((block) =>
      block.type === 'tool_result'
        ? [
            {
              callId: block.toolUseId,
              name: namesById.get(block.toolUseId) ?? '',
              content: block.content,
              isError: block.isError,
            },
          ]
        : [],
    );
    if (results.length > 0) turns.push({ kind: 'toolResults', results });
    const text = message.blocks.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('\n');
    if (text !== '') turns.push({ kind: 'user', text });
  }
  return turns;
}

// ---- The stream -------------------------------------------------------------------------------------------

function event(type: string, data: unknown): string {
  return `event: ${type}\ndata: ${JSON.stringify(data)}\n\n`;
}

async function streamMessage(
  writer: EventStreamWriter,
  reply: StreamedReply,
  request: ValidRequest,
  options: StreamOptions,
): Promise<void> {
  const messageId = options.newId('msg_emu_');
  writer.start({ 'request-id': options.newId('req_emu_') });
  const inputTokens = roughTokens(request.promptChars);
  const started =
    (await writer.write(
      event('message_start', {
        type: 'message_start',
        message: {
          id: messageId,
          type: 'message',
          role: 'assistant',
          model: request.model,
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: inputTokens, output_tokens: 1 },
        },
      }),
    )) && (await writer.write(event('ping', { type: 'ping' })));
  if (!started) return;

  const chunkDelayMs = reply.kind === 'answer' ? (reply.chunkDelayMs ?? options.chunkDelayMs) : options.chunkDelayMs;
  let blockIndex = 0;
  let outputChars = 0;
  if (reply.chunks.length > 0) {
    if (
      !(await writer.write(
        event('content_block_start', {
          type: 'content_block_start',
          index: blockIndex,
          content_block: { type: 'text', text: '' },
        }),
      ))
    )
      return;
    for (const [n, chunk] of reply.chunks.entries()) {
      if (n > 0 && !(await writer.pause(chunkDelayMs))) return;
      if (
        !(await writer.write(
          event('content_block_delta', {
            type: 'content_block_delta',
            index: blockIndex,
            delta: { type: 'text_delta', text: chunk },
          }),
        ))
      )
        return;
      outputChars += chunk.length;
    }
  }

  if (reply.kind === 'drop') {
    await writer.cutOff();
    return;
  }
  if (reply.kind === 'malformed') {
    await writer.write(
      `event: content_block_delta\ndata: {"type": "content_block_delta", "index": 0, "delta": this is not JSON\n\n`,
    );
    writer.end();
    return;
  }

  if (reply.chunks.length > 0) {
    if (!(await writer.write(event('content_block_stop', { type: 'content_block_stop', index: blockIndex })))) return;
    blockIndex++;
  }
  for (const call of reply.toolCalls) {
    const start = {
      type: 'content_block_start',
      index: blockIndex,
      content_block: { type: 'tool_use', id: options.newId('toolu_emu_'), name: call.name, input: {} },
    };
    if (!(await writer.write(event('content_block_start', start)))) return;
    // The real API opens every tool input with an empty piece.
    for (const piece of ['', ...argumentPieces(call.arguments)]) {
      if (piece !== '' && !(await writer.pause(chunkDelayMs))) return;
      if (
        !(await writer.write(
          event('content_block_delta', {
            type: 'content_block_delta',
            index: blockIndex,
            delta: { type: 'input_json_delta', partial_json: piece },
          }),
        ))
      )
        return;
    }
    if (!(await writer.write(event('content_block_stop', { type: 'content_block_stop', index: blockIndex })))) return;
    outputChars += call.arguments.length;
    blockIndex++;
  }
  // A refusal streams as text and ends with the stop reason `refusal`.
  const stopReason =
    reply.toolCalls.length > 0
      ? 'tool_use'
      : reply.kind === 'answer' && reply.refusal === true
        ? 'refusal'
        : 'end_turn';
  const finished =
    (await writer.write(
      event('message_delta', {
        type: 'message_delta',
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: roughTokens(outputChars) },
      }),
    )) && (await writer.write(event('message_stop', { type: 'message_stop' })));
  if (finished) writer.end();
}
