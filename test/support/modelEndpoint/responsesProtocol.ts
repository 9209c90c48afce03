/**
 * The OpenAI Responses API as the endpoint speaks it: `POST /v1/responses` with `stream: true`, answered with the
 * event sequence OpenAI sends (each as `event: TYPE` and `data: {...}` with a `sequence_number`):
 * `response.created`, `response.in_progress`; for the text, `response.output_item.added` (a `message` item),
 * `response.content_part.added`, `response.output_text.delta`s, `response.output_text.done`,
 * `response.content_part.done`, `response.output_item.done`; for each call, `response.output_item.added` (a
 * `function_call` item with empty `arguments`), `response.function_call_arguments.delta`s,
 * `response.function_call_arguments.done`, `response.output_item.done` (the whole item, which is what Codex acts on);
 * then `response.completed` with the whole output and the usage. A refusal is a `refusal` content part
 * (`response.refusal.delta` / `.done`). Errors before the stream have Chat Completions' shape (the same API family).
 * The input is the Responses items: messages (typed or as `{role, content}`), `function_call` /
 * `function_call_output`, `custom_tool_call` / `custom_tool_call_output`, `local_shell_call` /
 * `local_shell_call_output`; `reasoning` and other items are skipped.
 */
import type * as http from 'node:http';
import type { EventStreamWriter } from './eventStream';
import {
  bearerKey,
  openaiError,
  openaiModelList,
  openaiNotFound,
  openaiScriptedError,
  wrongKeyError,
} from './openaiProtocol';
import { argumentPieces, type ConversationTurn, looksLikeToolError, type ReceivedToolResult } from './scenarios';
import {
  isRecord,
  type ParseResult,
  roughTokens,
  type StreamedReply,
  type StreamOptions,
  type ValidRequest,
  type WireProtocol,
} from './wireProtocol';

export const responsesProtocol: WireProtocol = {
  name: 'responses',

  route: (method, path) => (method === 'POST' && path === '/v1/responses' ? 'generate' : undefined),

  keyOf: bearerKey,

  wrongKey: () => wrongKeyError(),

  parse: parseResponsesRequest,

  scriptedError: openaiScriptedError,

  stream: streamResponse,

  modelList: openaiModelList,

  notFound: openaiNotFound,

  invalidBody: (message) => openaiError(400, message, 'invalid_request_error', null, null),
};

// ---- Validation -------------------------------------------------------------------------------------------

class Invalid extends Error {
  constructor(
    message: string,
    readonly param: string | null = null,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

/** Item types that carry a call, with the type of the item that answers it. */
const CALL_ITEMS: Readonly<Record<string, string>> = {
  function_call: 'function_call_output',
  custom_tool_call: 'custom_tool_call_output',
  local_shell_call: 'local_shell_call_output',
};
const OUTPUT_ITEMS = new Set(Object.values(CALL_ITEMS));
const MESSAGE_ROLES = ['user', 'assistant', 'system', 'developer'];

type InputItem =
  | { readonly kind: 'user'; readonly text: string }
  | { readonly kind: 'system' }
  /** An assistant message, a call or reasoning: what the model said in one turn. */
  | { readonly kind: 'assistant'; readonly call?: { readonly callId: string; readonly name: string } }
  | { readonly kind: 'output'; readonly callId: string; readonly content: string };

function parseResponsesRequest(body: unknown, _request: http.IncomingMessage): ParseResult {
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
  if (typeof model !== 'string' || model === '')
    throw new Invalid("Missing required parameter: 'model'.", 'model', 'missing_required_parameter');
  const maxOutput = body['max_output_tokens'];
  if (maxOutput !== undefined && maxOutput !== null && (typeof maxOutput !== 'number' || maxOutput < 16))
    throw new Invalid(
      "Invalid 'max_output_tokens': integer below minimum value. Expected a value >= 16.",
      'max_output_tokens',
      'integer_below_min_value',
    );
  if (body['stream'] !== true)
    throw new Invalid('This emulated endpoint only answers streaming requests; send "stream": true.', 'stream');
  const namespaced = new Map<string, NamespacedTool>();
  const toolNames = validateTools(body['tools'], namespaced);
  const input = body['input'];
  let items: InputItem[];
  if (typeof input === 'string') items = [{ kind: 'user', text: input }];
  else if (Array.isArray(input)) items = input.map(normalizeItem);
  else throw new Invalid("Missing required parameter: 'input'.", 'input', 'missing_required_parameter');
  checkPairing(items, toolNames);
  const valid: ValidRequest = {
    model,
    turns: toTurns(items),
    toolNames,
    includeUsage: true,
    promptChars: JSON.stringify(input).length + JSON.stringify(body['instructions'] ?? '').length,
  };
  NAMESPACED_TOOLS.set(valid, namespaced);
  return valid;
}

/** A function tool inside a `namespace` tool, which a call names by `name` and `namespace`. */
interface NamespacedTool {
  readonly namespace: string;
  readonly name: string;
}

/**
 * The namespaced tools of each request, by the name the scripts see (`<namespace>__<name>`, e.g. Codex's MCP tools
 * `mcp__fdref` + `run_command` as `mcp__fdref__run_command`), so a scripted call of one goes out as the API sends it.
 */
const NAMESPACED_TOOLS = new WeakMap<ValidRequest, ReadonlyMap<string, NamespacedTool>>();

/** The name the scripts and the pairing check know a call by: `<namespace>__<name>` for a namespaced one. */
function qualifiedName(namespace: unknown, name: string): string {
  return typeof namespace === 'string' && namespace !== '' ? `${namespace}__${name}` : name;
}

/**
 * Function and custom tools by name; hosted tools (`web_search`, `local_shell`, ...) by type; the function tools of a
 * `namespace` tool (Codex offers each MCP server's tools as one, `{type: "namespace", name: "mcp__fdref", tools}`) as
 * `<namespace>__<name>`, recorded in `namespaced`.
 */
function validateTools(tools: unknown, namespaced: Map<string, NamespacedTool>): string[] {
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools)) throw new Invalid("Invalid type for 'tools': expected an array.", 'tools', 'invalid_type');
  return tools.flatMap((tool, index) => {
    if (!isRecord(tool) || typeof tool['type'] !== 'string')
      throw new Invalid(`Missing required parameter: 'tools[${index}].type'.`, `tools[${index}].type`);
    const type = tool['type'];
    if (type === 'namespace' && typeof tool['name'] === 'string' && Array.isArray(tool['tools'])) {
      const namespace = tool['name'];
      return validateTools(tool['tools'], new Map()).map((name) => {
        namespaced.set(qualifiedName(namespace, name), { namespace, name });
        return qualifiedName(namespace, name);
      });
    }
    if (type !== 'function' && type !== 'custom') return type;
    const name = tool['name'];
    if (typeof name !== 'string' || !/^[a-zA-Z0-9_-]{1,128}$/.test(name))
      throw new Invalid(
        `Invalid 'tools[${index}].name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`,
        `tools[${index}].name`,
        'invalid_value',
      );
    if (type === 'function' && tool['parameters'] !== undefined && !isRecord(tool['parameters']))
      throw new Invalid(
        `Invalid type for 'tools[${index}].parameters': expected an object.`,
        `tools[${index}].parameters`,
        'invalid_type',
      );
    return name;
  });
}

function normalizeItem(item: unknown, i: number): InputItem {
  if (!isRecord(item)) throw new Invalid(`Invalid type for 'input[${i}]': expected an object.`, `input[${i}]`);
  const type = item['type'] ?? (item['role'] !== undefined ? 'message' : undefined);
  if (type === 'message') {
    const role = item['role'];
    if (typeof role !== 'string' || !MESSAGE_ROLES.includes(role))
      throw new Invalid(
        `Invalid value: '${String(role)}'. Supported values are: 'assistant', 'system', 'developer', and 'user'.`,
        `input[${i}].role`,
        'invalid_value',
      );
    // Each part its own paragraph, so a script keyword in the last part is found after the client's own parts.
    const text = contentText(item['content'], `input[${i}].content`, '\n\n');
    if (role === 'user') return { kind: 'user', text };
    return role === 'assistant' ? { kind: 'assistant' } : { kind: 'system' };
  }
  if (typeof type === 'string' && type in CALL_ITEMS) {
    const callId = item['call_id'] ?? (type === 'local_shell_call' ? item['id'] : undefined);
    if (typeof callId !== 'string' || callId === '')
      throw new Invalid(
        `Missing required parameter: 'input[${i}].call_id'.`,
        `input[${i}].call_id`,
        'missing_required_parameter',
      );
    const plain = type === 'local_shell_call' ? 'local_shell' : item['name'];
    if (typeof plain !== 'string')
      throw new Invalid(`Missing required parameter: 'input[${i}].name'.`, `input[${i}].name`);
    const name = qualifiedName(item['namespace'], plain);
    if (type === 'function_call' && typeof item['arguments'] !== 'string')
      throw new Invalid(
        `Invalid type for 'input[${i}].arguments': expected a string.`,
        `input[${i}].arguments`,
        'invalid_type',
      );
    return { kind: 'assistant', call: { callId, name } };
  }
  if (typeof type === 'string' && OUTPUT_ITEMS.has(type)) {
    const callId = item['call_id'] ?? item['id'];
    if (typeof callId !== 'string' || callId === '')
      throw new Invalid(
        `Missing required parameter: 'input[${i}].call_id'.`,
        `input[${i}].call_id`,
        'missing_required_parameter',
      );
    return { kind: 'output', callId, content: contentText(item['output'], `input[${i}].output`) };
  }
  if (typeof type !== 'string')
    throw new Invalid(`Missing required parameter: 'input[${i}].type'.`, `input[${i}].type`);
  // reasoning, web_search_call, compaction and the like: part of the model's turn, nothing the scripts read.
  return type === 'reasoning' ? { kind: 'assistant' } : { kind: 'system' };
}

/** A string, or the text of an array of content parts (`input_text`, `output_text`, `text`, `refusal`). */
function contentText(content: unknown, param: string, separator = ''): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content))
    return content
      .map((part: unknown) => {
        if (!isRecord(part)) return '';
        const text = part['text'] ?? part['refusal'];
        return typeof text === 'string' ? text : '';
      })
      .join(separator);
  throw new Invalid(
    `Invalid type for '${param}': expected one of a string or array of objects, but got ${content === null ? 'null' : typeof content} instead.`,
    param,
    'invalid_type',
  );
}

/** Every call answered by an output and every output answering a call, in the API's words; called tools offered. */
function checkPairing(items: readonly InputItem[], toolNames: readonly string[]): void {
  const calls = new Map<string, string>();
  const answered = new Set<string>();
  for (const item of items) {
    if (item.kind === 'assistant' && item.call !== undefined) {
      calls.set(item.call.callId, item.call.name);
      if (item.call.name !== 'local_shell' && toolNames.length > 0 && !toolNames.includes(item.call.name))
        throw new Invalid(`Tool '${item.call.name}' not found in 'tools'.`, 'input', 'invalid_value');
    }
    if (item.kind === 'output') {
      if (!calls.has(item.callId))
        throw new Invalid(`No tool call found for function call output with call_id ${item.callId}.`, 'input');
      answered.add(item.callId);
    }
  }
  const unanswered = [...calls.keys()].find((callId) => !answered.has(callId));
  if (unanswered !== undefined) throw new Invalid(`No tool output found for function call ${unanswered}.`, 'input');
}

/** Consecutive items of the model's make one assistant turn; consecutive outputs one turn of results. */
function toTurns(items: readonly InputItem[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  const names = new Map<string, string>();
  let results: ReceivedToolResult[] | undefined;
  let inAssistant = false;
  for (const item of items) {
    if (item.kind !== 'output') results = undefined;
    if (item.kind !== 'assistant') inAssistant = false;
    switch (item.kind) {
      case 'system':
        break;
      case 'user':
        turns.push({ kind: 'user', text: item.text });
        break;
      case 'assistant':
        if (item.call !== undefined) names.set(item.call.callId, item.call.name);
        if (!inAssistant) turns.push({ kind: 'assistant' });
        inAssistant = true;
        break;
      case 'output':
        if (results === undefined) {
          results = [];
          turns.push({ kind: 'toolResults', results });
        }
        results.push({
          callId: item.callId,
          name: names.get(item.callId) ?? '',
          content: item.content,
          isError: looksLikeToolError(item.content),
        });
        break;
    }
  }
  return turns;
}

// ---- The stream -------------------------------------------------------------------------------------------

async function streamResponse(
  writer: EventStreamWriter,
  reply: StreamedReply,
  request: ValidRequest,
  options: StreamOptions,
): Promise<void> {
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>): Promise<boolean> =>
    writer.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`);
  const responseId = options.newId('resp_emu');
  const createdAt = Math.floor(Date.now() / 1000);
  const output: Record<string, unknown>[] = [];
  const response = (status: 'in_progress' | 'completed', usage: unknown): Record<string, unknown> => ({
    id: responseId,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: null,
    max_output_tokens: null,
    model: request.model,
    output: status === 'completed' ? output : [],
    parallel_tool_calls: true,
    previous_response_id: null,
    reasoning: { effort: null, summary: null },
    store: false,
    temperature: 1,
    text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: [],
    top_p: 1,
    truncation: 'disabled',
    usage,
    user: null,
    metadata: {},
  });
  writer.start({ 'x-request-id': options.newId('req_emu_') });
  if (!(await send('response.created', { response: response('in_progress', null) }))) return;
  if (!(await send('response.in_progress', { response: response('in_progress', null) }))) return;

  const chunkDelayMs = reply.kind === 'answer' ? (reply.chunkDelayMs ?? options.chunkDelayMs) : options.chunkDelayMs;
  const refusal = reply.kind === 'answer' && reply.refusal === true;
  let outputChars = 0;
  if (reply.chunks.length > 0) {
    const itemId = options.newId('msg_emu');
    const at = { item_id: itemId, output_index: output.length, content_index: 0 };
    const part = (text: string): Record<string, unknown> =>
      refusal ? { type: 'refusal', refusal: text } : { type: 'output_text', annotations: [], logprobs: [], text };
    const item = (status: string, content: unknown[]): Record<string, unknown> => ({
      id: itemId,
      type: 'message',
      status,
      content,
      role: 'assistant',
    });
    if (!(await send('response.output_item.added', { output_index: at.output_index, item: item('in_progress', []) })))
      return;
    if (!(await send('response.content_part.added', { ...at, part: part('') }))) return;
    let text = '';
    for (const [n, chunk] of reply.chunks.entries()) {
      if (n > 0 && !(await writer.pause(chunkDelayMs))) return;
      const delta = refusal
        ? send('response.refusal.delta', { ...at, delta: chunk })
        : send('response.output_text.delta', { ...at, delta: chunk, logprobs: [] });
      if (!(await delta)) return;
      text += chunk;
    }
    outputChars += text.length;
    if (reply.kind === 'drop') {
      await writer.cutOff();
      return;
    }
    if (reply.kind === 'malformed') {
      await writer.write(
        'event: response.output_text.delta\ndata: {"type": "response.output_text.delta", this is not JSON\n\n',
      );
      writer.end();
      return;
    }
    const done = refusal
      ? send('response.refusal.done', { ...at, refusal: text })
      : send('response.output_text.done', { ...at, text, logprobs: [] });
    if (!(await done)) return;
    if (!(await send('response.content_part.done', { ...at, part: part(text) }))) return;
    const finished = item('completed', [part(text)]);
    output.push(finished);
    if (!(await send('response.output_item.done', { output_index: at.output_index, item: finished }))) return;
  }
  if (reply.kind !== 'answer') return;

  for (const call of reply.toolCalls) {
    const itemId = options.newId('fc_emu');
    const outputIndex = output.length;
    const namespaced = NAMESPACED_TOOLS.get(request)?.get(call.name);
    const name = namespaced?.name ?? call.name;
    const item = (status: string, args: string): Record<string, unknown> => ({
      id: itemId,
      type: 'function_call',
      status,
      arguments: args,
      call_id: options.newId('call_emu_'),
      name,
      ...(namespaced === undefined ? {} : { namespace: namespaced.namespace }),
    });
    const added = item('in_progress', '');
    if (!(await send('response.output_item.added', { output_index: outputIndex, item: added }))) return;
    for (const piece of argumentPieces(call.arguments)) {
      if (!(await writer.pause(chunkDelayMs))) return;
      if (
        !(await send('response.function_call_arguments.delta', {
          item_id: itemId,
          output_index: outputIndex,
          delta: piece,
        }))
      )
        return;
    }
    if (
      !(await send('response.function_call_arguments.done', {
        item_id: itemId,
        output_index: outputIndex,
        name,
        arguments: call.arguments,
      }))
    )
      return;
    const finished = { ...added, status: 'completed', arguments: call.arguments };
    output.push(finished);
    if (!(await send('response.output_item.done', { output_index: outputIndex, item: finished }))) return;
    outputChars += call.arguments.length;
  }
  const inputTokens = roughTokens(request.promptChars);
  const outputTokens = roughTokens(outputChars);
  const usage = {
    input_tokens: inputTokens,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: inputTokens + outputTokens,
  };
  if (await send('response.completed', { response: response('completed', usage) })) writer.end();
}
