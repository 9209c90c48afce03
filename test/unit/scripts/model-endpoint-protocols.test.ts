import assert from 'node:assert/strict';
import OpenAI from 'openai';
import {
  DEFAULT_ANSWER,
  END_OF_SCRIPT,
  REFUSAL_TEXT,
  startModelEndpoint,
  type ModelEndpoint,
} from '../../support/modelEndpoint';
import { useModelEndpoint } from '../../support/mochaHooks';
import {
  scriptedReply,
  SHELL_TOOLS,
  shellResultAnswer,
  type ConversationTurn,
} from '../../support/modelEndpoint/scenarios';

const FUNCTION_TOOLS = [
  {
    type: 'function' as const,
    name: 'read_fd',
    description: 'Read.',
    parameters: { type: 'object', properties: {} },
    strict: false,
  },
];
const GEMINI_TOOLS = [
  { functionDeclarations: [{ name: 'read_fd', description: 'Read.', parameters: { type: 'object', properties: {} } }] },
];
const CALL_PROMPT = 'call read_fd {"fd":"fd:1","start":3}';

/**
 * The stream as @google/genai reads it (its `responseLineRE` and loop, as bundled in Gemini CLI 0.61.0): each
 * `data:` line ended by a blank line is one GenerateContentResponse. @google/genai is not in node_modules, so this
 * follows its parser's code; the agents test runs the real Gemini CLI against the endpoint.
 */
async function genaiChunks(response: Response): Promise<Record<string, any>[]> {
  const responseLineRE = /^\s*data: (.*)(?:\n\n|\r\r|\r\n\r\n)/;
  let buffer = await response.text();
  const chunks: Record<string, any>[] = [];
  let match = buffer.match(responseLineRE);
  while (match) {
    chunks.push(JSON.parse(match[1] ?? '') as Record<string, any>);
    buffer = buffer.slice(match[0].length);
    match = buffer.match(responseLineRE);
  }
  assert.equal(buffer.trim(), '', 'nothing is left that the parser would drop');
  return chunks;
}

function gemini(
  endpoint: ModelEndpoint,
  body: Record<string, unknown>,
  method = 'streamGenerateContent?alt=sse',
  key = 'gk',
): Promise<Response> {
  return fetch(`${endpoint.geminiBaseUrl}/v1beta/models/gemini-emulated-flash:${method}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-goog-api-key': key },
    body: JSON.stringify(body),
  });
}

/** The text of a Gemini reply, as @google/genai's `response.text` joins it. */
const geminiText = (chunks: readonly Record<string, any>[]): string =>
  chunks
    .flatMap((chunk) => chunk['candidates'][0].content.parts as { text?: string }[])
    .map((part) => part.text ?? '')
    .join('');

describe('model endpoint: the Responses API and Gemini', function () {
  this.timeout(10_000);
  const endpoint = useModelEndpoint({ clearRequests: true });
  const client = (): OpenAI => new OpenAI({ apiKey: 'k', baseURL: endpoint.openaiBaseUrl, maxRetries: 0 });

  describe('OpenAI Responses protocol', () => {
    it('streams what the openai SDK’s Responses client assembles: a message, then a function call in pieces, then response.completed', async () => {
      const stream = client().responses.stream({ model: 'gpt-emulated', input: CALL_PROMPT, tools: FUNCTION_TOOLS });
      const types: string[] = [];
      const sequence: number[] = [];
      let argumentDeltas = 0;
      for await (const event of stream) {
        types.push(event.type);
        sequence.push(event.sequence_number);
        if (event.type === 'response.function_call_arguments.delta') argumentDeltas++;
      }
      const response = await stream.finalResponse();
      assert.deepEqual(types.slice(0, 3), ['response.created', 'response.in_progress', 'response.output_item.added']);
      assert.equal(types.at(-1), 'response.completed');
      assert.deepEqual(
        sequence,
        types.map((_, i) => i),
        'sequence_number counts every event',
      );
      assert.ok(argumentDeltas >= 3, 'the arguments come in several pieces');
      assert.equal(response.status, 'completed');
      assert.equal(response.output_text, 'Calling read_fd.');
      const call = response.output.find((item) => item.type === 'function_call');
      assert.equal(call?.type, 'function_call');
      assert.equal(call.name, 'read_fd');
      assert.equal(call.arguments, '{"fd":"fd:1","start":3}');
      assert.match(call.call_id, /^call_/);
      assert.ok((response.usage?.total_tokens ?? 0) > 0);
    });

    it('sends every event under its own type as `event:` and in `data.type`, each output item whole in output_item.done', async () => {
      const response = await fetch(`${endpoint.openaiBaseUrl}/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream: true, input: CALL_PROMPT, tools: FUNCTION_TOOLS }),
      });
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const blocks = (await response.text()).split('\n\n').filter((block) => block.trim() !== '');
      const events = blocks.map((block) => {
        const [eventLine = '', dataLine = ''] = block.split('\n');
        return { event: eventLine.replace(/^event: /, ''), data: JSON.parse(dataLine.replace(/^data: /, '')) };
      });
      for (const { event, data } of events) assert.equal(data.type, event);
      const done = events.filter((e) => e.event === 'response.output_item.done').map((e) => e.data.item);
      assert.deepEqual(
        done.map((item) => [item.type, item.status]),
        [
          ['message', 'completed'],
          ['function_call', 'completed'],
        ],
      );
      assert.equal(done[1].arguments, '{"fd":"fd:1","start":3}');
      const added = events.find(
        (e) => e.event === 'response.output_item.added' && e.data.item.type === 'function_call',
      );
      assert.equal(added?.data.item.arguments, '', 'the call is announced with empty arguments');
      assert.equal(added?.data.item.call_id, done[1].call_id);
      const argsDone = events.find((e) => e.event === 'response.function_call_arguments.done');
      assert.equal(argsDone?.data.arguments, done[1].arguments);
      assert.equal(argsDone?.data.item_id, done[1].id);
    });

    it('offers a namespace tool’s functions as NAMESPACE__NAME and calls one with name and namespace apart (Codex’s MCP tools)', async () => {
      const tools = [{ type: 'namespace', name: 'mcp__fdref', description: 'fdref', tools: FUNCTION_TOOLS }];
      const post = (input: unknown): Promise<Response> =>
        fetch(`${endpoint.openaiBaseUrl}/responses`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ model: 'm', stream: true, input, tools }),
        });
      const text = await (await post('call mcp__fdref__read_fd {"fd":"fd:1"}')).text();
      const done = text
        .split('\n\n')
        .filter((block) => block.includes('response.output_item.done'))
        .map((block) => JSON.parse(block.split('\n')[1]?.replace(/^data: /, '') ?? '{}').item)
        .find((item) => item.type === 'function_call');
      assert.equal(done?.name, 'read_fd');
      assert.equal(done?.namespace, 'mcp__fdref');
      const input = [
        { role: 'user', content: 'call mcp__fdref__read_fd {"fd":"fd:1"}' },
        { ...done, type: 'function_call' },
        { type: 'function_call_output', call_id: done?.call_id, output: 'the page' },
      ];
      const answered = await post(input);
      assert.equal(answered.status, 200, 'the namespaced call is read back as a call of an offered tool');
      assert.match(await answered.text(), /Result of mcp__fdref__read_fd: the page/);
    });

    it('reads the conversation from the input items: function_call_output answers the call, step 1 quotes it', async () => {
      const response = await client().responses.create({
        model: 'gpt-emulated',
        stream: true,
        instructions: 'You are a test.',
        tools: FUNCTION_TOOLS,
        input: [
          { role: 'developer', content: 'Be brief.' },
          { type: 'message', role: 'user', content: [{ type: 'input_text', text: CALL_PROMPT }] },
          { type: 'reasoning', id: 'rs_1', summary: [] },
          {
            type: 'message',
            id: 'msg_1',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'Calling.', annotations: [] }],
          },
          { type: 'function_call', call_id: 'call_1', name: 'read_fd', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'line three' },
        ],
      });
      let text = '';
      for await (const event of response) if (event.type === 'response.output_text.delta') text += event.delta;
      assert.equal(text, 'Result of read_fd: line three');
    });

    it('streams the default answer whole as output_text deltas', async () => {
      const stream = client().responses.stream({ model: 'gpt-emulated', input: 'hello' });
      assert.equal((await stream.finalResponse()).output_text, DEFAULT_ANSWER);
    });

    it('streams a refusal as a refusal content part', async () => {
      const response = await client().responses.stream({ model: 'gpt-emulated', input: 'refusal' }).finalResponse();
      const message = response.output[0];
      assert.equal(message?.type, 'message');
      assert.deepEqual(
        message.content.map((part) => [part.type, part.type === 'refusal' ? part.refusal : part.text]),
        [['refusal', REFUSAL_TEXT]],
      );
    });

    it('refuses unpaired calls and outputs in the API’s words, and answers scripted errors as OpenAI does', async () => {
      const create = (input: OpenAI.Responses.ResponseInput): Promise<unknown> =>
        client().responses.create({ model: 'gpt-emulated', stream: true, tools: FUNCTION_TOOLS, input });
      await assert.rejects(
        create([
          { role: 'user', content: 'hi' },
          { type: 'function_call_output', call_id: 'call_9', output: 'x' },
        ]),
        (error: unknown) =>
          error instanceof OpenAI.BadRequestError &&
          /No tool call found for function call output with call_id call_9/.test(error.message),
      );
      await assert.rejects(
        create([
          { role: 'user', content: 'hi' },
          { type: 'function_call', call_id: 'call_8', name: 'read_fd', arguments: '{}' },
        ]),
        (error: unknown) =>
          error instanceof OpenAI.BadRequestError &&
          /No tool output found for function call call_8/.test(error.message),
      );
      await assert.rejects(
        create([{ role: 'user', content: 'error 429' }]),
        (error: unknown) => error instanceof OpenAI.RateLimitError && error.code === 'rate_limit_exceeded',
      );
      assert.deepEqual(
        endpoint.requests.map((request) => [request.protocol, request.path]),
        Array.from({ length: 3 }, () => ['responses', '/openai/v1/responses']),
      );
    });

    it('breaks off mid-stream on drop, and the SDK reports the broken stream', async () => {
      const stream = client().responses.stream({ model: 'gpt-emulated', input: 'drop' });
      await assert.rejects(stream.finalResponse());
    });
  });

  describe('Gemini protocol', () => {
    it('streams GenerateContentResponse lines as @google/genai parses them: text, then the call whole, then finishReason STOP', async () => {
      const response = await gemini(endpoint, {
        contents: [{ role: 'user', parts: [{ text: CALL_PROMPT }] }],
        tools: GEMINI_TOOLS,
      });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/event-stream/);
      const chunks = await genaiChunks(response);
      assert.ok(chunks.length >= 3);
      assert.equal(geminiText(chunks), 'Calling read_fd.');
      const last = chunks.at(-1) ?? {};
      assert.equal(last['candidates'][0].finishReason, 'STOP');
      assert.equal(last['candidates'][0].content.role, 'model');
      const callPart = last['candidates'][0].content.parts[0];
      assert.deepEqual(callPart.functionCall, { name: 'read_fd', args: { fd: 'fd:1', start: 3 } });
      assert.equal(typeof callPart.thoughtSignature, 'string');
      assert.ok(last['usageMetadata'].totalTokenCount > last['usageMetadata'].promptTokenCount);
      for (const chunk of chunks.slice(0, -1)) assert.equal(chunk['candidates'][0].finishReason, undefined);
      assert.equal(endpoint.requests[0]?.protocol, 'gemini');
    });

    it('answers :generateContent with one response holding the text and the calls', async () => {
      const response = await gemini(
        endpoint,
        { contents: [{ role: 'user', parts: [{ text: CALL_PROMPT }] }], tools: GEMINI_TOOLS },
        'generateContent',
      );
      assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
      const body = (await response.json()) as Record<string, any>;
      const parts = body['candidates'][0].content.parts;
      assert.deepEqual(parts[0], { text: 'Calling read_fd.' });
      assert.equal(parts[1].functionCall.name, 'read_fd');
    });

    it('reads function responses as the results of the calls before, and quotes them at step 1', async () => {
      const response = await gemini(endpoint, {
        systemInstruction: { parts: [{ text: 'You are a test.' }] },
        tools: GEMINI_TOOLS,
        contents: [
          { role: 'user', parts: [{ text: CALL_PROMPT }] },
          { role: 'model', parts: [{ text: 'Calling.' }, { functionCall: { name: 'read_fd', args: {} } }] },
          { role: 'user', parts: [{ functionResponse: { name: 'read_fd', response: { output: 'line three' } } }] },
        ],
      });
      assert.equal(geminiText(await genaiChunks(response)), 'Result of read_fd: line three');
    });

    it('refuses what Gemini refuses, in its error shape, and a wrong key as API_KEY_INVALID', async () => {
      const mismatch = await gemini(endpoint, {
        tools: GEMINI_TOOLS,
        contents: [
          { role: 'user', parts: [{ text: 'hi' }] },
          { role: 'model', parts: [{ functionCall: { name: 'read_fd', args: {} } }] },
          { role: 'user', parts: [{ text: 'no response' }] },
        ],
      });
      assert.equal(mismatch.status, 400);
      const body = (await mismatch.json()) as { error: { code: number; status: string; message: string } };
      assert.equal(body.error.status, 'INVALID_ARGUMENT');
      assert.match(body.error.message, /number of function response parts/);
      const empty = await gemini(endpoint, { contents: [] });
      assert.equal(((await empty.json()) as { error: { message: string } }).error.message.includes('contents'), true);
      const limited = await gemini(endpoint, { contents: [{ role: 'user', parts: [{ text: 'error 429' }] }] });
      assert.equal(limited.status, 429);
      assert.equal(((await limited.json()) as { error: { status: string } }).error.status, 'RESOURCE_EXHAUSTED');

      const keyed = await startModelEndpoint({ apiKey: 'right' });
      try {
        const wrong = await gemini(
          keyed,
          { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
          'generateContent',
          'wrong',
        );
        assert.equal(wrong.status, 400);
        const error = ((await wrong.json()) as { error: { details: { reason: string }[] } }).error;
        assert.equal(error.details[0]?.reason, 'API_KEY_INVALID');
        const right = await gemini(
          keyed,
          { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
          'generateContent',
          'right',
        );
        assert.equal(right.status, 200);
      } finally {
        await keyed.close();
      }
    });

    it('serves the model list and countTokens, with and without the /gemini prefix', async () => {
      for (const base of [endpoint.geminiBaseUrl, endpoint.url]) {
        const list = (await (await fetch(`${base}/v1beta/models`)).json()) as { models: { name: string }[] };
        assert.ok(list.models.some((model) => model.name === 'models/gemini-emulated-flash'));
      }
      const counted = await gemini(endpoint, { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }, 'countTokens');
      assert.ok(((await counted.json()) as { totalTokens: number }).totalTokens > 0);
    });
  });

  describe('messages of several text parts', () => {
    it('reads each text part as its own paragraph, so the script in the last part is found after a client’s reminders (Qwen Code)', async () => {
      const text = (parts: string[]): { type: 'text'; text: string }[] =>
        parts.map((part) => ({ type: 'text', text: part }));
      const reminders = [
        '<system-reminder>\nThe current date is: today.\n</system-reminder>',
        '<system-reminder>tools</system-reminder>',
      ];
      const chat = await client().chat.completions.create({
        model: 'm',
        stream: true,
        messages: [{ role: 'user', content: text([...reminders, 'entities']) }],
      });
      let chatText = '';
      for await (const chunk of chat) chatText += chunk.choices[0]?.delta.content ?? '';
      assert.match(chatText, /^Player `1-11`/);
      const responses = await client()
        .responses.stream({
          model: 'm',
          input: [
            { role: 'user', content: [...reminders, 'entities'].map((part) => ({ type: 'input_text', text: part })) },
          ],
        })
        .finalResponse();
      assert.match(responses.output_text, /^Player `1-11`/);
      const chunks = await genaiChunks(
        await gemini(endpoint, {
          contents: [{ role: 'user', parts: text([...reminders, 'entities']).map(({ text: t }) => ({ text: t })) }],
        }),
      );
      assert.match(geminiText(chunks), /^Player `1-11`/);
    });
  });

  describe('the shell script', () => {
    const user = (text: string): ConversationTurn => ({ kind: 'user', text });
    it('calls the agent’s own shell tool with that tool’s arguments, then counts what came back, then ends', () => {
      const expected: Record<string, unknown> = {
        Bash: { command: 'sh build.sh', description: 'Print the build log' },
        exec_command: { cmd: 'sh build.sh' },
        shell_command: { command: 'sh build.sh' },
        shell: { command: ['bash', '-lc', 'sh build.sh'] },
        run_shell_command: { command: 'sh build.sh', description: 'Print the build log', is_background: false },
        run_commands: { commands: ['sh build.sh'] },
        execute_command: { command: 'sh build.sh', requires_approval: false },
      };
      assert.deepEqual(Object.keys(SHELL_TOOLS).sort(), Object.keys(expected).sort());
      for (const [tool, args] of Object.entries(expected)) {
        const reply = scriptedReply([user('shell sh build.sh')], ['read_file', tool]);
        assert.equal(reply.kind, 'answer');
        assert.deepEqual(reply.toolCalls, [{ name: tool, arguments: JSON.stringify(args) }], tool);
      }
      const results: ConversationTurn = {
        kind: 'toolResults',
        results: [{ callId: 'c', name: 'Bash', content: 'x'.repeat(2048), isError: false }],
      };
      const step1 = scriptedReply([user('shell sh build.sh'), { kind: 'assistant' }, results], ['Bash']);
      assert.equal(step1.kind === 'answer' && step1.chunks.join(''), shellResultAnswer(2048));
      const step2 = scriptedReply(
        [user('shell sh build.sh'), { kind: 'assistant' }, results, { kind: 'assistant' }],
        ['Bash'],
      );
      assert.equal(step2.kind === 'answer' && step2.chunks.join(''), END_OF_SCRIPT);
      const none = scriptedReply([user('shell sh build.sh')], ['read_file']);
      assert.match(none.kind === 'answer' ? none.chunks.join('') : '', /^I can't run a command/);
    });
  });
});
