import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/runtime/chatPanel';
import type { AssistantMessageView } from '../../src/core/chat/protocol';
import { Recorder } from '../support/chatRecorder';
import { useModelEndpoint, useStructsApi } from '../support/mochaHooks';
import { startModelEndpoint } from '../support/modelEndpoint';
import {
  closeAllEditors,
  eventually,
  exists,
  fdref,
  focusWorkbench,
  inWorkspace,
  readText,
  uniqueId,
} from './support/fdref';
import { setSetting } from './support/settings';
import { descriptorText } from '../support/descriptorText';
import { Store } from '../../src/core/store';

type Protocol = 'anthropic' | 'openai';

const MODEL = { anthropic: 'claude-loopback', openai: 'gpt-loopback' } as const;
const NAME = { anthropic: 'Loopback Anthropic', openai: 'Loopback OpenAI' } as const;

async function openChat(protocol: Protocol): Promise<{ panel: ChatPanel; recorder: Recorder }> {
  const api = await fdref();
  const panel = await api.chats.newChat();
  const recorder = new Recorder(panel);
  await panel.receive({ type: 'selectModel', key: `endpoint:${NAME[protocol]}/${MODEL[protocol]}` });
  return { panel, recorder };
}

function finalText(answer: AssistantMessageView): string {
  return answer.rounds.map((r) => r.text).join('');
}

for (const protocol of ['anthropic', 'openai'] as const) {
  describe(`chat over the ${protocol === 'anthropic' ? 'Anthropic Messages' : 'OpenAI Chat Completions'} protocol`, function () {
    this.timeout(60_000);
    const endpoint = useModelEndpoint();
    const structs = useStructsApi();
    const panels: ChatPanel[] = [];

    async function chat(): Promise<{ panel: ChatPanel; recorder: Recorder }> {
      const opened = await openChat(protocol);
      panels.push(opened.panel);
      return opened;
    }

    /** What the model received in the last request (the loopback endpoint's log). */
    function lastRequestBody(): string {
      const request = endpoint.requests[endpoint.requests.length - 1];
      return JSON.stringify(request?.body ?? null);
    }

    before(async () => {
      await setSetting('fdref.entities.apiBaseUrl', structs.baseUrl);
      await setSetting('fdref.chat.endpoints', [
        {
          name: NAME.anthropic,
          protocol: 'anthropic',
          baseUrl: endpoint.anthropicBaseUrl,
          model: MODEL.anthropic,
          demo: true,
        },
        { name: NAME.openai, protocol: 'openai', baseUrl: endpoint.openaiBaseUrl, model: MODEL.openai, demo: true },
      ]);
      await setSetting('fdref.chat.maxInputChars', 1000);
      await setSetting('fdref.chat.maxToolOutputChars', 500);
    });

    after(async () => {
      for (const panel of panels) panel.dispose();
      for (const key of ['endpoints', 'maxInputChars', 'maxToolOutputChars', 'autoApproveWrites'])
        await setSetting(`fdref.chat.${key}`, undefined);
      await setSetting('fdref.entities.apiBaseUrl', undefined);
    });

    it('streams an answer, shows each ref while it is written and registers it when it closes', async () => {
      const { panel, recorder } = await chat();
      await panel.send('Hello there');
      const answer = recorder.lastAnswer();
      assert.equal(answer.status, 'complete', JSON.stringify(answer.error));
      assert.ok(recorder.of('textDelta').length > 3, 'the answer arrived in several chunks');
      const opened = recorder.of('refOpened').map((m) => m.id);
      const closed = recorder.of('refClosed').map((m) => m.ref?.id);
      assert.deepEqual(opened, ['greet', 'config']);
      assert.deepEqual(closed, ['greet', 'config']);
      // Each ref closed before the round ended, and was in the session by then.
      const firstClose = recorder.messages.findIndex((m) => m.type === 'refClosed');
      assert.ok(firstClose < recorder.messages.findIndex((m) => m.type === 'roundEnded'));
      const entry = await (await fdref()).registry.get(panel.chatId);
      const greet = entry?.session.getDescriptor('ref:greet');
      assert.ok(greet, 'ref:greet is in the chat session');
      assert.equal(greet.language, 'python');
      assert.match((await descriptorText(greet)) ?? '', /def greet/);
      const rounds = answer.rounds;
      assert.deepEqual(
        rounds[0]?.refs.map((r) => [r.id, r.version, r.nested]),
        [
          ['greet', 1, false],
          ['config', 1, false],
        ],
      );
      // The model was told about the tools and refs.
      assert.match(lastRequestBody(), /fdref_instructions/);
      assert.match(lastRequestBody(), /read_fd/);
    });

    it('marks refs of the same id as new versions and reports bad tags on the message', async () => {
      const { panel, recorder } = await chat();
      await panel.send('refs please');
      const answer = recorder.lastAnswer();
      assert.equal(answer.status, 'complete');
      const round = answer.rounds[0];
      assert.ok(round);
      assert.ok(
        round.refs.some((r) => r.version === 2),
        `a second version among ${JSON.stringify(round.refs)}`,
      );
      assert.ok(
        round.refs.some((r) => r.nested),
        'a nested ref',
      );
      assert.ok(round.diagnostics.length >= 2, `diagnostics: ${JSON.stringify(round.diagnostics)}`);
    });

    it('pages a long message into a descriptor the model reads with read_fd, and the result reaches the model', async () => {
      const { panel, recorder } = await chat();
      const paste = Array.from({ length: 2000 }, (_, i) => `line ${i + 1} of the pasted log`).join('\n');
      await panel.send(paste);
      const user = recorder
        .of('messageAdded')
        .map((m) => m.message)
        .find((m) => m.role === 'user');
      assert.ok(user?.role === 'user' && user.descriptor, 'the message shows a descriptor chip');
      assert.equal(user.descriptor.id, 'fd:1');
      assert.match(lastRequestBody(), /fd_user_input/);
      assert.doesNotMatch(lastRequestBody(), /line 1900 of the pasted log/, 'the model got a preview, not all of it');
      await panel.send('call read_fd {"fd":"fd:1","start":2}');
      const call = recorder.toolCalls().find((c) => c.name === 'read_fd' && c.status === 'done');
      assert.ok(call?.result?.includes('line 1'), `read_fd result: ${call?.result?.slice(0, 200)}`);
      assert.match(lastRequestBody(), /fd_content/);
      assert.match(finalText(recorder.lastAnswer()), /read_fd/);
    });

    it('runs list_refs and get_ref and sends their results back', async () => {
      const { panel, recorder } = await chat();
      await panel.send('Hello again');
      await panel.send('call list_refs {}\ncall get_ref {"id":"greet"}');
      const calls = recorder.toolCalls().filter((c) => c.status !== 'running');
      const list = calls.find((c) => c.name === 'list_refs');
      const get = calls.find((c) => c.name === 'get_ref');
      assert.equal(list?.status, 'done');
      assert.match(list?.result ?? '', /greet/);
      assert.equal(get?.status, 'done');
      assert.match(get?.result ?? '', /def greet/);
      assert.match(lastRequestBody(), /def greet/);
      assert.equal(recorder.lastAnswer().status, 'complete');
    });

    it('asks before fd_to_file writes, and writes when allowed', async () => {
      const { panel, recorder } = await chat();
      const file = `chat-out/${uniqueId(protocol)}.py`;
      const done = panel.send(`write ${file}`);
      const waiting = await eventually(
        () => recorder.toolCalls().find((c) => c.status === 'awaitingConfirmation'),
        'the write confirmation',
        20_000,
      );
      const confirmation = waiting.confirmation;
      assert.ok(confirmation !== undefined && confirmation.kind !== 'command' && confirmation.kind !== 'tool');
      assert.equal(confirmation.path, file);
      assert.equal(confirmation.mode, 'write');
      assert.equal(confirmation.replacesFile, false);
      assert.ok(confirmation.bytes > 0);
      assert.equal(await exists(inWorkspace(file)), false, 'nothing is written before the user allows it');
      await panel.receive({ type: 'confirm', callId: waiting.callId, allow: true });
      await done;
      assert.match(await readText(inWorkspace(file)), /def /);
      const call = recorder.toolCalls().find((c) => c.callId === waiting.callId && c.status === 'done');
      assert.match(call?.result ?? '', /fd_file_result/);
      assert.match(lastRequestBody(), /fd_file_result/);
    });

    it('tells the model clearly when the user denies a write, and writes nothing', async () => {
      const { panel, recorder } = await chat();
      const file = `chat-out/${uniqueId('denied')}.py`;
      const done = panel.send(`write ${file}`);
      const waiting = await eventually(
        () => recorder.toolCalls().find((c) => c.status === 'awaitingConfirmation'),
        'the write confirmation',
        20_000,
      );
      await panel.receive({ type: 'confirm', callId: waiting.callId, allow: false });
      await done;
      assert.equal(await exists(inWorkspace(file)), false);
      const call = recorder.toolCalls().find((c) => c.callId === waiting.callId && c.status === 'denied');
      assert.match(call?.result ?? '', /permission_denied/);
      assert.match(lastRequestBody(), /The user denied writing/);
      assert.equal(recorder.lastAnswer().status, 'complete');
    });

    it('stores a long tool output as a descriptor and gives the model a preview', async () => {
      const { panel, recorder } = await chat();
      const guild = structs.idsOf('guild')[0] as string;
      await panel.send(`call structs_entity {"id":"${guild}","depth":2}`);
      const call = recorder.toolCalls().find((c) => c.name === 'structs_entity' && c.status !== 'running');
      assert.equal(call?.status, 'done', call?.result);
      assert.match(call?.descriptor ?? '', /^fd:\d+$/);
      assert.match(call?.result ?? '', /<fd_result fd="fd:\d+"/);
      const entry = await (await fdref()).registry.get(panel.chatId);
      const descriptor = entry?.session.getDescriptor(call?.descriptor as string);
      assert.equal(descriptor?.source, 'tool_output');
      assert.match((await descriptorText(descriptor)) ?? '', new RegExp(`"id": "${guild}"`));
    });

    it('forks a chat from a message with its refs and descriptors', async () => {
      const { panel, recorder } = await chat();
      await panel.send('x'.repeat(1500));
      await panel.send('Hello');
      const firstAnswer = recorder
        .of('messageAdded')
        .map((m) => m.message)
        .find((m) => m.role === 'assistant');
      assert.ok(firstAnswer);
      const api = await fdref();
      const before = new Set(api.chats.all.map((p) => p.chatId));
      await panel.receive({ type: 'fork', messageId: firstAnswer.id });
      const forked = api.chats.all.find((p) => !before.has(p.chatId));
      assert.ok(forked, 'a new chat panel opened');
      panels.push(forked);
      const entry = await api.registry.get(forked.chatId);
      assert.equal(entry?.chat?.messages.length, 2, 'the messages up to the fork point');
      assert.ok(entry?.session.getDescriptor('fd:1'), 'the paged message came along');
      assert.ok(entry?.session.getDescriptor('ref:greet'), 'the refs came along');
      assert.equal(entry?.metadata.origin.kind, 'chat');
      // The fork keeps its contents when the chat it came from is deleted, also while its own chat is open.
      const parentId = panel.chatId;
      panel.dispose();
      await api.registry.delete(parentId);
      const kept = await api.registry.get(forked.chatId);
      assert.equal(await descriptorText(kept?.session.getDescriptor('fd:1')), 'x'.repeat(1500));
      assert.match((await descriptorText(kept?.session.getDescriptor('ref:greet'))) ?? '', /def greet/);
    });

    it('comes back with its history after the session store is reloaded and after a restart', async () => {
      const { panel, recorder } = await chat();
      await panel.send('Hello');
      const api = await fdref();
      const ids = recorder.of('messageAdded').map((m) => m.message.id);
      // A reload (the Refresh button) leaves a chat this window writes as it is in memory: it is the newest state.
      const before = await api.registry.get(panel.chatId);
      await api.registry.reload();
      assert.equal(await api.registry.get(panel.chatId), before, 'the chat held in memory stays');
      // A restart: VS Code hands the serializer a new panel and the state the webview saved.
      const chatId = panel.chatId;
      panel.dispose();
      const webviewPanel = vscode.window.createWebviewPanel('fdref.chat', 'restored', vscode.ViewColumn.One, {});
      await api.chats.deserializeWebviewPanel(webviewPanel, { chatId });
      const restored = api.chats.get(chatId);
      assert.ok(restored, 'the panel was restored');
      panels.push(restored);
      const restoredRecorder = new Recorder(restored);
      await restored.receive({ type: 'ready' });
      const init = restoredRecorder.of('init')[0];
      assert.deepEqual(
        init?.messages.map((m) => m.id),
        ids,
      );
      const answer = init?.messages[1];
      assert.ok(answer?.role === 'assistant' && answer.rounds[0]?.refs.length === 2, 'the answer keeps its refs');
    });

    it("runs the palette's commands for a ref block's buttons, opens a descriptor chip and exports the chat as Markdown", async () => {
      const { panel } = await chat();
      await panel.send('x'.repeat(1500));
      await panel.send('Hello');
      await focusWorkbench(); // not the chat's webview: the browser's clipboard needs the page focused
      await panel.receive({ type: 'refAction', action: 'copy', ref: 'ref:greet' });
      assert.match(await vscode.env.clipboard.readText(), /def greet/);
      await panel.receive({ type: 'openDescriptor', descriptor: 'fd:1' });
      const opened = await eventually(
        () =>
          vscode.window.visibleTextEditors.find(
            (e) => e.document.uri.scheme === 'fdref' && e.document.getText().startsWith('xxx'),
          ),
        'fd:1 open',
      );
      assert.equal(opened.document.getText().length, 1500);
      await panel.receive({ type: 'exportMarkdown' });
      const exported = await eventually(
        () =>
          vscode.workspace.textDocuments.find(
            (d) => d.isUntitled && d.languageId === 'markdown' && d.getText().includes('def greet'),
          ),
        'the Markdown export',
      );
      assert.match(exported.getText(), /^# Chat /);
      await closeAllEditors();
    });

    it("answers the webview's question about an entity id with the same details as the editor hover", async () => {
      const { panel, recorder } = await chat();
      const player = structs.idsOf('player')[0] as string;
      await panel.receive({ type: 'entityHover', requestId: 7, id: player });
      const details = await eventually(
        () => recorder.of('entityDetails').find((m) => m.requestId === 7),
        'the entity details',
      );
      assert.equal(details.id, player);
      assert.ok(details.markdown.includes(`Player ${player.replace('-', '\\-')}`), details.markdown);
      assert.match(details.markdown, /\[Open as JSON\]\(command:fdref\.openEntity/);
    });

    it('stops a streaming answer and keeps what arrived', async () => {
      const { panel, recorder } = await chat();
      const done = panel.send('slow');
      await eventually(
        () => (recorder.of('textDelta').length >= 3 ? true : undefined),
        'some streamed text',
        20_000,
      ).catch((error: Error) => {
        throw new Error(`${error.message}; the answer: ${JSON.stringify(recorder.lastAnswer())}`);
      });
      await panel.receive({ type: 'stop' });
      await done;
      const answer = recorder.lastAnswer();
      assert.equal(answer.status, 'stopped');
      assert.ok(finalText(answer).length > 0);
      // The chat goes on after a stop.
      await panel.send('Hello');
      assert.equal(recorder.lastAnswer().status, 'complete');
    });

    it('records an answer being given as stopped when the window closes, with what arrived', async () => {
      const { panel, recorder } = await chat();
      const done = panel.send('slow');
      await eventually(() => (recorder.of('textDelta').length >= 3 ? true : undefined), 'some streamed text', 20_000);
      const api = await fdref();
      await api.chats.close(); // what deactivate does before the sessions close
      await done;
      await eventually(
        async () => {
          const stored = await Store.open(api.registry.storeFolder);
          const messages = (await (await stored.read(panel.chatId))?.materialize())?.chat?.messages ?? [];
          await stored.close();
          const last = messages.at(-1);
          return last?.role === 'assistant' && last.status === 'stopped' && last.rounds[0]?.text !== ''
            ? true
            : undefined;
        },
        'the journal saying the answer stopped, with its text',
        20_000,
      );
      // The panel stays (VS Code restores its tab); the chat goes on.
      await panel.send('Hello');
      assert.equal(recorder.lastAnswer().status, 'complete');
    });

    for (const [scenario, pattern] of [
      ['error 429', /limiting how often|rate limit/i],
      ['drop', /connection|closed|ended/i],
      ['malformed', /not a valid .* stream/i],
    ] as const) {
      it(`ends "${scenario}" in a clear message and keeps the conversation`, async () => {
        const { panel, recorder } = await chat();
        await panel.send('Hello');
        await panel.send(scenario);
        const answer = recorder.lastAnswer();
        assert.equal(answer.status, 'error', JSON.stringify(answer));
        assert.match(answer.error?.message ?? '', pattern);
        const entry = await (await fdref()).registry.get(panel.chatId);
        assert.equal(
          entry?.chat?.messages.length,
          4,
          `both exchanges are kept: ${JSON.stringify(entry?.chat?.messages.map((m) => m.role))}`,
        );
        await panel.receive({ type: 'retry' });
        assert.equal(
          recorder.lastAnswer().status,
          'error',
          `retrying the same scenario fails the same way: ${JSON.stringify(recorder.lastAnswer())}`,
        );
      });
    }

    it('explains a rejected API key and what to do', async () => {
      const guarded = await startModelEndpoint({ apiKey: 'right-key' });
      const name = `Guarded ${protocol}`;
      try {
        await setSetting('fdref.chat.endpoints', [
          {
            name,
            protocol,
            baseUrl: protocol === 'anthropic' ? guarded.anthropicBaseUrl : guarded.openaiBaseUrl,
            model: 'm',
          },
        ]);
        await vscode.commands.executeCommand('fdref.setApiKey', { endpoint: name, key: 'wrong-key' });
        const api = await fdref();
        const panel = await api.chats.newChat();
        panels.push(panel);
        const recorder = new Recorder(panel);
        await panel.send('Hello');
        const answer = recorder.lastAnswer();
        assert.equal(answer.status, 'error');
        assert.match(answer.error?.message ?? '', /key/i);
        assert.equal(answer.error?.action, 'setApiKey');
        assert.doesNotMatch(JSON.stringify(answer), /wrong-key/, 'the key is never shown');
        await vscode.commands.executeCommand('fdref.setApiKey', { endpoint: name, key: 'right-key' });
        await panel.receive({ type: 'retry' });
        assert.equal(recorder.lastAnswer().status, 'complete');
      } finally {
        await vscode.commands.executeCommand('fdref.setApiKey', { endpoint: name, key: '' });
        await setSetting('fdref.chat.endpoints', [
          {
            name: NAME.anthropic,
            protocol: 'anthropic',
            baseUrl: endpoint.anthropicBaseUrl,
            model: MODEL.anthropic,
            demo: true,
          },
          { name: NAME.openai, protocol: 'openai', baseUrl: endpoint.openaiBaseUrl, model: MODEL.openai, demo: true },
        ]);
        await guarded.close();
      }
    });
  });
}

describe('chat panel protocol', function () {
  this.timeout(30_000);

  it('ignores malformed webview messages with a log line instead of failing', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    try {
      const recorder = new Recorder(panel);
      await panel.receive({ type: 'send' });
      await panel.receive({ type: 'refAction', action: 'export', ref: '../../etc/passwd' });
      await panel.receive('not an object');
      assert.equal(recorder.of('messageAdded').length, 0);
    } finally {
      panel.dispose();
    }
  });

  it('shows the welcome view when no model is configured', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    try {
      const recorder = new Recorder(panel);
      await panel.receive({ type: 'ready' });
      const init = recorder.of('init')[0];
      const models = init?.models ?? [];
      // VS Code's language models may exist in some hosts; the welcome view is for when nothing does.
      assert.equal(init?.welcome, models.length === 0);
      if (models.length === 0) {
        await panel.send('Hello');
        const answer = recorder.lastAnswer();
        assert.equal(answer.status, 'error');
        assert.match(answer.error?.message ?? '', /No model is available/);
      }
    } finally {
      panel.dispose();
    }
  });
});
