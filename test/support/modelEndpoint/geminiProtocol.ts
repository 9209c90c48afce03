/**
 * Gemini's generateContent API as the endpoint speaks it (the Gemini Developer API, `v1beta`):
 * `POST /v1beta/models/MODEL:streamGenerateContent?alt=sse` answered with `data: {GenerateContentResponse}` lines
 * ended by `\r\n\r\n` as Google sends them (each a candidate whose `content.parts` hold the new text, a function call
 * whole in one part as Gemini streams it, the last with `finishReason` and the usage), `:generateContent` answered
 * with one JSON response, `:countTokens`, and `GET /v1beta/models`. Errors are `{"error":{"code","message","status"}}`
 * (a wrong key is Google's 400 `API_KEY_INVALID`). The request: `contents` of `user` and `model` turns whose parts
 * are `text`, `functionCall {name, args, id?}` and `functionResponse {name, response, id?}`, `systemInstruction`,
 * `tools[].functionDeclarations`. The SSE framing is what @google/genai's parser reads (`/^\s*data: (.*)(?:\n\n|\r\r|\r\n\r\n)/`).
 */
import type * as http from 'node:http';
import type { EventStreamWriter } from './eventStream';
import { type ConversationTurn, looksLikeToolError, type ReceivedToolResult, type ScriptedFailure } from './scenarios';
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

export const GEMINI_MODELS = ['gemini-emulated-pro', 'gemini-emulated-flash'] as const;

/** `/v1beta/models/MODEL:METHOD` (also `v1`, `v1alpha`), MODEL possibly with slashes (`models/` or tuned models). */
const METHOD_PATH = /^\/v1(?:beta|alpha)?\/models\/(.+):(streamGenerateContent|generateContent|countTokens)$/;

export const geminiProtocol: WireProtocol = {
  name: 'gemini',

  route(method, path) {
    if (method === 'GET' && /^\/v1(?:beta|alpha)?\/models$/.test(path)) return 'models';
    const match = METHOD_PATH.exec(path);
    if (method !== 'POST' || match === null) return undefined;
    return match[2] === 'countTokens' ? 'countTokens' : 'generate';
  },

  countTokens: (chars) => ({
    totalTokens: roughTokens(chars),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: roughTokens(chars) }],
  }),

  keyOf(request) {
    const header = request.headers['x-goog-api-key'];
    if (typeof header === 'string') return header;
    return new URL(request.url ?? '/', 'http://localhost').searchParams.get('key') ?? undefined;
  },

  wrongKey: () => ({
    status: 400,
    body: {
      error: {
        code: 400,
        message: 'API key not valid. Please pass a valid API key.',
        status: 'INVALID_ARGUMENT',
        details: [
          {
            '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
            reason: 'API_KEY_INVALID',
            domain: 'googleapis.com',
            metadata: { service: 'generativelanguage.googleapis.com' },
          },
        ],
      },
    },
  }),

  parse: parseGenerateRequest,

  // Google always wraps its errors, so `flat` changes nothing here.
  scriptedError(failure: ScriptedFailure, model: string): ErrorReply {
    switch (failure) {
      case 'context':
        return googleError(
          400,
          'INVALID_ARGUMENT',
          'The input token count (1048577) exceeds the maximum number of tokens allowed (1048576).',
        );
      case 400:
        return googleError(400, 'INVALID_ARGUMENT', 'Request contains an invalid argument.');
      case 401:
        return googleError(
          401,
          'UNAUTHENTICATED',
          'Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.',
        );
      case 403:
        return googleError(403, 'PERMISSION_DENIED', 'The caller does not have permission');
      case 404:
        return googleError(
          404,
          'NOT_FOUND',
          `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`,
        );
      case 429:
        return {
          ...googleError(
            429,
            'RESOURCE_EXHAUSTED',
            'You exceeded your current quota, please check your plan and billing details. Please retry in 1s.',
            [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '1s' }],
          ),
          headers: { 'retry-after': '1' },
        };
      case 500:
        return googleError(
          500,
          'INTERNAL',
          'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting',
        );
      case 503:
      case 529: // Google has no 529; its overload is a 503.
        return googleError(503, 'UNAVAILABLE', 'The model is overloaded. Please try again later.');
    }
  },

  stream: streamGenerate,

  modelList: () => ({
    models: GEMINI_MODELS.map((id) => ({
      name: `models/${id}`,
      version: '001',
      displayName: id,
      description: 'An emulated model of the fdref test endpoint.',
      inputTokenLimit: 1048576,
      outputTokenLimit: 65536,
      supportedGenerationMethods: ['generateContent', 'countTokens'],
      temperature: 1,
      topP: 0.95,
      topK: 64,
    })),
  }),

  notFound: (method, path) => googleError(404, 'NOT_FOUND', `Requested entity was not found. (${method} ${path})`),

  invalidBody: (message) => googleError(400, 'INVALID_ARGUMENT', message),
};

function googleError(status: number, code: string, message: string, details?: unknown[]): ErrorReply {
  return { status, body: { error: { code: status, message, status: code, ...(details ? { details } : {}) } } };
}

// ---- Validation -------------------------------------------------------------------------------------------

class Invalid extends Error {}

/** Whether the request asked for a stream (`:streamGenerateContent`) or one response (`:generateContent`). */
const streaming = new WeakMap<ValidRequest, boolean>();

function parseGenerateRequest(body: unknown, request: http.IncomingMessage): ParseResult {
  const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/^\/gemini(?=\/)/, '');
  const match = METHOD_PATH.exec(path);
  try {
    const valid = validate(body, (match?.[1] ?? '').replace(/^models\//, ''));
    streaming.set(valid, match?.[2] === 'streamGenerateContent');
    return { ok: true, request: valid };
  } catch (error) {
    if (error instanceof Invalid) return { ok: false, error: googleError(400, 'INVALID_ARGUMENT', error.message) };
    throw error;
  }
}

interface Content {
  readonly role: 'user' | 'model';
  readonly texts: string[];
  readonly calls: string[];
  readonly responses: { readonly name: string; readonly id: string | undefined; readonly output: string }[];
}

function validate(body: unknown, model: string): ValidRequest {
  if (!isRecord(body)) throw new Invalid('Invalid JSON payload received.');
  const toolNames = validateTools(body['tools']);
  const contents = body['contents'];
  if (!Array.isArray(contents) || contents.length === 0)
    throw new Invalid('* GenerateContentRequest.contents: contents is not specified\n');
  const parsed = contents.map(parseContent);
  parsed.forEach((content, i) => {
    if (content.role !== 'model' || content.calls.length === 0) return;
    const undeclared = content.calls.find((name) => !toolNames.includes(name));
    if (undeclared !== undefined)
      throw new Invalid(`* GenerateContentRequest.contents[${i}]: function ${undeclared} is not declared in tools\n`);
    const next = parsed[i + 1];
    if (next !== undefined && next.responses.length !== content.calls.length)
      throw new Invalid(
        'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
      );
  });
  parsed.forEach((content, i) => {
    if (content.responses.length > 0 && parsed[i - 1]?.calls.length === 0)
      throw new Invalid(
        'Please ensure that function response turn comes immediately after a function call turn. And the number of function response parts should be equal to number of function call parts of the function call turn.',
      );
  });
  return {
    model,
    turns: toTurns(parsed),
    toolNames,
    includeUsage: true,
    promptChars: JSON.stringify(contents).length + JSON.stringify(body['systemInstruction'] ?? '').length,
  };
}

function validateTools(tools: unknown): string[] {
  if (tools === undefined) return [];
  if (!Array.isArray(tools)) throw new Invalid("Invalid value at 'tools': expected a list of Tool.");
  return tools.flatMap((tool, t) => {
    if (!isRecord(tool)) throw new Invalid(`Invalid value at 'tools[${t}]'.`);
    const declarations = tool['functionDeclarations'];
    if (declarations === undefined) return []; // googleSearch, codeExecution, ...
    if (!Array.isArray(declarations))
      throw new Invalid(`Invalid value at 'tools[${t}].function_declarations': expected a list.`);
    return declarations.map((declaration: unknown, d: number) => {
      const name = isRecord(declaration) ? declaration['name'] : undefined;
      if (typeof name !== 'string' || !/^[a-zA-Z_][a-zA-Z0-9_.:-]{0,127}$/.test(name))
        throw new Invalid(
          `* GenerateContentRequest.tools[${t}].function_declarations[${d}].name: Invalid function name. Must start with a letter or an underscore. Must be alphameric (a-z, A-Z, 0-9), underscores (_), dots (.), colons (:), or dashes (-), with a maximum length of 128.\n`,
        );
      return name;
    });
  });
}

function parseContent(content: unknown, i: number): Content {
  if (!isRecord(content)) throw new Invalid(`Invalid value at 'contents[${i}]'.`);
  const role = content['role'] ?? 'user';
  if (role !== 'user' && role !== 'model') throw new Invalid('Please use a valid role: user, model.');
  const parts = content['parts'];
  if (!Array.isArray(parts) || parts.length === 0)
    throw new Invalid(`* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`);
  const parsed: Content = { role, texts: [], calls: [], responses: [] };
  for (const part of parts as unknown[]) {
    if (!isRecord(part)) throw new Invalid(`Invalid value at 'contents[${i}].parts'.`);
    if (typeof part['text'] === 'string') {
      if (part['thought'] !== true) parsed.texts.push(part['text']);
    } else if (isRecord(part['functionCall'])) {
      const name = part['functionCall']['name'];
      if (typeof name !== 'string')
        throw new Invalid(`* GenerateContentRequest.contents[${i}].parts: function_call.name is required\n`);
      parsed.calls.push(name);
    } else if (isRecord(part['functionResponse'])) {
      const response = part['functionResponse'];
      const name = response['name'];
      if (typeof name !== 'string')
        throw new Invalid(`* GenerateContentRequest.contents[${i}].parts: function_response.name is required\n`);
      parsed.responses.push({
        name,
        id: typeof response['id'] === 'string' ? response['id'] : undefined,
        output: responseText(response['response']),
      });
    }
  }
  return parsed;
}

/** What a function response said: its `output` (or `error`, Gemini CLI's convention), else the JSON of it all. */
function responseText(response: unknown): string {
  if (!isRecord(response)) return typeof response === 'string' ? response : JSON.stringify(response ?? null);
  for (const key of ['output', 'error', 'content', 'result'])
    if (typeof response[key] === 'string') return response[key];
  return JSON.stringify(response);
}

function toTurns(contents: readonly Content[]): ConversationTurn[] {
  const turns: ConversationTurn[] = [];
  for (const content of contents) {
    if (content.role === 'model') {
      turns.push({ kind: 'assistant' });
      continue;
    }
    if (content.responses.length > 0) {
      const results: ReceivedToolResult[] = content.responses.map((response, n) => ({
        callId: response.id ?? `${response.name}#${n}`,
        name: response.name,
        content: response.output,
        isError: looksLikeToolError(response.output),
      }));
      turns.push({ kind: 'toolResults', results });
    }
    // Each part its own paragraph, so a script keyword in the last part is found after the client's own parts.
    if (content.texts.length > 0) turns.push({ kind: 'user', text: content.texts.join('\n\n') });
  }
  return turns;
}

// ---- The stream -------------------------------------------------------------------------------------------

async function streamGenerate(
  writer: EventStreamWriter,
  reply: StreamedReply,
  request: ValidRequest,
  options: StreamOptions,
): Promise<void> {
  const responseId = options.newId('emu-');
  const promptTokens = roughTokens(request.promptChars);
  const chunk = (parts: unknown[], last: boolean, outputChars: number): Record<string, unknown> => ({
    candidates: [
      {
        content: { parts, role: 'model' },
        ...(last ? { finishReason: 'STOP' } : {}),
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: promptTokens,
      ...(last ? { candidatesTokenCount: roughTokens(outputChars) } : {}),
      totalTokenCount: promptTokens + (last ? roughTokens(outputChars) : 0),
      promptTokensDetails: [{ modality: 'TEXT', tokenCount: promptTokens }],
    },
    modelVersion: request.model,
    responseId,
  });
  const calls =
    reply.kind === 'answer'
      ? reply.toolCalls.map((call, n) => ({
          functionCall: { name: call.name, args: argsObject(call.arguments) },
          // Gemini's thinking models sign their first call of a turn; clients send the signature back.
          ...(n === 0 ? { thoughtSignature: Buffer.from(`emulated-signature-${responseId}`).toString('base64') } : {}),
        }))
      : [];
  const outputChars = reply.chunks.join('').length + calls.length;

  if (streaming.get(request) !== true) {
    const text = reply.chunks.join('');
    const parts = [...(text === '' ? [] : [{ text }]), ...calls];
    const body = JSON.stringify(chunk(parts, true, outputChars));
    writer.start({ 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
    if (reply.kind === 'drop') await writer.cutOff();
    else if (await writer.write(reply.kind === 'malformed' ? body.slice(0, body.length / 2) : body)) writer.end();
    return;
  }

  const send = (data: unknown): Promise<boolean> => writer.write(`data: ${JSON.stringify(data)}\r\n\r\n`);
  writer.start({ 'content-type': 'text/event-stream', 'x-goog-request-id': responseId });
  const chunkDelayMs = reply.kind === 'answer' ? (reply.chunkDelayMs ?? options.chunkDelayMs) : options.chunkDelayMs;
  const texts = reply.chunks;
  for (const [n, text] of texts.entries()) {
    if (n > 0 && !(await writer.pause(chunkDelayMs))) return;
    const last = reply.kind === 'answer' && calls.length === 0 && n === texts.length - 1;
    if (!(await send(chunk([{ text }], last, outputChars)))) return;
  }
  if (reply.kind === 'drop') {
    await writer.cutOff();
    return;
  }
  if (reply.kind === 'malformed') {
    await writer.write('data: {"candidates": [ this is not JSON\r\n\r\n');
    writer.end();
    return;
  }
  if (calls.length > 0 || texts.length === 0) {
    if (!(await writer.pause(chunkDelayMs))) return;
    // A function call comes whole, in the chunk that ends the turn.
    if (!(await send(chunk(calls.length > 0 ? calls : [{ text: '' }], true, outputChars)))) return;
  }
  writer.end();
}

/** The arguments as the object Gemini sends; text that is not a JSON object is passed as `{"input": text}`. */
function argsObject(argumentsText: string): Record<string, unknown> {
  try {
    const parsed = JSON.parse(argumentsText) as unknown;
    return isRecord(parsed) ? parsed : { input: parsed };
  } catch {
    return { input: argumentsText };
  }
}
