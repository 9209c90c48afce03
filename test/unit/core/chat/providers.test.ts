import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { APIError, AuthenticationError } from '@anthropic-ai/sdk';
import {
  ModelError,
  type ModelClient,
  type ModelErrorKind,
  type ModelEvent,
  type ModelMessage,
  type ModelRequest,
  type ModelToolCall,
} from '../../../../src/core/chat/modelClient';
import { createAnthropicClient } from '../../../../src/core/chat/providers/anthropic';
import { createOpenAiCompatibleClient } from '../../../../src/core/chat/providers/openaiCompatible';
import { modelErrorFromAnthropic } from '../../../../src/core/chat/providers/providerErrors';
import type { ToolDefinition } from '../../../../src/core/tools/toolTable';
import { freePort } from '../../../support/freePort.mjs';
import { useModelEndpoint } from '../../../support/mochaHooks';
import {
  DEFAULT_ANSWER,
  ENTITIES_ANSWER,
  quoteResults,
  REFUSAL_TEXT,
  SLOW_CHUNKS,
  startModelEndpoint,
  type ModelEndpoint,
  type RecordedRequest,
} from '../../../support/modelEndpoint';

const TOOLS: ToolDefinition[] = [
  {
    name: 'read_fd',
    description: 'Read a descriptor.',
    inputSchema: {
      type: 'object',
      properties: { fd: { type: 'string' }, start: { type: 'integer' } },
      required: ['fd'],
    },
  },
  { name: 'list_refs', description: 'List the refs.', inputSchema: { type: 'object', properties: {} } },
];
const SECRET_KEY = 'sk-test-secret-key-0123456789';

interface ClientOptions {
  baseUrl?: string;
  apiKey?: string;
  timeoutMs?: number;
  maxRetries?: number;
}

interface ProtocolUnderTest {
  readonly name: 'anthropic' | 'openai';
  readonly label: string;
  baseUrl(endpoint: ModelEndpoint): string;
  /** A base URL with a common mistake in it, which the server answers with 404. */
  wrongBaseUrl(endpoint: ModelEndpoint): string;
  client(endpoint: ModelEndpoint, options?: ClientOptions): ModelClient;
}

const PROTOCOLS: ProtocolUnderTest[] = [
  {
    name: 'anthropic',
    label: 'Test Anthropic',
    baseUrl: (endpoint) => endpoint.anthropicBaseUrl,
    wrongBaseUrl: (endpoint) => `${endpoint.anthropicBaseUrl}/v1`,
    client: (endpoint, options = {}) =>
      createAnthropicClient({
        label: 'Test Anthropic',
        baseUrl: options.baseUrl ?? endpoint.anthropicBaseUrl,
        apiKey: options.apiKey ?? SECRET_KEY,
        maxRetries: options.maxRetries ?? 0,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      }),
  },
  {
    name: 'openai',
    label: 'Test OpenAI',
    baseUrl: (endpoint) => endpoint.openaiBaseUrl,
    wrongBaseUrl: (endpoint) => endpoint.openaiBaseUrl.replace(/\/v1$/, ''),
    client: (endpoint, options = {}) =>
      createOpenAiCompatibleClient({
        label: 'Test OpenAI',
        baseUrl: options.baseUrl ?? endpoint.openaiBaseUrl,
        apiKey: options.apiKey ?? SECRET_KEY,
        maxRetries: options.maxRetries ?? 0,
        ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
      }),
  },
];

function requestOf(messages: ModelMessage[], overrides: Partial<ModelRequest> = {}): ModelRequest {
  return { model: 'emulated-model', system: 'You are a test.', messages, tools: TOOLS, maxTokens: 1024, ...overrides };
}

function ask(text: string): ModelRequest {
  return requestOf([{ role: 'user', text }]);
}

async function collect(
  client: ModelClient,
  request: ModelRequest,
  signal = new AbortController().signal,
): Promise<ModelEvent[]> {
  const events: ModelEvent[] = [];
  for await (const event of client.stream(request, signal)) events.push(event);
  return events;
}

async function failure(
  client: ModelClient,
  request: ModelRequest,
  signal?: AbortSignal,
): Promise<{ error: ModelError; events: ModelEvent[] }> {
  const events: ModelEvent[] = [];
  try {
    for await (const event of client.stream(request, signal ?? new AbortController().signal)) events.push(event);
  } catch (error) {
    assert.ok(error instanceof ModelError, `expected a ModelError, got ${String(error)}`);
    return { error, events };
  }
  assert.fail(`expected the stream to fail, it gave ${JSON.stringify(events).slice(0, 200)}`);
}

const textOf = (events: ModelEvent[]): string =>
  events.flatMap((event) => (event.type === 'text' ? [event.text] : [])).join('');
const callsOf = (events: ModelEvent[]): ModelToolCall[] =>
  events.flatMap((event) => (event.type === 'toolCall' ? [event.call] : []));

function assertEndsOnceWith(events: ModelEvent[], stopReason: string): void {
  const ends = events.filter((event) => event.type === 'end');
  assert.equal(ends.length, 1, 'exactly one end event');
  assert.deepEqual(events[events.length - 1], { type: 'end', stopReason });
}

function assertReadableWithoutKey(error: ModelError, kind: ModelErrorKind): void {
  assert.equal(error.kind, kind, `kind of: ${error.message}`);
  assert.ok(error.message.length > 20 && /[.?]$/.test(error.message), `a sentence: ${error.message}`);
  assert.ok(
    !error.message.includes(SECRET_KEY) && !(error.options.detail ?? '').includes(SECRET_KEY),
    'no key in the message',
  );
  assert.doesNotMatch(error.message, /\{|\bundefined\b|\[object/, 'no raw JSON or placeholders');
}

function lastMessagesRequest(endpoint: ModelEndpoint): RecordedRequest {
  const found = [...endpoint.requests].reverse().find((request) => request.method === 'POST');
  assert.ok(found, 'a POST was recorded');
  return found;
}

describe('chat provider clients against the model endpoint', function () {
  this.timeout(10_000);
  const endpoint = useModelEndpoint({ clearRequests: true });

  for (const protocol of PROTOCOLS) {
    describe(protocol.name, () => {
      it('streams the answer as several text events that add up to the scripted text, then one end', async () => {
        const events = await collect(protocol.client(endpoint), ask('Hello there'));
        assert.equal(textOf(events), DEFAULT_ANSWER);
        assert.ok(events.filter((event) => event.type === 'text').length > 20, 'text arrives in pieces');
        assertEndsOnceWith(events, 'end_turn');
      });

      it('gives a tool call with exactly the arguments the model streamed in pieces', async () => {
        const events = await collect(protocol.client(endpoint), ask('call read_fd {"fd": "fd:1", "start": 2}'));
        assert.equal(textOf(events), 'Calling read_fd.');
        const [call, ...others] = callsOf(events);
        assert.deepEqual(others, []);
        assert.equal(call?.name, 'read_fd');
        assert.equal(call?.arguments, '{"fd":"fd:1","start":2}');
        assert.ok((call?.id ?? '') !== '', 'the call has an id');
        assertEndsOnceWith(events, 'tool_use');
      });

      it('gives several tool calls of one message in order, a call without arguments as {}', async () => {
        const events = await collect(
          protocol.client(endpoint),
          ask('call read_fd {"fd":"fd:2"}\ncall list_refs\ncall read_fd {"fd":"ref:a"}'),
        );
        const calls = callsOf(events);
        assert.deepEqual(
          calls.map((call) => [call.name, call.arguments]),
          [
            ['read_fd', '{"fd":"fd:2"}'],
            ['list_refs', '{}'],
            ['read_fd', '{"fd":"ref:a"}'],
          ],
        );
        assert.equal(new Set(calls.map((call) => call.id)).size, 3, 'distinct ids');
        assert.equal(events[events.length - 1]?.type, 'end');
        assert.ok(
          events.findIndex((event) => event.type === 'toolCall') >
            events.map((event) => event.type).lastIndexOf('text'),
          'calls after the text',
        );
      });

      it('sends tool results back so the next answer quotes them (a full round trip)', async () => {
        const client = protocol.client(endpoint);
        const question: ModelMessage = { role: 'user', text: 'call read_fd {"fd":"fd:1"}\ncall list_refs' };
        const first = await collect(client, requestOf([question]));
        const calls = callsOf(first);
        const results = [
          {
            callId: calls[0]?.id ?? '',
            name: 'read_fd',
            content: '<fd_content fd="fd:1" page="1">hello world</fd_content>',
            isError: false,
          },
          {
            callId: calls[1]?.id ?? '',
            name: 'list_refs',
            content: '<fd_error type="not_found">No refs yet.</fd_error>',
            isError: true,
          },
        ];
        const second = await collect(
          client,
          requestOf([
            question,
            { role: 'assistant', text: textOf(first), toolCalls: calls },
            { role: 'tool', results },
          ]),
        );
        assert.equal(textOf(second), quoteResults(results));
        assert.match(
          textOf(second),
          /^Result of read_fd: <fd_content fd="fd:1" page="1">hello world<\/fd_content>\n\nError from list_refs: <fd_error/,
        );
        assertEndsOnceWith(second, 'end_turn');
      });

      it('turns a 401 for a wrong key into auth, telling how to set a valid key without showing it', async () => {
        const guarded = await startModelEndpoint({ apiKey: 'the-right-key' });
        try {
          const { error } = await failure(protocol.client(guarded), ask('Hello'));
          assertReadableWithoutKey(error, 'auth');
          assert.equal(error.options.status, 401);
          assert.ok(
            error.message.includes(
              `${protocol.label} (${protocol.baseUrl(guarded)}) refused the API key. Set a valid key with “FD Refs: Set API Key…”.`,
            ),
            error.message,
          );
          const accepted = await collect(protocol.client(guarded, { apiKey: 'the-right-key' }), ask('Hello'));
          assert.equal(textOf(accepted), DEFAULT_ANSWER);
        } finally {
          await guarded.close();
        }
      });

      const scriptedFailures: [string, ModelErrorKind, RegExp][] = [
        ['error 401', 'auth', /refused the API key/],
        ['error 403', 'permission', /does not let this API key use model named “emulated-model”/],
        ['error 404', 'notFound', /has no model named “emulated-model”\. Check the model name/],
        ['error 429', 'rateLimit', /Try again in 1 second\./],
        ['error 500', 'server', /server error \(500\)/],
        ['error 529', 'overloaded', /is overloaded right now/],
        [
          'context',
          'contextTooLong',
          /^The conversation is longer than the model's context window\. Start a new chat, or fork from an earlier message\.$/,
        ],
        ['drop', 'connectionLost', /closed before the answer was complete/],
        ['malformed', 'malformedStream', /not a valid .* stream/],
        ['error 400', 'badRequest', /refused the request \(400\): There was an issue/],
      ];
      for (const [script, kind, wording] of scriptedFailures) {
        it(`ends "${script}" in a ModelError of kind ${kind} that a person can read`, async () => {
          const { error } = await failure(protocol.client(endpoint), ask(script));
          assertReadableWithoutKey(error, kind);
          assert.match(error.message, wording);
          if (kind !== 'connectionLost' && kind !== 'malformedStream')
            assert.ok((error.options.detail ?? '') !== '', "the provider's words are kept");
          if (kind === 'rateLimit') assert.equal(error.options.retryAfterSeconds, 1);
        });
      }

      it('keeps the text that arrived before the connection dropped', async () => {
        const { events } = await failure(protocol.client(endpoint), ask('drop'));
        assert.equal(textOf(events), 'This answer breaks off in the mid');
        assert.ok(!events.some((event) => event.type === 'end'));
      });

      it('says nothing answers when no server listens at the base URL', async () => {
        const port = await freePort();
        const baseUrl = `http://127.0.0.1:${port}${protocol.name === 'openai' ? '/v1' : ''}`;
        const { error } = await failure(protocol.client(endpoint, { baseUrl }), ask('Hello'));
        assertReadableWithoutKey(error, 'unreachable');
        assert.equal(
          error.message,
          `Nothing answers at ${baseUrl}. Is the server running? Check the base URL in settings.`,
        );
      });

      it('says to check the base URL when the path is wrong (404 without a model in it)', async () => {
        const { error } = await failure(
          protocol.client(endpoint, { baseUrl: protocol.wrongBaseUrl(endpoint) }),
          ask('Hello'),
        );
        assertReadableWithoutKey(error, 'notFound');
        assert.match(error.message, /found no .* at .* \(404\)\. Check the base URL in settings/);
      });

      it('ends promptly with aborted when the signal aborts mid-stream', async () => {
        const controller = new AbortController();
        const events: ModelEvent[] = [];
        let abortedAt = 0;
        await assert.rejects(
          (async () => {
            for await (const event of protocol.client(endpoint).stream(ask('slow'), controller.signal)) {
              events.push(event);
              if (events.length === 2) {
                abortedAt = Date.now();
                controller.abort();
              }
            }
          })(),
          (error: unknown) => error instanceof ModelError && error.kind === 'aborted',
        );
        assert.ok(Date.now() - abortedAt < 300, `ended ${Date.now() - abortedAt} ms after the abort`);
        assert.equal(textOf(events), SLOW_CHUNKS.slice(0, 2).join(''));
      });

      it('ends with aborted at once when the signal has already aborted', async () => {
        const controller = new AbortController();
        controller.abort();
        const { error } = await failure(protocol.client(endpoint), ask('Hello'), controller.signal);
        assert.equal(error.kind, 'aborted');
        assert.equal(endpoint.requests.length, 0, 'nothing was sent');
      });

      it('ends with timeout when the server goes silent mid-stream for longer than the timeout', async () => {
        const { error, events } = await failure(protocol.client(endpoint, { timeoutMs: 40 }), ask('slow'));
        assertReadableWithoutKey(error, 'timeout');
        assert.match(error.message, /stayed silent for 40 ms\./);
        assert.equal(textOf(events), SLOW_CHUNKS[0]);
      });

      it('ends with timeout when the server never answers', async () => {
        const silent = http.createServer(() => undefined);
        await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
        try {
          const baseUrl = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
          const { error } = await failure(protocol.client(endpoint, { baseUrl, timeoutMs: 150 }), ask('Hello'));
          assertReadableWithoutKey(error, 'timeout');
          assert.match(error.message, /did not answer within 150 ms\./);
        } finally {
          silent.closeAllConnections();
          await new Promise((resolve) => silent.close(resolve));
        }
      });

      it('reports a dangling tool call the server refuses (400) as badRequest with its reason', async () => {
        const { error } = await failure(
          protocol.client(endpoint),
          requestOf([
            { role: 'user', text: 'call list_refs' },
            {
              role: 'assistant',
              text: 'Calling list_refs.',
              toolCalls: [{ id: 'call_dangling', name: 'list_refs', arguments: '{}' }],
            },
            { role: 'user', text: 'Never mind.' },
          ]),
        );
        assertReadableWithoutKey(error, 'badRequest');
        assert.equal(error.options.status, 400);
        assert.match(error.options.detail ?? '', /call_dangling/);
        assert.match(
          error.message,
          protocol.name === 'anthropic'
            ? /tool_use` ids were found without `tool_result` blocks/
            : /must be followed by tool messages/,
        );
      });

      it('retries a 529 twice by default before reporting overloaded', async function () {
        this.timeout(8000);
        const client =
          protocol.name === 'anthropic'
            ? createAnthropicClient({ label: protocol.label, baseUrl: endpoint.anthropicBaseUrl })
            : createOpenAiCompatibleClient({ label: protocol.label, baseUrl: endpoint.openaiBaseUrl });
        const { error } = await failure(client, ask('error 529'));
        assert.equal(error.kind, 'overloaded');
        assert.equal(endpoint.requests.length, 3);
      });
    });
  }

  describe('anthropic translation', () => {
    const client = (): ModelClient => PROTOCOLS[0]!.client(endpoint);

    it('sends the system prompt, the tools with input_schema, max_tokens and the key', async () => {
      await collect(client(), ask('Hello'));
      const request = lastMessagesRequest(endpoint);
      const body = request.body as Record<string, unknown>;
      assert.equal(body['system'], 'You are a test.');
      assert.equal(body['max_tokens'], 1024);
      assert.equal(body['stream'], true);
      assert.deepEqual(
        body['tools'],
        TOOLS.map((tool) => ({ name: tool.name, description: tool.description, input_schema: tool.inputSchema })),
      );
      assert.deepEqual(body['messages'], [{ role: 'user', content: 'Hello' }]);
      // This SDK sends the key as `Authorization: Bearer`; older ones used `x-api-key`.
      assert.equal(request.headers['x-api-key'] ?? request.headers['authorization'], '[redacted]');
    });

    it('sends tool results as a user message of tool_result blocks with is_error, merged with the next user text', async () => {
      const call = { id: 'toolu_x', name: 'list_refs', arguments: '{}' };
      const events = await collect(
        client(),
        requestOf([
          { role: 'user', text: 'call list_refs' },
          { role: 'assistant', text: '', toolCalls: [call] },
          { role: 'tool', results: [{ callId: 'toolu_x', name: 'list_refs', content: 'failed', isError: true }] },
          { role: 'user', text: 'entities' },
        ]),
      );
      assert.equal(textOf(events), ENTITIES_ANSWER);
      const messages = (lastMessagesRequest(endpoint).body as { messages: unknown[] }).messages;
      assert.deepEqual(messages, [
        { role: 'user', content: 'call list_refs' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_x', name: 'list_refs', input: {} }] },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_x', content: 'failed', is_error: true },
            { type: 'text', text: 'entities' },
          ],
        },
      ]);
    });

    it('sends a result that is not an error with is_error false', async () => {
      await collect(
        client(),
        requestOf([
          { role: 'user', text: 'call list_refs' },
          { role: 'assistant', text: 'Calling.', toolCalls: [{ id: 'toolu_z', name: 'list_refs', arguments: '{}' }] },
          { role: 'tool', results: [{ callId: 'toolu_z', name: 'list_refs', content: 'none', isError: false }] },
        ]),
      );
      const messages = (lastMessagesRequest(endpoint).body as { messages: { content: unknown }[] }).messages;
      assert.deepEqual(messages[2]?.content, [
        { type: 'tool_result', tool_use_id: 'toolu_z', content: 'none', is_error: false },
      ]);
    });

    it('sends garbled tool arguments as an empty input object', async () => {
      await collect(
        client(),
        requestOf([
          { role: 'user', text: 'call read_fd' },
          {
            role: 'assistant',
            text: 'Calling.',
            toolCalls: [{ id: 'toolu_y', name: 'read_fd', arguments: '{"fd": ' }],
          },
          { role: 'tool', results: [{ callId: 'toolu_y', name: 'read_fd', content: 'bad arguments', isError: true }] },
        ]),
      );
      const messages = (lastMessagesRequest(endpoint).body as { messages: { content: unknown }[] }).messages;
      assert.deepEqual(messages[1]?.content, [
        { type: 'text', text: 'Calling.' },
        { type: 'tool_use', id: 'toolu_y', name: 'read_fd', input: {} },
      ]);
    });
  });

  describe('openai translation', () => {
    const client = (): ModelClient => PROTOCOLS[1]!.client(endpoint);

    it('sends the system prompt as a system message, tools as functions, and no stream_options', async () => {
      await collect(client(), ask('Hello'));
      const request = lastMessagesRequest(endpoint);
      const body = request.body as Record<string, unknown>;
      assert.deepEqual(body['messages'], [
        { role: 'system', content: 'You are a test.' },
        { role: 'user', content: 'Hello' },
      ]);
      assert.deepEqual(
        body['tools'],
        TOOLS.map((tool) => ({
          type: 'function',
          function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
        })),
      );
      assert.equal(body['max_tokens'], 1024);
      assert.equal(body['stream_options'], undefined);
      assert.equal(request.headers['authorization'], '[redacted]');
    });

    it('sends tool results as tool messages with tool_call_id, after an assistant message with tool_calls', async () => {
      await collect(
        client(),
        requestOf([
          { role: 'user', text: 'call list_refs' },
          { role: 'assistant', text: '', toolCalls: [{ id: 'call_a', name: 'list_refs', arguments: '{}' }] },
          { role: 'tool', results: [{ callId: 'call_a', name: 'list_refs', content: 'none', isError: false }] },
        ]),
      );
      const messages = (lastMessagesRequest(endpoint).body as { messages: unknown[] }).messages;
      assert.deepEqual(messages.slice(2), [
        {
          role: 'assistant',
          content: null,
          tool_calls: [{ id: 'call_a', type: 'function', function: { name: 'list_refs', arguments: '{}' } }],
        },
        { role: 'tool', tool_call_id: 'call_a', content: 'none' },
      ]);
    });

    it('switches to max_completion_tokens for a model that refuses max_tokens, and remembers it', async () => {
      const openai = client();
      const request = requestOf([{ role: 'user', text: 'Hello' }], { model: 'o3-emulated' });
      assert.equal(textOf(await collect(openai, request)), DEFAULT_ANSWER);
      assert.equal(textOf(await collect(openai, request)), DEFAULT_ANSWER);
      const bodies = endpoint.requests.map((recorded) => recorded.body as Record<string, unknown>);
      assert.deepEqual(
        bodies.map((body) => [body['max_tokens'], body['max_completion_tokens']]),
        [
          [1024, undefined],
          [undefined, 1024],
          [undefined, 1024],
        ],
      );
    });

    it('shows a refusal streamed in delta.refusal (content null) as the answer', async () => {
      const events = await collect(client(), ask('refusal'));
      assert.equal(textOf(events), REFUSAL_TEXT);
      assert.ok(events.filter((event) => event.type === 'text').length > 3, 'the refusal arrives in pieces');
      assertEndsOnceWith(events, 'end_turn');
    });

    it("gives the server's reason for a flat error body (SGLang, TensorRT-LLM, FastChat, older vLLM)", async () => {
      const { error } = await failure(client(), ask('flat error 400'));
      assertReadableWithoutKey(error, 'badRequest');
      assert.equal(error.options.status, 400);
      assert.equal(
        error.message,
        'Test OpenAI refused the request (400): There was an issue with the format or content of your request.',
      );
      assert.equal(error.options.detail, 'There was an issue with the format or content of your request.');
    });

    it('recognises a context overflow sent as a flat error body, as vLLM words it', async () => {
      const { error } = await failure(client(), ask('flat context'));
      assertReadableWithoutKey(error, 'contextTooLong');
      assert.equal(error.options.status, 400);
      assert.match(
        error.options.detail ?? '',
        /^This model's maximum context length is 4096 tokens\. However, you requested 5000 tokens/,
      );
    });

    it('reads the flat body of other statuses too (a 404 names the missing model)', async () => {
      const { error } = await failure(client(), ask('flat error 404'));
      assertReadableWithoutKey(error, 'notFound');
      assert.match(error.message, /has no model named “emulated-model”/);
      assert.match(error.options.detail ?? '', /does not exist/);
    });

    it('needs no key: a local server gets a placeholder', async () => {
      const local = createOpenAiCompatibleClient({ label: 'Local', baseUrl: endpoint.openaiBaseUrl });
      assert.equal(textOf(await collect(local, ask('Hello'))), DEFAULT_ANSWER);
    });
  });

  describe('error wording', () => {
    it('blanks the key out of anything the server echoes back', () => {
      const echoed = new AuthenticationError(
        401,
        { type: 'error', error: { type: 'authentication_error', message: `invalid key ${SECRET_KEY}` } },
        undefined,
        new Headers(),
      );
      const error = modelErrorFromAnthropic(echoed, {
        protocol: 'anthropic',
        label: 'A',
        baseUrl: 'https://api.anthropic.com',
        timeoutMs: 1000,
        apiKey: SECRET_KEY,
      });
      assert.equal(error.kind, 'auth');
      assert.equal(error.options.detail, 'invalid key [API key]');
      assert.ok(!error.message.includes(SECRET_KEY));
    });

    it('reads an error event inside a stream (no status) by its type', () => {
      const midStream = new APIError(
        undefined,
        { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
        undefined,
        new Headers(),
        'overloaded_error',
      );
      const error = modelErrorFromAnthropic(midStream, {
        protocol: 'anthropic',
        label: 'Anthropic',
        baseUrl: 'https://api.anthropic.com',
        timeoutMs: 1000,
      });
      assert.equal(error.kind, 'overloaded');
      assert.equal(error.options.status, 529);
      assert.equal(error.options.detail, 'Overloaded');
    });

    it('says a key is needed when none was set', () => {
      const refused = new AuthenticationError(
        401,
        { type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' } },
        undefined,
        new Headers(),
      );
      const error = modelErrorFromAnthropic(refused, {
        protocol: 'anthropic',
        label: 'Anthropic',
        baseUrl: 'https://api.anthropic.com',
        timeoutMs: 1000,
      });
      assert.equal(
        error.message,
        'Anthropic (https://api.anthropic.com) needs an API key, and none is set. Set one with “FD Refs: Set API Key…”.',
      );
    });
  });
});
