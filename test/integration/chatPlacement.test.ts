import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/chatPanel';
import { Recorder } from '../support/chatRecorder';
import { useModelEndpoint } from '../support/mochaHooks';
import { closeAllEditors, eventually, fdref, inWorkspace, refBlock, uniqueId } from './support/fdref';
import { setSetting } from './support/settings';

const ENDPOINT = 'Loopback Placement';

/** The chat tabs open now: webview tabs of the chat's view type. */
function chatTabs(): vscode.Tab[] {
  return vscode.window.tabGroups.all.flatMap((group) =>
    group.tabs.filter(
      (tab) => tab.input instanceof vscode.TabInputWebview && tab.input.viewType.endsWith('fdref.chat'),
    ),
  );
}

function groupOf(tab: vscode.Tab): vscode.ViewColumn {
  return tab.group.viewColumn;
}

async function inView(): Promise<ChatPanel> {
  const api = await fdref();
  return eventually(() => api.chats.inView, 'a chat in the side bar view');
}

/** A chat with a ref in its session, so the chat's ref buttons have something to open. */
async function chatWithRef(): Promise<{ panel: ChatPanel; ref: string }> {
  const api = await fdref();
  const panel = await api.chats.newChat();
  const id = uniqueId('placed');
  await api.registry.ingest(panel.chatId, refBlock(id, 'python', 'print("placed")'));
  return { panel, ref: `ref:${id}` };
}

describe('where the chat is shown: the side bar view, an editor tab', function () {
  this.timeout(60_000);
  const endpoint = useModelEndpoint();

  before(async () => {
    await setSetting('fdref.chat.endpoints', [
      { name: ENDPOINT, protocol: 'openai', baseUrl: endpoint.openaiBaseUrl, model: 'gpt-loopback', demo: true },
    ]);
  });
  after(() => setSetting('fdref.chat.endpoints', undefined));
  beforeEach(closeAllEditors);
  afterEach(closeAllEditors);

  it('shows a chat in the FD Refs side bar when the Chat view resolves (Focus Chat)', async () => {
    const api = await fdref();
    const chatId = await vscode.commands.executeCommand<string>('fdref.focusChat');
    const panel = await inView();
    assert.equal(panel.chatId, chatId);
    assert.equal(panel.host?.kind, 'view');
    assert.equal(chatTabs().length, 0, 'no editor tab was opened for it');
    // Focus Chat again shows the same chat, it does not make another.
    assert.equal(await vscode.commands.executeCommand<string>('fdref.focusChat'), chatId);
    assert.equal(api.chats.get(chatId), panel);
  });

  it('puts New Chat and Open Chat in the view, one chat at a time, and closes the chat it replaces', async () => {
    const api = await fdref();
    const first = await vscode.commands.executeCommand<string>('fdref.newChat');
    assert.equal((await inView()).chatId, first);
    const second = await vscode.commands.executeCommand<string>('fdref.newChat');
    assert.notEqual(second, first);
    assert.equal(api.chats.inView?.chatId, second);
    assert.equal(api.chats.get(first), undefined, 'the idle chat it replaced is closed');
    assert.equal(chatTabs().length, 0);
    // Open Chat (the tree's button) brings the first back, in the view.
    assert.equal(await vscode.commands.executeCommand<string>('fdref.openChat', { sessionId: first }), first);
    assert.equal(api.chats.inView?.chatId, first);
    assert.equal(api.chats.inView?.host?.kind, 'view');
  });

  it('moves the view\'s chat to an editor tab with "Open in Editor", its conversation whole, and leaves the view to New Chat', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    await panel.receive({ type: 'selectModel', key: `endpoint:${ENDPOINT}/gpt-loopback` });
    const recorder = new Recorder(panel);
    await panel.send('Hello');
    assert.equal(recorder.lastAnswer().status, 'complete');

    const moved = await vscode.commands.executeCommand<string>('fdref.openChatInEditor');
    assert.equal(moved, panel.chatId);
    assert.equal(api.chats.get(moved), panel, 'the same conversation, not a second one');
    assert.equal(panel.host?.kind, 'editor');
    const tabs = await eventually(() => (chatTabs().length > 0 ? chatTabs() : undefined), 'the chat tab');
    assert.equal(tabs.length, 1);
    assert.equal(tabs[0]?.label, (await api.registry.get(moved))?.metadata.name);
    assert.equal(vscode.window.tabGroups.all.length, 1, 'the tab opened in the active group, not a new column');
    assert.equal(api.chats.inView, undefined, 'the view shows no chat (it offers New Chat), and made no session');
    assert.equal(api.chats.all.filter((p) => p.chatId === moved).length, 1);

    // The moved chat answers on in its tab, and its page gets the whole conversation when it loads there.
    await panel.receive({ type: 'ready' });
    assert.equal(recorder.of('init').at(-1)?.messages.length, 2);
    await panel.send('Hello again');
    assert.equal(recorder.lastAnswer().status, 'complete');
    // Open Chat on a chat in a tab reveals the tab; it is never also put in the view.
    await vscode.commands.executeCommand('fdref.openChat', { sessionId: moved });
    assert.equal(api.chats.inView, undefined);
    assert.equal(chatTabs().length, 1);
    // Focus Chat then gives the view a new chat of its own.
    const fresh = await vscode.commands.executeCommand<string>('fdref.focusChat');
    assert.notEqual(fresh, moved);
    assert.equal((await inView()).chatId, fresh);
    assert.equal(panel.host?.kind, 'editor');
  });

  it('lets a chat the view stops showing finish its answer unseen, then closes it', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    await panel.receive({ type: 'selectModel', key: `endpoint:${ENDPOINT}/gpt-loopback` });
    const recorder = new Recorder(panel);
    const answered = panel.send('slow');
    await eventually(() => (recorder.of('textDelta').length >= 2 ? true : undefined), 'streamed text', 20_000);
    await api.chats.newChat();
    assert.equal(api.chats.get(panel.chatId), panel, 'still answering');
    assert.equal(panel.host, undefined, 'shown nowhere');
    const before = recorder.of('textDelta').length;
    await eventually(() => (recorder.of('textDelta').length > before ? true : undefined), 'more text', 20_000);
    await panel.stop();
    await answered;
    await eventually(() => (api.chats.get(panel.chatId) === undefined ? true : undefined), 'the chat closed');
    const saved = await api.registry.get(panel.chatId);
    assert.equal(saved?.chat?.messages.length, 2, 'the answer was kept');
  });

  it('opens a document from the side bar chat in the active editor group, without adding a column', async () => {
    const { panel, ref } = await chatWithRef();
    await vscode.window.showTextDocument(inWorkspace('README.md'), { viewColumn: vscode.ViewColumn.One });
    assert.equal(panel.host?.kind, 'view');
    await panel.receive({ type: 'refAction', action: 'open', ref });
    await eventually(
      () => (vscode.window.activeTextEditor?.document.uri.scheme === 'fdref' ? true : undefined),
      'the ref open',
    );
    assert.equal(vscode.window.tabGroups.all.length, 1);
    assert.equal(vscode.window.activeTextEditor?.viewColumn, vscode.ViewColumn.One);
  });

  it('opens a document from a chat tab in another group, and beside it only when there is no other group', async () => {
    const api = await fdref();
    const { panel, ref } = await chatWithRef();
    await api.chats.openInEditor(panel.chatId);
    const tab = await eventually(() => chatTabs()[0], 'the chat tab');
    assert.ok(tab.isActive);
    assert.equal(vscode.window.tabGroups.all.length, 1);
    // The only group shows the chat: the ref opens beside it, in a new column.
    await panel.receive({ type: 'refAction', action: 'open', ref });
    await eventually(() => (vscode.window.tabGroups.all.length === 2 ? true : undefined), 'a second group');
    const chatGroup = groupOf(chatTabs()[0]!);
    assert.ok(chatTabs()[0]?.isActive, 'the chat is still shown');
    assert.notEqual(vscode.window.activeTextEditor?.viewColumn, chatGroup);
    // From the chat again (its tab active), the diff of versions goes to that other group: no third column.
    await api.registry.ingest(panel.chatId, refBlock(ref.slice(4), 'python', 'print("placed again")'));
    panel.reveal();
    await eventually(
      () => (vscode.window.tabGroups.activeTabGroup.viewColumn === chatGroup ? true : undefined),
      'the chat active',
    );
    await panel.receive({ type: 'refAction', action: 'compare', ref });
    await eventually(
      () =>
        vscode.window.tabGroups.all.some((g) => g.activeTab?.input instanceof vscode.TabInputTextDiff)
          ? true
          : undefined,
      'the diff open',
    );
    assert.equal(vscode.window.tabGroups.all.length, 2, 'no column was added');
    assert.ok(chatTabs()[0]?.isActive, 'the chat is not covered');
  });

  it('binds Focus Chat to Ctrl+Alt+; (Cmd+Alt+; on macOS), a key VS Code gives nothing else', async () => {
    const manifest = vscode.extensions.getExtension('fdref.fdref')!.packageJSON as {
      contributes: { keybindings: { command: string; key: string; mac?: string }[] };
    };
    assert.deepEqual(manifest.contributes.keybindings, [
      { command: 'fdref.focusChat', key: 'ctrl+alt+;', mac: 'cmd+alt+;' },
    ]);
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const text = await eventually(() => {
      const document = vscode.window.activeTextEditor?.document;
      return document && document.getText().includes('"key"') ? document.getText() : undefined;
    }, 'the default keybindings');
    const entries = [...text.matchAll(/"key":\s*"([^"]+)",\s*"command":\s*"([^"]+)"/g)].map((m) => ({
      key: m[1],
      command: m[2],
    }));
    assert.ok(entries.length > 100, `read ${entries.length} default keybindings`);
    const taken = entries.filter((e) => e.key === 'ctrl+alt+;' && e.command !== 'fdref.focusChat');
    assert.deepEqual(taken, []);
    assert.ok(
      entries.some((e) => e.key === 'ctrl+alt+;' && e.command === 'fdref.focusChat'),
      'ours is listed',
    );
  });
});
