import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { ChatPanel } from '../../src/chat/runtime/chatPanel';
import type { HeadlinePart, ToolCallView } from '../../src/core/chat/protocol';
import { Recorder } from '../support/chatRecorder';
import { useModelEndpoint } from '../support/mochaHooks';
import {
  closeAllEditors,
  eventually,
  exists,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  uniqueId,
} from './support/fdref';
import { setSetting, useLoopbackChatEndpoint } from './support/settings';

const ENDPOINT = { name: 'Links loopback', model: 'claude-loopback' };

describe('chat webview links: a written file opens, Set API Key asks for the key', function () {
  this.timeout(60_000);
  const endpoint = useModelEndpoint();
  const panels: ChatPanel[] = [];

  async function chat(): Promise<{ panel: ChatPanel; recorder: Recorder }> {
    const panel = await (await fdref()).chats.newChat();
    panels.push(panel);
    const recorder = new Recorder(panel);
    await panel.receive({ type: 'selectModel', key: `endpoint:${ENDPOINT.name}/${ENDPOINT.model}` });
    return { panel, recorder };
  }

  useLoopbackChatEndpoint(endpoint, { ...ENDPOINT, protocol: 'anthropic' });

  afterEach(async () => {
    for (const panel of panels.splice(0)) panel.dispose();
    await setSetting('fdref.chat.autoApproveWrites', undefined);
    await closeAllEditors();
  });

  it("a write's summary names the file as shown and its link opens it beside the chat", async () => {
    await setSetting('fdref.chat.autoApproveWrites', true);
    const { panel, recorder } = await chat();
    const file = `notes/${uniqueId('hello')}.py`;
    await panel.send(`write ${file}`);
    const call = recorder
      .toolCalls()
      .filter((c: ToolCallView) => c.name === 'fd_to_file' && c.status === 'done')
      .at(-1);
    assert.ok(call?.headline, JSON.stringify(recorder.toolCalls().at(-1)));
    const link = call.headline.find((p: HeadlinePart): p is { file: string; label: string } => 'file' in p);
    assert.ok(link, JSON.stringify(call.headline));
    assert.equal(link.label, file, 'the path as the user was asked about it, relative to the workspace');
    assert.equal(link.file, inWorkspace(file).fsPath);
    assert.ok(await exists(inWorkspace(file)));
    const bytes = (await vscode.workspace.fs.readFile(inWorkspace(file))).byteLength;
    assert.match(
      call.headline.map((p: HeadlinePart) => ('text' in p ? p.text : 'file' in p ? p.label : '')).join(''),
      new RegExp(`^Wrote ${file.replaceAll('.', '\\.')}, ${bytes} bytes$`),
    );

    await panel.receive({ type: 'openFile', callId: call.callId });
    const editor = await eventually(
      () =>
        vscode.window.activeTextEditor?.document.uri.fsPath === link.file ? vscode.window.activeTextEditor : undefined,
      'the written file in an editor',
    );
    // The chat is in the side bar: the file opens in the editor area, the chat still shown.
    assert.notEqual(editor.viewColumn, panel.host?.viewColumn, 'not over the chat');
    assert.equal(panel.host?.kind, 'view');
    assert.equal(panel.active, true, 'the chat stays visible');
  });

  it('opens only a file a call of the chat wrote: a path from the page, an unknown call or a file gone are refused', async () => {
    await setSetting('fdref.chat.autoApproveWrites', true);
    const { panel, recorder } = await chat();
    const file = `notes/${uniqueId('gone')}.py`;
    await panel.send(`write ${file}`);
    const call = recorder
      .toolCalls()
      .filter((c: ToolCallView) => c.name === 'fd_to_file' && c.status === 'done')
      .at(-1);
    assert.ok(call, JSON.stringify(recorder.toolCalls().at(-1)));
    await vscode.workspace.fs.delete(inWorkspace(file));
    const before = vscode.window.activeTextEditor?.document.uri.toString();
    const mark = await messageMark();
    // The page names a call, never a path: a path is not a message the extension takes.
    await panel.receive({ type: 'openFile', path: '/etc/passwd' });
    await panel.receive({ type: 'openFile', callId: 'no-such-call' });
    await panel.receive({ type: 'openFile', callId: call.callId });
    const texts = (await messagesSince(mark)).map((m) => m.text);
    assert.ok(
      texts.some((t) => t.includes('wrote no file this chat knows of')),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => t.includes('no longer exists')),
      texts.join('\n'),
    );
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), before, 'nothing was opened');
  });

  it('Set API Key in the chat runs the command: the endpoint is picked and its key set', async () => {
    const { panel } = await chat();
    const mark = await messageMark();
    // The new chat's view can take the focus after the quick pick has opened (showing the view and focusing its
    // composer both finish later), and a quick pick closes when it loses the focus: the command then ends having done
    // nothing, and the test clicks Set API Key again, as a person would.
    let ended = false;
    const click = (): Promise<void> =>
      panel.receive({ type: 'command', command: 'setApiKey' }).finally(() => {
        ended = true;
      });
    let running = click();
    // The quick pick of endpoints, then the key's input box: accepting both with an empty key removes the key.
    const said = await eventually(
      async () => {
        const texts = (await messagesSince(mark)).map((m) => m.text);
        const removed = texts.find((t) => t.includes(`removed the API key of "${ENDPOINT.name}"`));
        if (removed !== undefined) return removed;
        if (ended) {
          ended = false;
          running = click();
        }
        await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
        return undefined;
      },
      'the key set through the quick pick and input box',
      20_000,
    );
    assert.ok(said);
    await running;
  });
});
