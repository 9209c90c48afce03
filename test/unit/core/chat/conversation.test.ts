import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { Session, extractRefs, nodeFileSystem } from '../../../../src/core';
import { Conversation } from '../../../../src/core/chat/conversation';
import type { ChatModel, ConversationHost, ExtraTool } from '../../../../src/core/chat/conversationHost';
import { createAnthropicClient } from '../../../../src/core/chat/providers/anthropic';
import { createOpenAiCompatibleClient } from '../../../../src/core/chat/providers/openaiCompatible';
import type {
  AssistantMessageRecord,
  ChatRecord,
  ConfirmationRecord,
  WriteConfirmationRecord,
} from '../../../../src/core/session/transcript';
import { memoryOutputs } from '../../../support/memoryOutput';
import { Recorder } from '../../../support/chatRecorder';
import { useModelEndpoint } from '../../../support/mochaHooks';
import type { ModelEndpoint } from '../../../support/modelEndpoint';
import { tempWorkspace } from '../../support/tempWorkspace';
import { memoryText } from '../../../support/descriptorText';

type Protocol = 'anthropic' | 'openai';

/** A conversation wired to the loopback endpoint with the real provider client, recording what it posts. */
function setUp(
  endpoint: ModelEndpoint,
  protocol: Protocol,
  options: Partial<{
    trusted: boolean;
    autoApprove: boolean;
    autoApproveCommands: boolean;
    allow: boolean;
    extraTools: ExtraTool[];
    missingTool: (name: string) => string | undefined;
    /** The user never answers: the confirmation resolves false only when the answer is stopped. */
    neverAnswer: boolean;
  }> = {},
) {
  const workspace = tempWorkspace();
  const recorder = new Recorder();
  const posted = recorder.messages;
  const confirmations: WriteConfirmationRecord[] = [];
  const asked: ConfirmationRecord[] = [];
  const output = memoryOutputs();
  const registered: string[] = [];
  let descriptorsAdded = 0;
  const client =
    protocol === 'anthropic'
      ? createAnthropicClient({ label: 'Loopback', baseUrl: endpoint.anthropicBaseUrl, maxRetries: 0 })
      : createOpenAiCompatibleClient({ label: 'Loopback', baseUrl: endpoint.openaiBaseUrl, maxRetries: 0 });
  const model: ChatModel = {
    client,
    model: protocol === 'anthropic' ? 'claude-loopback' : 'gpt-loopback',
    label: 'loopback',
    maxTokens: 1000,
  };
  const host: ConversationHost = {
    chatName: () => 'Loopback chat',
    model: async () => model,
    workspace: () => ({ roots: [workspace.root], fileSystem: nodeFileSystem, trusted: options.trusted ?? true }),
    confirm: async (_callId, confirmation, signal) => {
      asked.push(confirmation);
      if (options.neverAnswer === true)
        return new Promise((resolve) => signal.addEventListener('abort', () => resolve(false)));
      if (confirmation.kind !== 'command' && confirmation.kind !== 'tool') confirmations.push(confirmation);
      return options.allow ?? true;
    },
    autoApproveCommands: () => options.autoApproveCommands ?? false,
    streamOutput: output.start,
    ...(options.missingTool === undefined ? {} : { missingTool: options.missingTool }),
    autoApproveWrites: () => options.autoApprove ?? false,
    limits: () => ({ maxToolOutputChars: 300, maxInputChars: 500 }),
    extraTools: () => options.extraTools ?? [],
    systemPrompt: () => 'Be brief.',
    displayPath: (p) => p.slice(workspace.root.length + 1),
  };
  const record: ChatRecord = { messages: [] };
  const conversation = new Conversation(new Session(), record, host, {
    post: recorder.post,
    refsRegistered: (ids) => registered.push(...ids),
    descriptorsAdded: () => descriptorsAdded++,
    changed: () => {},
  });
  const lastAnswer = () =>
    record.messages.filter((m): m is AssistantMessageRecord => m.role === 'assistant').at(-1) as AssistantMessageRecord;
  return {
    workspace,
    posted,
    confirmations,
    asked,
    outputs: output.outputs,
    registered,
    conversation,
    record,
    lastAnswer,
    descriptors: () => descriptorsAdded,
  };
}

async function waitFor<T>(probe: () => T | undefined, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

for (const protocol of ['anthropic', 'openai'] as const) {
  describe(`Conversation over the ${protocol} protocol (real client, loopback endpoint)`, function () {
    this.timeout(20_000);
    const endpoint = useModelEndpoint();

    const lastBody = () => JSON.stringify(endpoint.requests.at(-1)?.body ?? null);

    it('registers each ref as it closes, before the round ends, and posts events in stream order', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('Hello');
      const types = t.posted.map((m) => m.type);
      assert.ok(types.indexOf('refOpened') < types.indexOf('refClosed'));
      assert.ok(types.lastIndexOf('refClosed') < types.indexOf('roundEnded'));
      assert.deepEqual(t.registered, ['greet', 'config']);
      assert.equal(t.lastAnswer().status, 'complete');
      assert.deepEqual(t.lastAnswer().rounds[0]?.refVersions, [1, 1]);
      assert.match(memoryText(t.conversation.session.getDescriptor('ref:greet')) ?? '', /def greet/);
      assert.match(lastBody(), /Be brief\./);
      assert.match(lastBody(), /fdref_instructions/);
      t.workspace.dispose();
    });

    it('gives a reused id its next version only when its content changed', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('Hello');
      await t.conversation.send('Hello');
      // The same answer again: its refs keep version 1, as they are.
      assert.deepEqual(t.lastAnswer().rounds[0]?.refVersions, [1, 1]);
      assert.equal(t.conversation.session.getDescriptor('ref:greet@2'), undefined);
      await t.conversation.send('refs');
      const text = t.lastAnswer().rounds[0]?.text ?? '';
      const dup = extractRefs(text).refs.flatMap((ref, i) =>
        ref.id === 'dup' ? [t.lastAnswer().rounds[0]?.refVersions[i]] : [],
      );
      assert.deepEqual(dup, [1, 2]);
      t.workspace.dispose();
    });

    it('runs tool calls in a loop and sends their results back until the model answers', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('Hello');
      await t.conversation.send('call list_refs {}\ncall get_ref {"id":"config"}');
      const answer = t.lastAnswer();
      assert.equal(answer.rounds.length, 2);
      assert.deepEqual(
        answer.rounds[0]?.toolCalls.map((c) => [c.name, c.status]),
        [
          ['list_refs', 'done'],
          ['get_ref', 'done'],
        ],
      );
      assert.match(answer.rounds[0]?.toolCalls[1]?.result ?? '', /ref_content|config/);
      assert.match(lastBody(), /list_refs/);
      assert.equal(answer.status, 'complete');
      t.workspace.dispose();
    });

    it('reports a tool call with invalid arguments to the model as an error and goes on', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('call read_fd {"fd":"fd:99"}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /not_found/);
      assert.equal(t.lastAnswer().status, 'complete');
      t.workspace.dispose();
    });

    it('quotes a made-up tool name of any length in a short error to the model', async () => {
      const t = setUp(endpoint, protocol);
      const name = `x${'y'.repeat(400)}`; // a longer message would be paged (maxInputChars is 500 here)
      await t.conversation.send(`call! ${name} {}`);
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /There is no tool "xyyy/);
      assert.ok(!(call?.result ?? name).includes(name), 'the name is quoted as a short prefix');
      assert.match(call?.result ?? '', /\(401 characters\)/);
      t.workspace.dispose();
    });

    it('asks before writing and writes when allowed', async () => {
      const t = setUp(endpoint, protocol, { allow: true });
      await t.conversation.send('write out/greeting.py');
      assert.equal(t.confirmations.length, 1);
      assert.deepEqual(
        { path: t.confirmations[0]?.path, mode: t.confirmations[0]?.mode, replaces: t.confirmations[0]?.replacesFile },
        { path: 'out/greeting.py', mode: 'write', replaces: false },
      );
      assert.ok(t.posted.some((m) => m.type === 'toolCall' && m.call.status === 'awaitingConfirmation'));
      assert.match(readFileSync(t.workspace.file('out/greeting.py'), 'utf8'), /def /);
      assert.equal(t.lastAnswer().rounds[0]?.toolCalls[0]?.status, 'done');
      t.workspace.dispose();
    });

    it('writes nothing when the user denies, and tells the model', async () => {
      const t = setUp(endpoint, protocol, { allow: false });
      await t.conversation.send('write out/denied.py');
      assert.equal(existsSync(t.workspace.file('out/denied.py')), false);
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'denied');
      assert.match(call?.result ?? '', /permission_denied/);
      assert.match(lastBody(), /The user denied writing ref:greeting/);
      t.workspace.dispose();
    });

    it('writes without asking when writes are approved in the settings, and never in an untrusted workspace', async () => {
      const approved = setUp(endpoint, protocol, { autoApprove: true });
      await approved.conversation.send('write auto.py');
      assert.equal(approved.confirmations.length, 0);
      assert.ok(existsSync(approved.workspace.file('auto.py')));
      approved.workspace.dispose();
      const untrusted = setUp(endpoint, protocol, { trusted: false, autoApprove: true });
      await untrusted.conversation.send('write never.py');
      assert.equal(untrusted.confirmations.length, 0);
      assert.equal(existsSync(untrusted.workspace.file('never.py')), false);
      assert.match(untrusted.lastAnswer().rounds[0]?.toolCalls[0]?.result ?? '', /permission_denied.*not trusted/s);
      untrusted.workspace.dispose();
    });

    it('refuses a write outside the workspace without asking', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('write ../outside.py');
      assert.equal(t.confirmations.length, 0);
      assert.match(t.lastAnswer().rounds[0]?.toolCalls[0]?.result ?? '', /outside_workspace/);
      t.workspace.dispose();
    });

    it('pages a long message and stores a long tool output as descriptors', async () => {
      const big: ExtraTool = {
        definition: { name: 'dump', description: 'Dumps a lot.', inputSchema: { type: 'object', properties: {} } },
        run: async () => 'row\n'.repeat(1000),
      };
      const t = setUp(endpoint, protocol, { extraTools: [big] });
      await t.conversation.send('p'.repeat(2000));
      const user = t.record.messages[0];
      assert.ok(
        user?.role === 'user' && user.descriptor?.id === 'fd:1' && user.modelText?.startsWith('<fd_user_input'),
      );
      await t.conversation.send('call dump {}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.descriptor, 'fd:2');
      assert.match(call?.result ?? '', /^<fd_result fd="fd:2"/);
      assert.equal(memoryText(t.conversation.session.getDescriptor('fd:2'))?.length, 4000);
      assert.equal(t.descriptors(), 2);
      t.workspace.dispose();
    });

    it('returns read_all of a 9,000-character descriptor whole to the model (the seed contract)', async () => {
      const text = 'row\n'.repeat(2250);
      const dump: ExtraTool = {
        definition: { name: 'dump', description: 'Dumps a lot.', inputSchema: { type: 'object', properties: {} } },
        run: async () => text,
      };
      const t = setUp(endpoint, protocol, { extraTools: [dump] });
      await t.conversation.send('call dump {}');
      assert.equal(t.lastAnswer().rounds[0]?.toolCalls[0]?.descriptor, 'fd:1');
      await t.conversation.send('call read_fd {"fd":"fd:1","read_all":true}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'done');
      assert.equal(
        call?.result,
        `<fd_content fd="fd:1" page="all" pages="3" continued="false" truncated="false" lines="1-2250" total_lines="2250">${text}</fd_content>`,
      );
      t.workspace.dispose();
    });

    /** The tool names the request at `index` offered. */
    const offeredAt = (index: number): string[] => {
      const body = endpoint.requests[index]?.body as { tools?: { name?: string; function?: { name: string } }[] };
      return (body.tools ?? []).map((tool) => tool.name ?? tool.function?.name ?? '');
    };

    it('runs a command after the user allows it, keeps its long output whole as a descriptor, and lets the model search, extract and write part of it', async () => {
      const t = setUp(endpoint, protocol, { allow: true });
      const first = endpoint.requests.length;
      await t.conversation.send(
        'fd workflow\nrun seq 1 100000\nsearch ^9999[0-9]$\nextract 99990 6\nwrite out/tail.txt',
      );
      assert.ok(offeredAt(first).includes('run_command'), offeredAt(first).join(', '));
      const calls = t.lastAnswer().rounds.flatMap((round) => round.toolCalls);
      assert.deepEqual(
        calls.map((call) => [call.name, call.status]),
        [
          ['run_command', 'done'],
          ['search_fd', 'done'],
          ['read_fd', 'done'],
          ['fd_to_file', 'done'],
        ],
        calls.map((call) => call.result).join('\n'),
      );
      const run = calls[0];
      assert.deepEqual(run?.confirmation, {
        kind: 'command',
        command: 'seq 1 100000',
        cwd: t.workspace.root,
        timeoutS: 120,
      });
      assert.equal(run?.descriptor, 'fd:1');
      assert.match(run?.summary ?? '', /^exit code 0 · 588,895 chars in fd:1$/);
      assert.match(
        run?.result ?? '',
        /^<command_result exit_code="0"[^>]* fd="fd:1" chars="588895" total_lines="100000"/,
      );
      const whole = Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join('');
      const kept = t.conversation.session.getDescriptor('fd:1');
      assert.equal(memoryText(kept), whole, 'the whole output is kept');
      assert.deepEqual(
        { ...kept?.command, startedAt: typeof kept?.command?.startedAt, endedAt: typeof kept?.command?.endedAt },
        {
          commandLine: 'seq 1 100000',
          cwd: t.workspace.root,
          exitCode: 0,
          startedAt: 'string',
          endedAt: 'string',
          outputChars: 588_895,
          cut: false,
        },
      );
      assert.equal(kept?.toolName, 'run_command');
      assert.deepEqual(
        t.outputs.map((o) => o.state),
        ['sealed'],
      );
      assert.match(calls[1]?.result ?? '', /99990/);
      assert.equal(
        readFileSync(t.workspace.file('out/tail.txt'), 'utf8'),
        '99990\n99991\n99992\n99993\n99994\n99995\n',
      );
      assert.deepEqual(
        t.asked.map((c) => c.kind ?? 'write'),
        ['command', 'write'],
      );
      assert.equal(t.lastAnswer().status, 'complete');
      t.workspace.dispose();
    });

    it('returns a short output inline, storing nothing', async () => {
      const t = setUp(endpoint, protocol, { autoApproveCommands: true });
      await t.conversation.send('call run_command {"command":"echo out; echo err >&2; exit 3"}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'done');
      assert.equal(call?.descriptor, undefined);
      assert.equal(call?.summary, 'exit code 3 · 8 chars');
      assert.match(call?.result ?? '', /<output>out\nerr\n<\/output>/);
      assert.deepEqual(
        t.outputs.map((o) => o.state),
        ['aborted'],
      );
      assert.equal(t.asked.length, 0, 'fdref.chat.autoApproveCommands runs it without asking');
      t.workspace.dispose();
    });

    it('runs nothing when the user denies a command, and tells the model not to retry', async () => {
      const t = setUp(endpoint, protocol, { allow: false });
      await t.conversation.send('call run_command {"command":"touch made.txt"}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'denied');
      assert.match(call?.result ?? '', /<fd_error type="permission_denied">The user denied running "touch made.txt"/);
      assert.match(call?.result ?? '', /Do not run this command again/);
      assert.equal(existsSync(t.workspace.file('made.txt')), false);
      assert.equal(t.outputs.length, 0);
      assert.match(lastBody(), /The user denied running/);
      t.workspace.dispose();
    });

    it('refuses a folder outside the workspace without asking', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('call run_command {"command":"pwd","cwd":".."}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /outside_workspace/);
      assert.equal(t.asked.length, 0);
      t.workspace.dispose();
    });

    it('offers no run_command in an untrusted workspace and refuses one called anyway, also with auto-approve on', async () => {
      const t = setUp(endpoint, protocol, { trusted: false, autoApproveCommands: true });
      const first = endpoint.requests.length;
      await t.conversation.send('call! run_command {"command":"touch made.txt"}');
      assert.ok(!offeredAt(first).includes('run_command'), offeredAt(first).join(', '));
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /permission_denied.*Restricted Mode/s);
      assert.equal(existsSync(t.workspace.file('made.txt')), false);
      assert.equal(t.asked.length, 0);
      t.workspace.dispose();
    });

    it('ends the whole process group of a running command on Stop', async () => {
      const t = setUp(endpoint, protocol, { autoApproveCommands: true });
      const pidFile = t.workspace.file('child.pid');
      const done = t.conversation.send(
        'call run_command {"command":"sleep 60 & echo $! > child.pid; echo started; wait"}',
      );
      const child = await waitFor(() => {
        const text = existsSync(pidFile) ? readFileSync(pidFile, 'utf8').trim() : '';
        return text === '' ? undefined : Number(text);
      });
      assert.ok(isAlive(child));
      await t.conversation.stop();
      await done;
      await waitFor(() => (isAlive(child) ? undefined : true));
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /cancelled="true"/);
      assert.match(call?.summary ?? '', /^stopped/);
      assert.equal(t.lastAnswer().status, 'stopped');
      t.workspace.dispose();
    });

    it('runs nothing when Stop comes while a command waits for the user, and marks the call stopped', async () => {
      const t = setUp(endpoint, protocol, { neverAnswer: true });
      const done = t.conversation.send('call run_command {"command":"touch made.txt"}');
      await waitFor(() => (t.asked.length > 0 ? true : undefined));
      await t.conversation.stop();
      await done;
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.match(call?.result ?? '', /stopped the answer before this call finished/);
      assert.equal(call?.unanswered, true);
      assert.equal(existsSync(t.workspace.file('made.txt')), false);
      assert.equal(t.outputs.length, 0);
      assert.equal(t.lastAnswer().status, 'stopped');
      t.workspace.dispose();
    });

    it("asks before another extension's tool runs, and runs it only when allowed", async () => {
      let runs = 0;
      const tool: ExtraTool = {
        definition: {
          name: 'other_tool',
          description: 'Another one.',
          inputSchema: { type: 'object', properties: {} },
        },
        confirmation: (args) => ({
          kind: 'tool',
          tool: 'other_tool',
          description: 'Another one.',
          input: JSON.stringify(args),
        }),
        run: async () => `ran ${++runs}`,
      };
      const denied = setUp(endpoint, protocol, { allow: false, extraTools: [tool] });
      await denied.conversation.send('call other_tool {"q":1}');
      const refused = denied.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(refused?.status, 'denied');
      assert.match(refused?.result ?? '', /The user denied running the tool other_tool/);
      assert.equal(runs, 0);
      assert.deepEqual(denied.asked, [
        { kind: 'tool', tool: 'other_tool', description: 'Another one.', input: '{"q":1}' },
      ]);
      denied.workspace.dispose();
      const allowed = setUp(endpoint, protocol, { allow: true, extraTools: [tool] });
      await allowed.conversation.send('call other_tool {"q":1}');
      assert.equal(allowed.lastAnswer().rounds[0]?.toolCalls[0]?.result, 'ran 1');
      allowed.workspace.dispose();
    });

    it('tells the model when a tool it called is gone', async () => {
      const t = setUp(endpoint, protocol, {
        missingTool: (name) => (name === 'gone_tool' ? 'The tool gone_tool is no longer available.' : undefined),
      });
      await t.conversation.send('call! gone_tool {}');
      const call = t.lastAnswer().rounds[0]?.toolCalls[0];
      assert.equal(call?.status, 'error');
      assert.equal(call?.result, '<fd_error type="not_found">The tool gone_tool is no longer available.</fd_error>');
      t.workspace.dispose();
    });

    it('stops a streaming answer, keeping the text that arrived', async () => {
      const t = setUp(endpoint, protocol);
      const done = t.conversation.send('slow');
      while (t.posted.filter((m) => m.type === 'textDelta').length < 3) await new Promise((r) => setTimeout(r, 20));
      const started = Date.now();
      await t.conversation.stop();
      await done;
      assert.ok(Date.now() - started < 2000, 'stopping is prompt');
      assert.equal(t.lastAnswer().status, 'stopped');
      assert.ok((t.lastAnswer().rounds[0]?.text.length ?? 0) > 0);
      assert.equal(t.conversation.busy, false);
      t.workspace.dispose();
    });

    it('keeps the conversation after an error and answers again on retry', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('error 500');
      assert.equal(t.lastAnswer().status, 'error');
      assert.ok(t.lastAnswer().error?.message);
      assert.equal(t.lastAnswer().error?.action, 'retry');
      await t.conversation.send('Hello');
      assert.equal(t.record.messages.length, 4);
      assert.equal(t.lastAnswer().status, 'complete');
      await t.conversation.retry();
      assert.equal(t.record.messages.length, 4, 'the retried answer replaced the last one');
      assert.ok(t.posted.some((m) => m.type === 'messagesRemoved'));
      t.workspace.dispose();
    });

    it('edits a message and answers it again, dropping what came after', async () => {
      const t = setUp(endpoint, protocol);
      await t.conversation.send('Hello');
      await t.conversation.send('Hello again');
      const first = t.record.messages[0];
      assert.ok(first);
      await t.conversation.editAndResend(first.id, 'refs');
      assert.equal(t.record.messages.length, 2);
      assert.ok(t.record.messages[0]?.role === 'user' && t.record.messages[0].text === 'refs');
      t.workspace.dispose();
    });

    it('refuses a second message while answering', async () => {
      const t = setUp(endpoint, protocol);
      const done = t.conversation.send('slow');
      await assert.rejects(t.conversation.send('Hello'), /still answering/);
      await t.conversation.stop();
      await done;
      t.workspace.dispose();
    });
  });
}
