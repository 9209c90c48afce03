import * as assert from 'node:assert/strict';
import { toolsOn } from '../../src/core/tools/toolTable';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/runtime/chatPanel';
import type { ModelOption } from '../../src/core/chat/protocol';
import { Recorder } from '../support/chatRecorder';
import { eventually, fdref } from './support/fdref';
import { descriptorText } from '../support/descriptorText';

/** The test-only extension in test/fixtures/lm-extension, which scripts/vscode-host/run-tests.mjs loads beside fdref. */
const FIXTURE_ID = 'fdref-test.lm-fixture';

/** What the fixture's `activate` returns (see test/fixtures/lm-extension/extension.js). */
interface FixtureApi {
  readonly vendor: string;
  readonly modelId: string;
  readonly modelName: string;
  readonly requests: readonly FixtureRequest[];
  setAvailable(available: boolean): void;
}

interface FixtureRequest {
  readonly model: string;
  readonly messages: readonly FixtureMessage[];
  readonly tools: readonly string[];
}

interface FixtureMessage {
  readonly role: string;
  readonly parts: readonly FixturePart[];
}

type FixturePart =
  | { type: 'text'; value: string }
  | { type: 'toolCall'; callId: string; name: string; input: unknown }
  | { type: 'toolResult'; callId: string; text: string }
  | { type: 'other'; kind: string };

function textOf(message: FixtureMessage | undefined): string {
  return (message?.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.value] : [])).join('');
}

// VS Code 1.104 made the language model chat provider API stable; on older hosts (1.100 here) no extension can
// offer a chat model, the fixture is not loaded, and these tests are skipped.
describe('chat with a VS Code language model (vscode.lm through a test provider; skipped before VS Code 1.104)', function () {
  this.timeout(60_000);
  let lm: FixtureApi;
  const panels: ChatPanel[] = [];

  /** The picker key fdref gives the fixture's model. */
  const key = () => `vscode-lm:${lm.modelId}`;

  async function newChat(): Promise<{ panel: ChatPanel; recorder: Recorder }> {
    const panel = await (await fdref()).chats.newChat();
    panels.push(panel);
    return { panel, recorder: new Recorder(panel) };
  }

  /** Sends `text` and returns the requests the model received for it. */
  async function send(panel: ChatPanel, text: string): Promise<readonly FixtureRequest[]> {
    const from = lm.requests.length;
    await panel.send(text);
    return lm.requests.slice(from);
  }

  async function modelListed(): Promise<void> {
    await eventually(
      async () =>
        (await vscode.lm.selectChatModels({ vendor: lm.vendor })).some((m) => m.id === lm.modelId) ? true : undefined,
      'the fixture model in vscode.lm',
      10_000,
    );
  }

  before(async function () {
    if (typeof Reflect.get(vscode.lm, 'registerLanguageModelChatProvider') !== 'function') this.skip();
    const extension = vscode.extensions.getExtension<FixtureApi>(FIXTURE_ID);
    assert.ok(
      extension,
      `${FIXTURE_ID} (test/fixtures/lm-extension) must be loaded beside fdref on VS Code 1.104+ (scripts/vscode-host/run-tests.mjs does)`,
    );
    lm = await extension.activate();
    lm.setAvailable(true);
    await modelListed();
  });

  after(() => {
    for (const panel of panels) panel.dispose();
    // `lm` is unset when the suite was skipped.
    if (lm) lm.setAvailable(false);
  });

  it('lists the model first in the picker, defaults a new chat to it, and follows it coming and going', async () => {
    const { panel, recorder } = await newChat();
    await panel.receive({ type: 'ready' });
    const init = recorder.of('init')[0];
    assert.ok(init, 'the panel sent init');
    const expected: ModelOption = {
      key: key(),
      label: lm.modelName,
      provider: 'vscode-lm',
      detail: `${lm.vendor} · VS Code language model`,
    };
    assert.deepEqual(init.models[0], expected, `models: ${JSON.stringify(init.models)}`);
    assert.equal(init.selectedModel, key());
    assert.equal(init.welcome, false);

    // The model goes away (its extension uninstalled) and comes back: the picker follows through `models` messages.
    const modelsAfter = (index: number) => recorder.messages.slice(index + 1).filter((m) => m.type === 'models');
    let goneAt: number;
    try {
      lm.setAvailable(false);
      const gone = await eventually(
        () => modelsAfter(-1).find((m) => !m.models.some((o) => o.key === key())),
        'a models message without the model',
        10_000,
      );
      assert.notEqual(gone.selectedModel, key());
      goneAt = recorder.messages.indexOf(gone);
    } finally {
      lm.setAvailable(true);
    }
    const back = await eventually(
      () => modelsAfter(goneAt).find((m) => m.models[0]?.key === key()),
      'a models message with the model again',
      10_000,
    );
    assert.equal(back.models[0]?.provider, 'vscode-lm');
    assert.equal(back.selectedModel, key());
    assert.equal(back.welcome, false);
  });

  it('streams an answer and registers its ref in the chat session', async () => {
    const { panel, recorder } = await newChat();
    // No selectModel: a new chat uses the first model, the VS Code language model.
    const requests = await send(panel, 'Hello there');
    assert.equal(requests.length, 1, 'one request reached the fixture model');
    assert.equal(requests[0]?.model, lm.modelId);
    const answer = recorder.lastAnswer();
    assert.equal(answer.status, 'complete', JSON.stringify(answer.error));
    assert.ok(recorder.of('textDelta').length > 3, 'the answer arrived in several chunks');
    assert.deepEqual(
      recorder.of('refOpened').map((m) => m.id),
      ['lm_greet'],
    );
    assert.deepEqual(
      recorder.of('refClosed').map((m) => m.ref?.id),
      ['lm_greet'],
    );
    assert.match(answer.rounds.map((r) => r.text).join(''), /Hello from the scripted test model/);
    assert.deepEqual(
      answer.rounds[0]?.refs.map((r) => [r.id, r.version]),
      [['lm_greet', 1]],
    );
    const entry = await (await fdref()).registry.get(panel.chatId);
    const greet = entry?.session.getDescriptor('ref:lm_greet');
    assert.ok(greet, 'ref:lm_greet is in the chat session');
    assert.equal(greet.language, 'python');
    assert.match((await descriptorText(greet)) ?? '', /def greet\(name: str\) -> str:/);
  });

  it('sends the system prompt additions as the first user message, then the conversation, with the tools', async () => {
    const { panel } = await newChat();
    const [request] = await send(panel, 'What can you do?');
    assert.ok(request, 'a request reached the fixture model');
    const [system, user] = request.messages;
    assert.equal(system?.role, 'user', 'vscode.lm has no system role: the system prompt goes as a user message');
    assert.match(textOf(system), /<fdref_instructions>[\s\S]*<\/fdref_instructions>/);
    assert.equal(user?.role, 'user');
    assert.equal(textOf(user), 'What can you do?');
    assert.equal(request.messages.length, 2);
    for (const tool of toolsOn('chat')
      .filter((t) => t.effect !== 'run')
      .map((t) => t.name))
      assert.ok(request.tools.includes(tool), `${tool} offered in ${request.tools.join(', ')}`);
  });

  it('runs a tool the model calls and sends the result back to it', async () => {
    const { panel, recorder } = await newChat();
    await send(panel, 'Hello');
    const requests = await send(panel, 'call list_refs {}');
    assert.equal(requests.length, 2, 'the call, then the answer to its result');
    const [callRequest, resultRequest] = requests;
    assert.equal(textOf(callRequest?.messages[callRequest.messages.length - 1]), 'call list_refs {}');

    const call = recorder.toolCalls().find((c) => c.name === 'list_refs' && c.status !== 'running');
    assert.equal(call?.status, 'done', call?.result);
    assert.match(call?.result ?? '', /lm_greet/);

    // The second request holds the assistant's call and, last, the result of that call.
    const messages = resultRequest?.messages ?? [];
    const assistant = messages[messages.length - 2];
    const last = messages[messages.length - 1];
    assert.equal(assistant?.role, 'assistant');
    const callPart = assistant?.parts.find((p) => p.type === 'toolCall');
    assert.ok(callPart?.type === 'toolCall', `the assistant message holds the call: ${JSON.stringify(assistant)}`);
    assert.equal(callPart.name, 'list_refs');
    assert.deepEqual(callPart.input, {});
    assert.equal(last?.role, 'user');
    const resultPart = last?.parts.find((p) => p.type === 'toolResult');
    assert.ok(resultPart?.type === 'toolResult', `the last message holds the result: ${JSON.stringify(last)}`);
    assert.equal(resultPart.callId, callPart.callId);
    assert.equal(resultPart.text, call?.result);

    const answer = recorder.lastAnswer();
    assert.equal(answer.status, 'complete', JSON.stringify(answer.error));
    assert.equal(answer.rounds.length, 2);
    const quoted = answer.rounds[1]?.text ?? '';
    assert.match(quoted, /list_refs returned:/);
    assert.match(quoted, /> .*lm_greet/);
  });
});
