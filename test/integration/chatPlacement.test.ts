import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/runtime/chatPanel';
import { Recorder } from '../support/chatRecorder';
import { useModelEndpoint } from '../support/mochaHooks';
import { startOtherProcess } from './support/otherProcess';
import {
  closeAllEditors,
  eventually,
  exists,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  refBlock,
  uniqueId,
} from './support/fdref';
import { useLoopbackChatEndpoint } from './support/settings';

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

/**
 * Hides the side bar's Chat view (its context menu's Hide), which disposes it as a reload does; Focus Chat then has
 * VS Code resolve it again.
 */
/**
 * Shows the Chat view again (as a reload or a click on the side bar does, without Focus Chat's new chat) and returns
 * the chat it shows once it has settled: undefined for the welcome.
 */
async function revealChatView(): Promise<string | undefined> {
  const api = await fdref();
  await vscode.commands.executeCommand('fdref.chatView.focus');
  await eventually(() => (api.chats.hasView ? true : undefined), 'the Chat view resolved');
  // resolveWebviewView reads the session before it shows a chat: give it time to show one, if it will.
  for (const deadline = Date.now() + 1500; Date.now() < deadline && !api.chats.inView;)
    await new Promise((resolve) => setTimeout(resolve, 50));
  return api.chats.inView?.chatId;
}

async function hideChatView(): Promise<void> {
  const api = await fdref();
  await vscode.commands.executeCommand('fdref.chatView.removeView');
  await eventually(() => (api.chats.hasView ? undefined : true), 'the Chat view gone');
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

  useLoopbackChatEndpoint(endpoint, { name: ENDPOINT, model: 'gpt-loopback', protocol: 'openai' });
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

  it('keeps an unsent draft when another chat is put in the view, and when the chat moves to a tab', async () => {
    const api = await fdref();
    const first = await vscode.commands.executeCommand<string>('fdref.newChat');
    await (await inView()).receive({ type: 'draft', chatId: first, text: 'half typed' });
    await vscode.commands.executeCommand<string>('fdref.newChat');
    assert.equal(api.chats.get(first), undefined, 'the chat it replaced is closed');
    await vscode.commands.executeCommand<string>('fdref.openChat', { sessionId: first });
    const back = await inView();
    assert.equal(back.chatId, first);
    const recorder = new Recorder(back);
    await back.receive({ type: 'ready' });
    assert.equal(recorder.of('init').at(-1)?.draft, 'half typed', 'the page gets the draft back');

    await back.receive({ type: 'draft', chatId: first, text: 'half typed, then more' });
    await vscode.commands.executeCommand<string>('fdref.openChatInEditor');
    assert.equal(back.host?.kind, 'editor');
    await back.receive({ type: 'ready' });
    assert.equal(recorder.of('init').at(-1)?.draft, 'half typed, then more');
    // Sent, the draft is gone (the page posts an empty one).
    await back.receive({ type: 'draft', chatId: first, text: '' });
    await back.receive({ type: 'ready' });
    assert.equal(recorder.of('init').at(-1)?.draft, undefined);
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

  it('gives a chat back to its tab when VS Code restores the tab after the view took the chat, and the view offers New Chat', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    assert.equal(panel.host?.kind, 'view');
    // After a reload the view resolves first; the tab the chat was moved to is restored when it is shown.
    const webviewPanel = vscode.window.createWebviewPanel('fdref.chat', 'restored', vscode.ViewColumn.One, {});
    await api.chats.deserializeWebviewPanel(webviewPanel, { chatId: panel.chatId });
    assert.equal(api.chats.get(panel.chatId), panel, 'the same chat, not a second one');
    assert.equal(panel.host?.kind, 'editor');
    await eventually(() => (chatTabs().length === 1 ? true : undefined), 'the restored tab kept');
    assert.equal(api.chats.inView, undefined);
  });

  it('does not show a chat again in the view once it moved to a tab, when VS Code resolves the view again', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    await api.chats.openInEditor();
    // The tab is closed (or, after a reload, not restored yet): the view must not take the chat.
    await vscode.window.tabGroups.close(await eventually(() => chatTabs()[0], 'the chat tab'));
    await eventually(() => (api.chats.get(panel.chatId) ? undefined : true), 'the chat closed');
    await hideChatView();
    assert.equal(await revealChatView(), undefined, 'the view shows its welcome, not the moved chat nor an older one');
    // A chat shown in the view comes back when the view does.
    const shown = await vscode.commands.executeCommand<string>('fdref.focusChat');
    await hideChatView();
    assert.equal(await revealChatView(), shown);
  });

  it('shows the welcome in the view instead of its last chat when another window writes that chat', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    const chatId = panel.chatId;
    await hideChatView();
    await eventually(() => (api.chats.get(chatId) || api.registry.holds(chatId) ? undefined : true), 'released');
    const other = await startOtherProcess(api.registry.storeFolder);
    try {
      await other.send({ op: 'open', session: chatId });
      assert.equal(
        await revealChatView(),
        undefined,
        'the view shows its welcome, not the chat another process writes',
      );
    } finally {
      await other.exit();
    }
  });

  it('denies the tool calls a chat waits on when the view stops showing it, tells the user, and the answer ends', async () => {
    const api = await fdref();
    const panel = await api.chats.newChat();
    await panel.receive({ type: 'selectModel', key: `endpoint:${ENDPOINT}/gpt-loopback` });
    const recorder = new Recorder(panel);
    const file = `chat-out/${uniqueId('put-away')}.py`;
    const answered = panel.send(`write ${file}`);
    const waiting = await eventually(
      () => recorder.toolCalls().find((c) => c.status === 'awaitingConfirmation'),
      'the write confirmation',
      20_000,
    );
    const mark = await messageMark();
    await api.chats.newChat();
    await answered; // it hung for ever, unseen, before
    const call = recorder.toolCalls().find((c) => c.callId === waiting.callId && c.status === 'denied');
    assert.ok(call, 'the call was denied');
    assert.equal(await exists(inWorkspace(file)), false, 'nothing was written');
    const said = (await messagesSince(mark)).filter((m) => m.text.includes(panel.title));
    assert.equal(said.length, 1, JSON.stringify(said));
    assert.match(said[0]?.text ?? '', /waiting for Allow or Deny .* denied/);
    await eventually(() => (api.chats.get(panel.chatId) ? undefined : true), 'the chat closed');
  });

  it('puts away only the chat of the view VS Code disposes, not the one of a view it resolved since', async () => {
    const api = await fdref();
    const chatId = (await api.chats.newChat()).chatId;
    await hideChatView();
    // VS Code resolves the view where it was dragged (here: two views made of webview panels) before the old one
    // goes: the real thing cannot be dragged from a test.
    const fake = () => {
      const webviewPanel = vscode.window.createWebviewPanel('fdref.test.view', 'view', vscode.ViewColumn.One, {});
      const disposed = new vscode.EventEmitter<void>();
      const view = {
        viewType: 'fdref.chatView',
        webview: webviewPanel.webview,
        visible: true,
        title: undefined,
        description: undefined,
        badge: undefined,
        onDidDispose: disposed.event,
        onDidChangeVisibility: new vscode.EventEmitter<void>().event,
        show: () => undefined,
      } as unknown as vscode.WebviewView;
      return { view, dispose: () => disposed.fire() };
    };
    const oldView = fake();
    const newView = fake();
    try {
      await api.chats.resolveWebviewView(oldView.view, { state: undefined });
      const panel = api.chats.inView;
      assert.equal(panel?.chatId, chatId, 'the view shows its last chat');
      await api.chats.resolveWebviewView(newView.view, { state: { chatId } });
      assert.equal(api.chats.inView, panel, 'the new view shows it');
      oldView.dispose();
      assert.equal(api.chats.get(chatId), panel, 'the chat in the new view stays open');
      assert.equal(api.chats.inView, panel);
    } finally {
      newView.dispose();
      await closeAllEditors();
    }
    assert.equal(await vscode.commands.executeCommand<string>('fdref.focusChat'), chatId);
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
