import assert from 'node:assert/strict';
import * as http from 'node:http';
import { extractRefs } from '../../../src/core/refs/extract';
import {
  BIG_CHUNK_COUNT,
  bigAnswer,
  DEFAULT_ANSWER,
  ENTITIES_ANSWER,
  REFS_ANSWER,
  REFUSAL_TEXT,
  SLOW_CHUNKS,
  startModelEndpoint,
  XSS_ANSWER,
  type ModelEndpoint,
} from '../../support/modelEndpoint';
import { useModelEndpoint } from '../../support/mochaHooks';
import { scriptedReply, type ConversationTurn, type ScriptedReply } from '../../support/modelEndpoint/scenarios';

const ANTHROPIC_HEADERS = { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' };
const OPENAI_HEADERS = { 'content-type': 'application/json' };
const ANTHROPIC_TOOLS = [{ name: 'read_fd', description: 'Read.', input_schema: { type: 'object', properties: {} } }];
const OPENAI_TOOLS = [
  {
    type: 'function',
    function: { name: 'read_fd', description: 'Read.', parameters: { type: 'object', properties: {} } },
  },
];

interface SseEvent {
  event: string | undefined;
  data: string;
}

/** Reads a whole event stream and splits it into events (enough SSE for what the endpoint writes). */
async function readEvents(response: Response): Promise<SseEvent[]> {
  const text = await response.text();
  return text
    .split('\n\n')
    .filter((block) => block.trim() !== '' && !block.startsWith(':'))
    .map((block) => {
      const lines = block.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice('event: '.length);
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice('data: '.length))
        .join('\n');
      return { event, data };
    });
}

function anthropicMessages(
  endpoint: ModelEndpoint,
  body: Record<string, unknown>,
  headers: Record<string, string> = ANTHROPIC_HEADERS,
): Promise<Response> {
  return fetch(`${endpoint.anthropicBaseUrl}/v1/messages`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'm', max_tokens: 100, stream: true, ...body }),
  });
}

function openaiCompletions(
  endpoint: ModelEndpoint,
  body: Record<string, unknown>,
  headers: Record<string, string> = OPENAI_HEADERS,
): Promise<Response> {
  return fetch(`${endpoint.openaiBaseUrl}/chat/completions`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ model: 'm', stream: true, ...body }),
  });
}

const textOfReply = (reply: ScriptedReply): string => (reply.kind === 'error' ? '' : reply.chunks.join(''));

describe('model endpoint', function () {
  this.timeout(10_000);
  const endpoint = useModelEndpoint({ clearRequests: true });

  describe('Anthropic Messages protocol', () => {
    it('streams the real event sequence: message_start, ping, a text block, tool_use blocks in pieces, message_delta, message_stop', async () => {
      const response = await anthropicMessages(endpoint, {
        tools: ANTHROPIC_TOOLS,
        messages: [{ role: 'user', content: 'call read_fd {"fd":"fd:1","start":3}' }],
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const events = await readEvents(response);
      const names = events.map((event) => event.event);
      assert.deepEqual(names.slice(0, 3), ['message_start', 'ping', 'content_block_start']);
      assert.deepEqual(names.slice(-2), ['message_delta', 'message_stop']);
      for (const event of events)
        assert.equal((JSON.parse(event.data) as { type: string }).type, event.event, 'each event names its type twice');
      const data = events.map((event) => JSON.parse(event.data) as Record<string, any>);
      const toolStart = data.find((d) => d['type'] === 'content_block_start' && d['content_block'].type === 'tool_use');
      assert.equal(toolStart?.['index'], 1);
      assert.equal(toolStart?.['content_block'].name, 'read_fd');
      assert.match(toolStart?.['content_block'].id, /^toolu_/);
      const pieces = data
        .filter((d) => d['delta']?.type === 'input_json_delta')
        .map((d) => d['delta'].partial_json as string);
      assert.ok(pieces.length >= 3, 'the arguments come in several pieces');
      assert.equal(pieces.join(''), '{"fd":"fd:1","start":3}');
      const text = data.filter((d) => d['delta']?.type === 'text_delta').map((d) => d['delta'].text as string);
      assert.equal(text.join(''), 'Calling read_fd.');
      assert.equal(data.at(-2)?.['delta'].stop_reason, 'tool_use');
    });

    it('streams refusal as text ending with stop_reason refusal', async () => {
      const events = await readEvents(
        await anthropicMessages(endpoint, { messages: [{ role: 'user', content: 'refusal' }] }),
      );
      const data = events.map(
        (event) =>
          JSON.parse(event.data) as { type: string; delta?: { type?: string; text?: string; stop_reason?: string } },
      );
      assert.equal(
        data.flatMap((event) => (event.delta?.type === 'text_delta' ? [event.delta.text] : [])).join(''),
        REFUSAL_TEXT,
      );
      assert.equal(data.find((event) => event.type === 'message_delta')?.delta?.stop_reason, 'refusal');
    });

    it('answers errors in the real shape and status, with retry-after on a 429', async () => {
      for (const [script, status, type] of [
        ['error 401', 401, 'authentication_error'],
        ['error 429', 429, 'rate_limit_error'],
        ['error 500', 500, 'api_error'],
        ['error 529', 529, 'overloaded_error'],
        ['context', 400, 'invalid_request_error'],
      ] as const) {
        const response = await anthropicMessages(endpoint, { messages: [{ role: 'user', content: script }] });
        assert.equal(response.status, status, script);
        const body = (await response.json()) as { type: string; error: { type: string; message: string } };
        assert.equal(body.type, 'error');
        assert.equal(body.error.type, type, script);
        if (status === 429) assert.equal(response.headers.get('retry-after'), '1');
        if (script === 'context') assert.match(body.error.message, /^prompt is too long: \d+ tokens > \d+ maximum$/);
      }
    });

    it('refuses what the real API refuses, naming the problem', async () => {
      const cases: [string, Record<string, unknown>, RegExp, Record<string, string>?][] = [
        ['no model', { model: undefined, messages: [{ role: 'user', content: 'hi' }] }, /^model: Field required/],
        ['no anthropic-version', { messages: [{ role: 'user', content: 'hi' }] }, /anthropic-version/, OPENAI_HEADERS],
        [
          'a system role in messages',
          { messages: [{ role: 'system', content: 'be nice' }] },
          /messages\.0\.role: Input should be 'user' or 'assistant'/,
        ],
        ['empty content', { messages: [{ role: 'user', content: '' }] }, /non-empty content/],
        ['not streaming', { stream: false, messages: [{ role: 'user', content: 'hi' }] }, /stream/],
        [
          'a dangling tool_use',
          {
            tools: ANTHROPIC_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'read_fd', input: {} }] },
              { role: 'user', content: 'next' },
            ],
          },
          /`tool_use` ids were found without `tool_result` blocks immediately after: toolu_1/,
        ],
        [
          'a tool_result for no tool_use',
          {
            tools: ANTHROPIC_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              { role: 'assistant', content: 'ok' },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
            ],
          },
          /unexpected `tool_use_id` found in `tool_result` blocks: toolu_9/,
        ],
        [
          'a call of a tool not in tools',
          {
            tools: ANTHROPIC_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'rm_rf', input: {} }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'x' }] },
            ],
          },
          /not defined in `tools`: rm_rf/,
        ],
        [
          'tool_use input that is not an object',
          {
            tools: ANTHROPIC_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'read_fd', input: '{}' }] },
              { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't' }] },
            ],
          },
          /input: Input should be a valid dictionary/,
        ],
      ];
      for (const [what, body, reason, headers] of cases) {
        const response = await anthropicMessages(endpoint, body, headers);
        assert.equal(response.status, 400, what);
        const error = ((await response.json()) as { error: { type: string; message: string } }).error;
        assert.equal(error.type, 'invalid_request_error', what);
        assert.match(error.message, reason, what);
      }
    });

    it('serves the model list', async () => {
      const body = (await (
        await fetch(`${endpoint.anthropicBaseUrl}/v1/models`, { headers: ANTHROPIC_HEADERS })
      ).json()) as { data: { id: string; type: string }[]; has_more: boolean };
      assert.deepEqual(
        body.data.map((model) => [model.id, model.type]),
        [
          ['claude-emulated-large', 'model'],
          ['claude-emulated-small', 'model'],
        ],
      );
      assert.equal(body.has_more, false);
    });
  });

  describe('OpenAI Chat Completions protocol', () => {
    it('streams chunks, tool calls in pieces under their index, a finish_reason, then [DONE]', async () => {
      const response = await openaiCompletions(endpoint, {
        tools: OPENAI_TOOLS,
        messages: [{ role: 'user', content: 'call read_fd {"fd":"fd:1"}\ncall read_fd {"fd":"fd:2"}' }],
      });
      assert.equal(response.status, 200);
      const events = await readEvents(response);
      assert.equal(events.at(-1)?.data, '[DONE]');
      const chunks = events.slice(0, -1).map((event) => JSON.parse(event.data) as Record<string, any>);
      for (const chunk of chunks) assert.equal(chunk['object'], 'chat.completion.chunk');
      assert.equal(chunks[0]?.['choices'][0].delta.role, 'assistant');
      assert.equal(chunks.at(-1)?.['choices'][0].finish_reason, 'tool_calls');
      const pieces = chunks.flatMap(
        (chunk) =>
          (chunk['choices'][0].delta.tool_calls ?? []) as {
            index: number;
            id?: string;
            function: { name?: string; arguments: string };
          }[],
      );
      for (const index of [0, 1]) {
        const mine = pieces.filter((piece) => piece.index === index);
        assert.ok(mine.length >= 3, 'several pieces');
        assert.match(mine[0]?.id ?? '', /^call_/);
        assert.equal(mine[0]?.function.name, 'read_fd');
        assert.equal(mine.map((piece) => piece.function.arguments).join(''), `{"fd":"fd:${index + 1}"}`);
      }
    });

    it('adds a usage chunk only when stream_options.include_usage asks for it', async () => {
      const plain = await readEvents(
        await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'hi' }] }),
      );
      assert.ok(!plain.some((event) => event.data.includes('"total_tokens"')));
      const withUsage = await readEvents(
        await openaiCompletions(endpoint, {
          stream_options: { include_usage: true },
          messages: [{ role: 'user', content: 'hi' }],
        }),
      );
      const usage = JSON.parse(withUsage.at(-2)?.data ?? '{}') as {
        choices: unknown[];
        usage: { total_tokens: number };
      };
      assert.deepEqual(usage.choices, []);
      assert.ok(usage.usage.total_tokens > 0);
    });

    it('answers errors in the real shape and status', async () => {
      for (const [script, status, code] of [
        ['error 401', 401, 'invalid_api_key'],
        ['error 429', 429, 'rate_limit_exceeded'],
        ['error 404', 404, 'model_not_found'],
        ['context', 400, 'context_length_exceeded'],
      ] as const) {
        const response = await openaiCompletions(endpoint, { messages: [{ role: 'user', content: script }] });
        assert.equal(response.status, status, script);
        const body = (await response.json()) as { error: { message: string; type: string; code: string } };
        assert.equal(body.error.code, code, script);
        assert.equal(typeof body.error.message, 'string');
      }
    });

    it('answers flat context and flat error NNN with the flat body of SGLang, TensorRT-LLM, FastChat and older vLLM', async () => {
      const context = await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'flat context' }] });
      assert.equal(context.status, 400);
      assert.equal(context.headers.get('content-type'), 'application/json');
      assert.deepEqual(await context.json(), {
        object: 'error',
        message:
          "This model's maximum context length is 4096 tokens. However, you requested 5000 tokens (4000 in the messages, 1000 in the completion). Please reduce the length of the messages or completion.",
        type: 'BadRequestError',
        param: null,
        code: 400,
      });
      const notFound = await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'flat error 404' }] });
      assert.equal(notFound.status, 404);
      assert.deepEqual(Object.keys((await notFound.json()) as object), ['object', 'message', 'type', 'param', 'code']);
      // Anthropic has one shape only.
      const anthropic = (await (
        await anthropicMessages(endpoint, { messages: [{ role: 'user', content: 'flat context' }] })
      ).json()) as { type: string; error: { type: string } };
      assert.equal(anthropic.error.type, 'invalid_request_error');
    });

    it('streams refusal in delta.refusal with content null, as OpenAI does, then stop', async () => {
      const events = await readEvents(
        await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'refusal' }] }),
      );
      assert.equal(events.at(-1)?.data, '[DONE]');
      const choices = events
        .slice(0, -1)
        .map(
          (event) =>
            (JSON.parse(event.data) as { choices: { delta: Record<string, unknown>; finish_reason: string | null }[] })
              .choices[0],
        );
      assert.deepEqual(choices[0]?.delta, { role: 'assistant', content: null, refusal: '' });
      const middle = choices.slice(1, -1);
      for (const choice of middle) assert.deepEqual(Object.keys(choice?.delta ?? {}), ['refusal']);
      assert.equal(middle.map((choice) => choice?.delta['refusal']).join(''), REFUSAL_TEXT);
      assert.deepEqual(choices.at(-1), { index: 0, delta: {}, logprobs: null, finish_reason: 'stop' });
    });

    it('refuses what the real API refuses, naming the problem', async () => {
      const cases: [string, Record<string, unknown>, RegExp][] = [
        [
          'no model',
          { model: undefined, messages: [{ role: 'user', content: 'hi' }] },
          /you must provide a model parameter/,
        ],
        ['an unknown role', { messages: [{ role: 'robot', content: 'hi' }] }, /Invalid value: 'robot'/],
        ['no messages', { messages: [] }, /empty array/],
        [
          'a dangling tool call',
          {
            tools: OPENAI_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_fd', arguments: '{}' } }],
              },
              { role: 'user', content: 'next' },
            ],
          },
          /The following tool_call_ids did not have response messages: call_1/,
        ],
        [
          'a tool message answering nothing',
          {
            tools: OPENAI_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              { role: 'tool', tool_call_id: 'call_2', content: 'x' },
            ],
          },
          /must be a response to a preceeding message with 'tool_calls'/,
        ],
        [
          'a call of a tool not in tools',
          {
            tools: OPENAI_TOOLS,
            messages: [
              { role: 'user', content: 'go' },
              {
                role: 'assistant',
                content: null,
                tool_calls: [{ id: 'call_3', type: 'function', function: { name: 'rm_rf', arguments: '{}' } }],
              },
              { role: 'tool', tool_call_id: 'call_3', content: 'x' },
            ],
          },
          /the tool 'rm_rf' is not defined in 'tools'/,
        ],
        [
          'max_tokens for a reasoning model',
          { model: 'o3-emulated', max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] },
          /Use 'max_completion_tokens' instead/,
        ],
      ];
      for (const [what, body, reason] of cases) {
        const response = await openaiCompletions(endpoint, body);
        assert.equal(response.status, 400, what);
        const error = ((await response.json()) as { error: { message: string; type: string } }).error;
        assert.equal(error.type, 'invalid_request_error', what);
        assert.match(error.message, reason, what);
      }
    });

    it('serves the model list', async () => {
      const body = (await (await fetch(`${endpoint.openaiBaseUrl}/models`)).json()) as {
        object: string;
        data: { id: string }[];
      };
      assert.equal(body.object, 'list');
      assert.deepEqual(
        body.data.map((model) => model.id),
        ['gpt-emulated', 'gpt-emulated-mini', 'o3-emulated'],
      );
    });

    it('answers an unknown path with a 404 in the provider shape', async () => {
      const response = await fetch(`${endpoint.url}/openai/chat/completions`, {
        method: 'POST',
        headers: OPENAI_HEADERS,
        body: '{}',
      });
      assert.equal(response.status, 404);
      assert.match(
        ((await response.json()) as { error: { message: string } }).error.message,
        /^Invalid URL \(POST \/chat\/completions\)$/,
      );
    });
  });

  describe('keys and the request log', () => {
    it('refuses a wrong or missing key with each provider’s 401 when a key is set, and accepts the right one', async () => {
      const guarded = await startModelEndpoint({ apiKey: 'right' });
      try {
        const wrongAnthropic = await anthropicMessages(
          guarded,
          { messages: [{ role: 'user', content: 'hi' }] },
          { ...ANTHROPIC_HEADERS, 'x-api-key': 'wrong' },
        );
        assert.equal(wrongAnthropic.status, 401);
        assert.deepEqual(((await wrongAnthropic.json()) as { error: unknown }).error, {
          type: 'authentication_error',
          message: 'invalid x-api-key',
        });
        const missingOpenAI = await openaiCompletions(guarded, { messages: [{ role: 'user', content: 'hi' }] });
        assert.equal(missingOpenAI.status, 401);
        assert.equal(((await missingOpenAI.json()) as { error: { code: string } }).error.code, 'invalid_api_key');
        assert.equal(
          (
            await anthropicMessages(
              guarded,
              { messages: [{ role: 'user', content: 'hi' }] },
              { ...ANTHROPIC_HEADERS, 'x-api-key': 'right' },
            )
          ).status,
          200,
        );
        assert.equal(
          (
            await openaiCompletions(
              guarded,
              { messages: [{ role: 'user', content: 'hi' }] },
              { ...OPENAI_HEADERS, authorization: 'Bearer right' },
            )
          ).status,
          200,
        );
      } finally {
        await guarded.close();
      }
    });

    it('records every request with key values blanked, serves the log over HTTP and clears it on DELETE', async () => {
      await (
        await openaiCompletions(
          endpoint,
          { messages: [{ role: 'user', content: 'hi' }] },
          { ...OPENAI_HEADERS, authorization: 'Bearer sk-very-secret' },
        )
      ).text();
      await (await fetch(`${endpoint.anthropicBaseUrl}/v1/models`, { headers: { 'x-api-key': 'also-secret' } })).text();
      const log = (await (await fetch(`${endpoint.url}/__requests`)).json()) as {
        protocol: string;
        method: string;
        path: string;
        headers: Record<string, string>;
        body: unknown;
      }[];
      assert.deepEqual(
        log.map((request) => [request.protocol, request.method, request.path]),
        [
          ['openai', 'POST', '/openai/v1/chat/completions'],
          ['anthropic', 'GET', '/anthropic/v1/models'],
        ],
      );
      assert.equal(log[0]?.headers['authorization'], '[redacted]');
      assert.equal(log[1]?.headers['x-api-key'], '[redacted]');
      assert.deepEqual(log[0]?.body, { model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] });
      assert.ok(!JSON.stringify(log).includes('secret'));
      assert.deepEqual(endpoint.requests, log);
      assert.equal((await fetch(`${endpoint.url}/__requests`, { method: 'DELETE' })).status, 204);
      assert.deepEqual(endpoint.requests, []);
    });
  });

  describe('scripts', () => {
    const user = (text: string): ConversationTurn => ({ kind: 'user', text });
    const tools = ['read_fd', 'fd_to_file', 'list_refs'];

    it('answers with the default demo: two refs, a Python function and a JSON config naming 1-11 and 2-1', () => {
      const { refs, diagnostics } = extractRefs(DEFAULT_ANSWER);
      assert.deepEqual(
        refs.map((ref) => [ref.id, ref.language]),
        [
          ['greet', 'python'],
          ['config', 'json'],
        ],
      );
      assert.match(refs[1]?.content ?? '', /"1-11"[\s\S]*"2-1"/);
      assert.deepEqual(diagnostics, []);
      assert.equal(textOfReply(scriptedReply([user('Hello')], tools)), DEFAULT_ANSWER);
    });

    it('gives the refs script its tricky cases: nesting, a fence, a literal tag in code, a duplicate, a bad id, an unclosed tag', () => {
      const { refs, diagnostics } = extractRefs(REFS_ANSWER);
      assert.deepEqual(
        refs.map((ref) => ref.id),
        ['outer', 'inner', 'fenced', 'dup', 'dup'],
      );
      assert.equal(refs[2]?.language, 'ts');
      assert.deepEqual(
        refs.slice(3).map((ref) => ref.content),
        ['first version', 'second version'],
      );
      assert.equal(diagnostics.length, 2);
      assert.match(diagnostics[0]?.message ?? '', /bad id/);
      assert.match(diagnostics[1]?.message ?? '', /Unclosed/);
      const reply = scriptedReply([user('refs')], tools);
      assert.ok(reply.kind === 'answer' && reply.chunks.every((chunk) => chunk.length <= 6));
    });

    it('chooses by the first keyword line of the last paragraph of the last message the user typed, not by tool results', () => {
      assert.equal(textOfReply(scriptedReply([user('Please show me\nentities\nthanks')], tools)), ENTITIES_ANSWER);
      assert.equal(
        textOfReply(scriptedReply([user('error 500\n\nHello')], tools)),
        DEFAULT_ANSWER,
        'a merged message: the newest part counts',
      );
      assert.equal(
        textOfReply(scriptedReply([user('I like refs')], tools)),
        DEFAULT_ANSWER,
        'a keyword must start a line',
      );
      const afterTools = scriptedReply(
        [
          user('call read_fd {}'),
          { kind: 'assistant' },
          { kind: 'toolResults', results: [{ callId: 'a', name: 'read_fd', content: 'xss', isError: false }] },
        ],
        tools,
      );
      assert.equal(textOfReply(afterTools), 'Result of read_fd: xss');
    });

    it('runs call NAME {json} as calls at step 0, quotes the results at step 1, and stops at step 2', () => {
      const step0 = scriptedReply([user('call read_fd {"fd": "fd:1"}\ncall list_refs')], tools);
      assert.ok(step0.kind === 'answer');
      assert.equal(step0.chunks.join(''), 'Calling read_fd, list_refs.');
      assert.deepEqual(step0.toolCalls, [
        { name: 'read_fd', arguments: '{"fd":"fd:1"}' },
        { name: 'list_refs', arguments: '{}' },
      ]);
      const long = 'x'.repeat(400);
      const step1 = scriptedReply(
        [
          user('call read_fd {}'),
          { kind: 'assistant' },
          {
            kind: 'toolResults',
            results: [
              { callId: 'a', name: 'read_fd', content: long, isError: false },
              { callId: 'b', name: 'list_refs', content: 'no', isError: true },
            ],
          },
        ],
        tools,
      );
      assert.equal(textOfReply(step1), `Result of read_fd: ${'x'.repeat(300)}\n\nError from list_refs: no`);
      const step2 = scriptedReply(
        [user('call read_fd {}'), { kind: 'assistant' }, { kind: 'toolResults', results: [] }, { kind: 'assistant' }],
        tools,
      );
      assert.equal(textOfReply(step2), 'That is all for this script.');
      assert.equal(
        textOfReply(scriptedReply([user('call rm_rf {}')], tools)),
        "I can't call rm_rf: the request offers no tool by that name.",
      );
    });

    it('runs write PATH as a greeting ref and an fd_to_file call, then says whether the write succeeded', () => {
      const step0 = scriptedReply([user('write src/hello world.py')], tools);
      assert.ok(step0.kind === 'answer');
      assert.deepEqual(
        extractRefs(step0.chunks.join('')).refs.map((ref) => [ref.id, ref.language]),
        [['greeting', 'python']],
      );
      assert.deepEqual(step0.toolCalls, [
        { name: 'fd_to_file', arguments: '{"fd":"ref:greeting","file_path":"src/hello world.py"}' },
      ]);
      const after = (content: string, isError: boolean): string =>
        textOfReply(
          scriptedReply(
            [
              user('write a.py'),
              { kind: 'assistant' },
              { kind: 'toolResults', results: [{ callId: 'c', name: 'fd_to_file', content, isError }] },
            ],
            tools,
          ),
        );
      assert.equal(
        after('<fd_written path="a.py"/>', false),
        'The write succeeded. fd_to_file said: <fd_written path="a.py"/>',
      );
      assert.equal(
        after('<fd_error type="outside_workspace">no</fd_error>', true),
        'The write failed. fd_to_file said: <fd_error type="outside_workspace">no</fd_error>',
      );
    });

    it('streams big as about 500 KB in exactly 10,000 chunks holding 20 refs', async () => {
      const events = await readEvents(
        await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'big' }] }),
      );
      const pieces = events.slice(0, -1).flatMap((event) => {
        const content = (JSON.parse(event.data) as { choices: { delta: { content?: string } }[] }).choices[0]?.delta
          .content;
        return content === undefined || content === '' ? [] : [content];
      });
      assert.equal(pieces.length, BIG_CHUNK_COUNT);
      assert.equal(pieces.join(''), bigAnswer());
      assert.ok(bigAnswer().length > 450_000 && bigAnswer().length < 550_000);
      assert.deepEqual(
        extractRefs(bigAnswer()).refs.map((ref) => ref.id),
        Array.from({ length: 20 }, (_, i) => `part_${i + 1}`),
      );
    });

    it('puts every kind of script injection in the xss answer, inside and outside refs', () => {
      for (const needle of ['<script>', 'onerror=', '](javascript:', 'href="javascript:', '<iframe', '<svg onload'])
        assert.ok(XSS_ANSWER.includes(needle), needle);
      const refs = extractRefs(XSS_ANSWER).refs;
      assert.deepEqual(
        refs.map((ref) => ref.id),
        ['xss_ref', 'xss_html'],
      );
      assert.match(refs[0]?.content ?? '', /<script>/);
    });

    it('names the entities 1-11, 2-1, 9-11 and 0-1 in prose and JSON', () => {
      for (const id of ['1-11', '2-1', '9-11', '0-1'])
        assert.ok(ENTITIES_ANSWER.includes(`"${id}"`) && ENTITIES_ANSWER.split(id).length >= 3, id);
    });

    it('paces slow at 100 ms a chunk', async () => {
      const response = await anthropicMessages(endpoint, { messages: [{ role: 'user', content: 'slow' }] });
      const reader = response.body?.getReader();
      assert.ok(reader);
      const decoder = new TextDecoder();
      let text = '';
      const started = Date.now();
      while (!text.includes(`"text":"${SLOW_CHUNKS[3]}"`)) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value);
      }
      assert.ok(Date.now() - started >= 280, `three pauses took ${Date.now() - started} ms`);
      await reader.cancel();
    });

    it('applies chunkDelayMs between the chunks of every script', async () => {
      const delayed = await startModelEndpoint({ chunkDelayMs: 30 });
      try {
        const started = Date.now();
        await (
          await openaiCompletions(delayed, {
            tools: OPENAI_TOOLS,
            messages: [{ role: 'user', content: 'call read_fd {"fd":"fd:1"}' }],
          })
        ).text();
        // "Calling read_fd." is 3 chunks and the arguments 4 pieces: at least 5 pauses.
        assert.ok(Date.now() - started >= 150, `took ${Date.now() - started} ms`);
      } finally {
        await delayed.close();
      }
    });
  });

  describe('failures on the wire', () => {
    it('drop destroys the socket mid-stream, after some text', async () => {
      const response = await openaiCompletions(endpoint, { messages: [{ role: 'user', content: 'drop' }] });
      assert.equal(response.status, 200);
      await assert.rejects(response.text(), /terminated/);
    });

    it('malformed sends a data line that is not JSON and ends the response', async () => {
      const events = await readEvents(
        await anthropicMessages(endpoint, { messages: [{ role: 'user', content: 'malformed' }] }),
      );
      assert.throws(() => JSON.parse(events.at(-1)?.data ?? ''), SyntaxError);
      assert.ok(events.slice(0, -1).every((event) => JSON.parse(event.data) !== undefined));
    });

    it('close() ends open streams at once, frees the port and leaves nothing running', async () => {
      const closing = await startModelEndpoint();
      const port = Number(new URL(closing.url).port);
      const response = await anthropicMessages(closing, { messages: [{ role: 'user', content: 'slow' }] });
      const body = response.text();
      const started = Date.now();
      await closing.close();
      await assert.rejects(body);
      assert.ok(Date.now() - started < 500, `closed in ${Date.now() - started} ms`);
      const again = http.createServer();
      await new Promise<void>((resolve, reject) => {
        again.once('error', reject);
        again.listen(port, '127.0.0.1', resolve);
      });
      await new Promise((resolve) => again.close(resolve));
    });
  });
});
