import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../../src/common/refCommandIds';
import type { FdrefParticipant } from '../../src/participant/participant';
import type { ParticipantPart, ParticipantResponse } from '../../src/participant/responseLog';
import type { SessionChange } from '../../src/sessions/sessionEntry';
import { descriptorText } from '../support/descriptorText';
import { eventually, fdref, inWorkspace, readText, uniqueId } from './support/fdref';

/** The test-only extension in test/fixtures/lm-extension, which scripts/vscode-host/run-tests.mjs loads on 1.104+. */
const FIXTURE_ID = 'fdref-test.lm-fixture';

interface FixtureApi {
  readonly vendor: string;
  readonly modelId: string;
  readonly modelName: string;
  readonly requests: readonly { readonly messages: readonly { role: string; parts: readonly unknown[] }[] }[];
  setAvailable(available: boolean): void;
  failNow(): void;
}

type Action = Extract<ParticipantPart, { kind: 'action' }>;

const actionsOf = (response: ParticipantResponse): Action[] =>
  response.parts.filter((p): p is Action => p.kind === 'action');

const markdownOf = (response: ParticipantResponse): string =>
  response.parts.flatMap((p) => (p.kind === 'markdown' ? [p.value] : [])).join('');

function sessionIdOf(response: ParticipantResponse): string | undefined {
  const id: unknown = response.result?.metadata?.['sessionId'];
  return typeof id === 'string' ? id : undefined;
}

describe('the @fdref participant is registered harmlessly on every host', () => {
  it('activates with the participant registered where VS Code has the chat API, and has answered nothing yet', async () => {
    const api = await fdref();
    const hasChatApi = typeof Reflect.get(vscode, 'chat')?.createChatParticipant === 'function';
    assert.equal(api.participant !== undefined, hasChatApi);
    assert.deepEqual(api.participant?.log.responses ?? [], []);
  });
});

// VS Code 1.100 has no Chat view and no stable API for an extension to offer a chat model: skipped there.
describe('the @fdref participant in the Chat view (skipped before VS Code 1.104: no Chat view, no test model)', function () {
  this.timeout(120_000);
  let lm: FixtureApi;
  let participant: FdrefParticipant;

  /** Asks `@fdref <prompt>` in the Chat view, a new conversation unless `followUp`; resolves when the answer ended. */
  async function ask(prompt: string, followUp = false): Promise<ParticipantResponse> {
    if (!followUp) await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const ended = waitForEnd(prompt);
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: `@fdref ${prompt}`,
      modelSelector: { vendor: lm.vendor, id: lm.modelId },
    });
    return ended;
  }

  function waitForEnd(prompt: string, timeoutMs = 60_000): Promise<ParticipantResponse> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        listener.dispose();
        reject(new Error(`@fdref did not answer "${prompt}" within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = participant.log.onDidEnd((response) => {
        if (response.prompt !== prompt) return;
        clearTimeout(timer);
        listener.dispose();
        resolve(response);
      });
    });
  }

  before(async function () {
    if (typeof Reflect.get(vscode.lm, 'registerLanguageModelChatProvider') !== 'function') this.skip();
    const extension = vscode.extensions.getExtension<FixtureApi>(FIXTURE_ID);
    assert.ok(extension, `${FIXTURE_ID} must be loaded beside fdref on VS Code 1.104+`);
    lm = await extension.activate();
    lm.setAvailable(true);
    await eventually(
      async () =>
        (await vscode.lm.selectChatModels({ vendor: lm.vendor })).some((m) => m.id === lm.modelId) ? true : undefined,
      'the fixture model in vscode.lm',
      10_000,
    );
    const api = await fdref();
    assert.ok(api.participant, 'the participant is registered where the Chat view exists');
    participant = api.participant;
  });

  after(async () => {
    // `lm` is unset when the suite was skipped.
    if (!lm) return;
    lm.setAvailable(false);
    await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
  });

  it('keeps each ref of a streamed answer as it closes, and shows it as a code block with command links that work', async () => {
    const api = await fdref();
    const prompt = `two refs please ${uniqueId('p')}`;
    const changes: { change: SessionChange; answerEnded: boolean }[] = [];
    const listener = api.registry.onDidChange((change) => {
      const answer = participant.log.responses.find((r) => r.prompt === prompt);
      changes.push({ change, answerEnded: answer?.result !== undefined });
    });
    let response: ParticipantResponse;
    try {
      response = await ask(prompt);
    } finally {
      listener.dispose();
    }
    assert.equal(response.result?.errorDetails, undefined, JSON.stringify(response.result?.errorDetails));
    const sessionId = sessionIdOf(response);
    assert.ok(sessionId, 'the answer names its session in its metadata');

    // The refs are in the store with their exact content and language.
    const meta = await api.registry.meta(sessionId);
    assert.deepEqual(meta?.origin, { kind: 'participant' });
    const reader = await api.registry.reader(sessionId);
    assert.ok(reader);
    const config = reader.lookup('ref:pt_config');
    const script = reader.lookup('ref:pt_script');
    assert.ok(config && script, 'both refs are stored');
    assert.equal(await descriptorText(config), '{ "name": "fdref", "refs": [1, 2, 3] }');
    assert.equal(config.language, 'json');
    assert.equal(await descriptorText(script), '#!/bin/sh\njq .name config.json');
    assert.equal(script.language, 'sh');
    assert.equal(reader.lookup('ref:not_a_ref'), undefined, 'a tag in inline code is not a ref');

    // The first ref was saved and announced while the answer was still streaming.
    const refChanges = changes.filter(({ change }) => change.kind === 'refsChanged' && change.sessionId === sessionId);
    const first = refChanges.find(({ change }) => change.kind === 'refsChanged' && change.refIds.includes('pt_config'));
    assert.ok(first, `pt_config was announced: ${JSON.stringify(changes)}`);
    assert.equal(first.answerEnded, false, 'pt_config was kept before the answer ended');

    // What the Chat view showed: the text outside refs, each ref as a fenced block, five command links under each.
    const markdown = markdownOf(response);
    assert.match(markdown, /^Here is the configuration:/);
    assert.ok(markdown.includes('```json\n{ "name": "fdref", "refs": [1, 2, 3] }\n```'), markdown);
    assert.ok(markdown.includes('```sh\n#!/bin/sh\njq .name config.json\n```'), markdown);
    assert.ok(markdown.includes('written `<ref id="not_a_ref">` style in prose'), markdown);
    assert.ok(!markdown.includes('<ref id="pt_config">'), 'the tags themselves are not shown');
    assert.match(markdown, /Both are kept as refs\.$/);
    const actions = actionsOf(response);
    assert.deepEqual(
      actions.map((b) => [b.command, b.arguments]),
      ['ref:pt_config@1', 'ref:pt_script@1'].flatMap((refId) =>
        [
          REF_COMMAND_IDS.export,
          REF_COMMAND_IDS.insertAtCursor,
          REF_COMMAND_IDS.applyToSymbol,
          REF_COMMAND_IDS.copy,
          REF_COMMAND_IDS.open,
        ].map((command) => [command, [{ sessionId, refId }]]),
      ),
    );
    const configAction = (command: string): Action => {
      const button = actions.find((b) => b.command === command);
      assert.ok(button, command);
      return button;
    };

    // The links run the ref commands on these refs, with exactly the arguments they carry.
    await vscode.commands.executeCommand(REF_COMMAND_IDS.copy, ...configAction(REF_COMMAND_IDS.copy).arguments);
    assert.equal(await vscode.env.clipboard.readText(), '{ "name": "fdref", "refs": [1, 2, 3] }');
    const opened = await vscode.commands.executeCommand<vscode.TextEditor>(
      REF_COMMAND_IDS.open,
      ...configAction(REF_COMMAND_IDS.open).arguments,
    );
    assert.equal(opened.document.getText(), '{ "name": "fdref", "refs": [1, 2, 3] }');
    const document = await vscode.workspace.openTextDocument({ content: 'before|after', language: 'plaintext' });
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(0, 7, 0, 7);
    await vscode.commands.executeCommand(
      REF_COMMAND_IDS.insertAtCursor,
      ...configAction(REF_COMMAND_IDS.insertAtCursor).arguments,
    );
    assert.equal(document.getText(), 'before|{ "name": "fdref", "refs": [1, 2, 3] }after');
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    // Export asks where to write; a test gives the path the user would type.
    const target = `participant-${uniqueId('export')}.json`;
    const [exportArgs] = configAction(REF_COMMAND_IDS.export).arguments as [object];
    const written = await vscode.commands.executeCommand<vscode.Uri>(REF_COMMAND_IDS.export, {
      ...exportArgs,
      path: target,
    });
    assert.equal(written.toString(), inWorkspace(target).toString());
    assert.equal(await readText(inWorkspace(target)), '{ "name": "fdref", "refs": [1, 2, 3] }');

    // A follow-up in the same conversation keeps its refs in the same session and sends the model the history.
    const followUp = `two refs please, again ${uniqueId('p')}`;
    const before = lm.requests.length;
    const second = await ask(followUp, true);
    assert.equal(sessionIdOf(second), sessionId);
    const request = lm.requests[before];
    assert.ok(request);
    const sent = JSON.stringify(request.messages);
    assert.ok(sent.includes(prompt), 'the earlier question is sent');
    assert.ok(sent.includes('<ref id=\\"pt_config\\">'), 'the earlier answer is sent as the model wrote it');
    const again = await api.registry.reader(sessionId);
    assert.equal(
      again?.refs().find((r) => r.descriptor.id === 'ref:pt_config')?.versions,
      1,
      'same content, same version',
    );
  });

  it('stops when the request is cancelled, keeping the ref that closed and no error', async () => {
    const prompt = `slow answer ${uniqueId('p')}`;
    await vscode.commands.executeCommand('workbench.action.chat.newChat');
    const ended = waitForEnd(prompt);
    const started = Date.now();
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: `@fdref ${prompt}`,
      modelSelector: { vendor: lm.vendor, id: lm.modelId },
    });
    await eventually(
      () => participant.log.responses.find((r) => r.prompt === prompt && actionsOf(r).length > 0),
      'the first ref with its links',
      30_000,
    );
    await vscode.commands.executeCommand('workbench.action.chat.cancel');
    const response = await ended;
    assert.ok(Date.now() - started < 30_000, 'the answer stopped long before its scripted end');
    assert.equal(response.result?.errorDetails, undefined);
    const sessionId = sessionIdOf(response);
    assert.ok(sessionId);
    const found = (await (await fdref()).registry.reader(sessionId))?.lookup('ref:pt_slow');
    assert.ok(found);
    assert.equal(await descriptorText(found), 'first part');
    assert.ok(markdownOf(response).length < 3000 * 11, 'the rest of the answer was not shown');
  });

  it('shows a model refusal as a clear error in the response, and keeps no session', async () => {
    const response = await ask(`fail at once ${uniqueId('p')}`);
    const message = response.result?.errorDetails?.message ?? '';
    assert.match(message, new RegExp(`^${lm.modelName} \\(${lm.vendor}\\) refused the request for now`), message);
    assert.equal(sessionIdOf(response), undefined);
    assert.deepEqual(actionsOf(response), []);
  });

  it('keeps the ref that closed before the model failed, and shows the failure', async () => {
    const prompt = `fail after a ref ${uniqueId('p')}`;
    const answered = ask(prompt);
    // The model fails once the ref that closed before the failure is shown (VS Code may deliver an error before text
    // reported just before it, however long the model waits on a busy machine).
    await eventually(
      () =>
        participant.log.responses.some((r) => r.prompt === prompt && actionsOf(r).length === 5) ? true : undefined,
      'the ref before the failure shown',
      60_000,
    );
    lm.failNow();
    const response = await answered;
    const message = response.result?.errorDetails?.message ?? '';
    assert.match(message, /scripted failure mid-stream/, message);
    const sessionId = sessionIdOf(response);
    assert.ok(sessionId, 'the ref before the failure has a session');
    const kept = (await (await fdref()).registry.reader(sessionId))?.lookup('ref:pt_kept');
    assert.ok(kept);
    assert.equal(await descriptorText(kept), 'kept = True');
    assert.equal(actionsOf(response).length, 5);
  });
});
