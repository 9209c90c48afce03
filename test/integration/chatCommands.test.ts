import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/runtime/chatPanel';
import type { TreeNode } from '../../src/tree/treeNodes';
import { Recorder } from '../support/chatRecorder';
import { useModelEndpoint } from '../support/mochaHooks';
import { closeAllEditors, eventually, fdref, messageMark, messagesSince } from './support/fdref';
import { useLoopbackChatEndpoint } from './support/settings';

const ENDPOINT = 'Loopback Anthropic (chat commands)';
const MODEL_KEY = `endpoint:${ENDPOINT}/claude-loopback`;
const CHAT_COMMANDS = ['fdref.forkChat', 'fdref.retryChat', 'fdref.exportChatAsMarkdown'];

describe('Fork, Retry and Export as Markdown as commands', function () {
  this.timeout(60_000);
  const endpoint = useModelEndpoint();
  const panels: ChatPanel[] = [];

  useLoopbackChatEndpoint(endpoint, { name: ENDPOINT, model: 'claude-loopback', protocol: 'anthropic' });

  afterEach(async () => {
    for (const panel of panels.splice(0)) panel.dispose();
    await closeAllEditors();
  });

  /** A new chat panel on the loopback model; with `prompt`, answered once. */
  async function chat(prompt?: string): Promise<{ panel: ChatPanel; recorder: Recorder }> {
    const panel = await (await fdref()).chats.newChat();
    panels.push(panel);
    const recorder = new Recorder(panel);
    await panel.receive({ type: 'selectModel', key: MODEL_KEY });
    if (prompt !== undefined) await panel.send(prompt);
    return { panel, recorder };
  }

  /** The tree's own node for a session, as its context menu passes it. */
  async function treeNode(sessionId: string): Promise<TreeNode> {
    const api = await fdref();
    const node = (await api.tree.getChildren()).find((n) => n.kind === 'session' && n.sessionId === sessionId);
    assert.ok(node, 'the tree lists the chat');
    assert.equal((await api.tree.getTreeItem(node)).contextValue, 'fdref.session.chat');
    return node;
  }

  async function lastError(mark: number): Promise<string> {
    const error = (await messagesSince(mark)).find((m) => m.level === 'error');
    assert.ok(error, 'an error message was shown');
    return error.text;
  }

  it("are in the palette and on a chat item's context menu in the tree, not on a session of captured refs", () => {
    const manifest = vscode.extensions.getExtension('fdref.fdref')!.packageJSON as {
      contributes: {
        commands: { command: string; title: string; category: string }[];
        menus: Record<string, { command: string; when?: string }[]>;
      };
    };
    const titles = manifest.contributes.commands
      .filter((c) => CHAT_COMMANDS.includes(c.command))
      .map((c) => `${c.category}: ${c.title}`);
    assert.deepEqual(titles, ['FD Refs: Fork Chat', 'FD Refs: Retry Chat', 'FD Refs: Export Chat as Markdown']);
    const hidden = manifest.contributes.menus['commandPalette']!.filter((m) => CHAT_COMMANDS.includes(m.command));
    assert.deepEqual(hidden, [], 'no when clause hides them from the palette');
    for (const command of CHAT_COMMANDS) {
      const entry = manifest.contributes.menus['view/item/context']!.find((m) => m.command === command);
      assert.ok(entry?.when, `${command} is in the tree's context menu`);
      const viewItem = /viewItem =~ \/(.*)\/$/.exec(entry.when)![1]!.replace(/\\\\/g, '\\');
      const matches = (value: string) => new RegExp(viewItem).test(value);
      assert.ok(matches('fdref.session.chat') && matches('fdref.session.chat.pinned'), entry.when);
      assert.ok(!matches('fdref.session') && !matches('fdref.ref'), entry.when);
    }
  });

  it('Fork Chat from the palette forks the active chat, with its messages and refs, into a new chat', async () => {
    const api = await fdref();
    const { panel } = await chat('Hello there');
    panel.reveal();
    await eventually(() => (api.chats.active === panel ? true : undefined), 'the chat to be the active one');
    const forkedId = await vscode.commands.executeCommand<string>('fdref.forkChat');
    assert.ok(forkedId && forkedId !== panel.chatId, 'a new chat');
    const forked = api.chats.get(forkedId);
    assert.ok(forked, 'the fork is open');
    panels.push(forked);
    const [source, copy] = await Promise.all([api.registry.get(panel.chatId), api.registry.get(forkedId)]);
    assert.deepEqual(
      copy?.chat?.messages.map((m) => m.role),
      source?.chat?.messages.map((m) => m.role),
    );
    assert.equal(copy?.chat?.messages.length, 2);
    assert.ok(copy?.session.getDescriptor('ref:greet'), "the answer's refs come along");
    const origin = (await api.registry.meta(forkedId))?.origin;
    assert.equal(origin?.kind === 'chat' ? origin['forkedFrom'] : undefined, panel.chatId);
  });

  it('Fork Chat on a tree item forks that chat, also when it is not open, and leaves that chat closed and out of memory', async () => {
    const api = await fdref();
    const { panel } = await chat('Hello there');
    const chatId = panel.chatId;
    panel.dispose();
    await panel.stopped;
    await eventually(async () => ((await api.registry.get(chatId)) ? true : undefined), 'the chat stored');
    await api.registry.release(chatId);
    const forkedId = await vscode.commands.executeCommand<string>('fdref.forkChat', await treeNode(chatId));
    const forked = api.chats.get(forkedId);
    assert.ok(forked);
    panels.push(forked);
    assert.equal((await api.registry.get(forkedId))?.chat?.messages.length, 2);
    assert.equal(api.chats.get(chatId), undefined, 'the chat forked from stays closed');
    assert.equal(api.registry.holds(chatId), false, 'and is not kept in memory');
  });

  it('Fork Chat on an empty chat says there is nothing to fork', async () => {
    const { panel } = await chat();
    const mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.forkChat', { sessionId: panel.chatId }), undefined);
    assert.match(await lastError(mark), /has no messages to fork yet/);
  });

  it('Retry Chat answers the last message again in place of the answer it had', async () => {
    const api = await fdref();
    const { panel, recorder } = await chat('Hello there');
    const before = (await api.registry.get(panel.chatId))?.chat?.messages.map((m) => m.id) ?? [];
    assert.equal(await vscode.commands.executeCommand('fdref.retryChat', await treeNode(panel.chatId)), panel.chatId);
    const after = (await api.registry.get(panel.chatId))?.chat?.messages ?? [];
    assert.equal(after.length, 2);
    assert.equal(after[0]?.id, before[0], 'the question stays');
    assert.notEqual(after[1]?.id, before[1], 'the answer is a new one');
    assert.equal(recorder.lastAnswer().status, 'complete');
    assert.equal(recorder.of('messagesRemoved')[0]?.fromId, before[1]);
  });

  it('Retry Chat refuses clearly when the chat has no answer yet or is still answering', async () => {
    const { panel, recorder } = await chat();
    let mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.retryChat', { sessionId: panel.chatId }), undefined);
    assert.match(await lastError(mark), /has no answer to retry yet: send a message first/);

    const answering = panel.send('slow');
    await eventually(() => (recorder.of('textDelta').length >= 1 ? true : undefined), 'the answer to start', 20_000);
    mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.retryChat', { sessionId: panel.chatId }), undefined);
    assert.match(await lastError(mark), /is still answering: stop it first, then retry/);
    mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.forkChat', { sessionId: panel.chatId }), undefined);
    assert.match(await lastError(mark), /is still answering/);
    await panel.stop();
    await answering;
  });

  it('Export Chat as Markdown opens the chat as an untitled Markdown document, from the palette or a tree item', async () => {
    const api = await fdref();
    const { panel } = await chat('Hello there');
    panel.reveal();
    await eventually(() => (api.chats.active === panel ? true : undefined), 'the chat to be the active one');
    const fromPalette = await vscode.commands.executeCommand<vscode.TextDocument>('fdref.exportChatAsMarkdown');
    assert.equal(fromPalette.isUntitled, true);
    assert.equal(fromPalette.languageId, 'markdown');
    const name = (await api.registry.meta(panel.chatId))?.name ?? '';
    assert.ok(fromPalette.getText().startsWith(`# ${name}`), fromPalette.getText().slice(0, 80));
    assert.match(fromPalette.getText(), /Hello there/);

    const fromTree = await vscode.commands.executeCommand<vscode.TextDocument>(
      'fdref.exportChatAsMarkdown',
      await treeNode(panel.chatId),
    );
    assert.equal(fromTree.getText(), fromPalette.getText());
  });

  it('asks which chat with a quick pick when no chat is active, newest first', async () => {
    const api = await fdref();
    const { panel } = await chat('Hello there');
    const name = (await api.registry.meta(panel.chatId))?.name ?? '';
    panel.dispose();
    await panel.stopped;
    assert.equal(api.chats.active, undefined);
    const pending = Promise.resolve(vscode.commands.executeCommand<vscode.TextDocument>('fdref.exportChatAsMarkdown'));
    let settled = false;
    void pending.finally(() => (settled = true));
    for (let i = 0; i < 40 && !settled; i++) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      for (const command of ['quickInput.accept', 'workbench.action.acceptSelectedQuickOpenItem'])
        if (!settled) await vscode.commands.executeCommand(command).then(undefined, () => undefined);
    }
    const document = await pending;
    assert.ok(document?.getText().startsWith(`# ${name}`), document?.getText().slice(0, 80));
  });

  it('refuses a session of captured refs, which is no chat', async () => {
    const api = await fdref();
    const entry = await api.registry.create('Captured, not a chat', { kind: 'capture' });
    for (const command of CHAT_COMMANDS) {
      const mark = await messageMark();
      assert.equal(await vscode.commands.executeCommand(command, { sessionId: entry.metadata.id }), undefined);
      assert.match(await lastError(mark), /holds captured refs, not a chat/, command);
    }
  });
});
