import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { Recorder } from '../support/chatRecorder';
import { startModelEndpoint } from '../support/modelEndpoint';
import {
  exists,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  refBlock,
  sessionWith,
  uniqueId,
} from './support/fdref';
import { setSetting } from './support/settings';

// Runs in the restricted pass of the runner (workspace trust on, the workspace not trusted); skipped otherwise.
describe('Restricted Mode', () => {
  before(function () {
    if (vscode.workspace.isTrusted) this.skip();
  });

  it('still activates and shows refs, as the limited support it declares', async () => {
    const entry = await sessionWith(refBlock(uniqueId('restricted'), 'python', 'print("hi")'));
    const listing = await vscode.workspace.fs.readDirectory(vscode.Uri.parse('fdref:/'));
    assert.ok(
      listing.some(([name]) => name.includes(entry.metadata.id)),
      'the session is listed in fdref:/',
    );
  });

  it('refuses every file write with a message saying why, writing nothing', async () => {
    const id = uniqueId('restricted');
    const entry = await sessionWith(refBlock(id, 'python', 'print("hi")'));
    const sessionId = entry.metadata.id;
    for (const [command, args] of [
      ['fdref.exportRef', { sessionId, refId: id, path: `${id}.py`, overwrite: true }],
      ['fdref.appendRef', { sessionId, refId: id, path: 'README.md' }],
      ['fdref.insertRefAtLine', { sessionId, refId: id, path: 'README.md', line: 1 }],
    ] as const) {
      const mark = await messageMark();
      await vscode.commands.executeCommand(command, args);
      const error = (await messagesSince(mark)).find((m) => m.level === 'error');
      assert.ok(error, `${command} showed an error`);
      assert.match(error.text, /Restricted Mode/);
    }
    assert.equal(await exists(inWorkspace(`${id}.py`)), false);
    const readme = new TextDecoder().decode(await vscode.workspace.fs.readFile(inWorkspace('README.md')));
    assert.ok(!readme.includes('print("hi")'), 'README.md was not changed');
  });

  it("lets a chat run but refuses the model's fd_to_file without asking, and tells the model why", async () => {
    const endpoint = await startModelEndpoint();
    await setSetting('fdref.chat.endpoints', [
      { name: 'Restricted loopback', protocol: 'openai', baseUrl: endpoint.openaiBaseUrl, model: 'm', demo: true },
    ]);
    const panel = await (await fdref()).chats.newChat();
    try {
      const recorder = new Recorder(panel);
      const file = `${uniqueId('restricted-chat')}.py`;
      await panel.send(`write ${file}`);
      const calls = recorder.toolCalls();
      assert.ok(!calls.some((c) => c.status === 'awaitingConfirmation'), 'nothing was asked');
      const last = calls[calls.length - 1];
      assert.equal(last?.status, 'error');
      assert.match(last?.result ?? '', /permission_denied.*Restricted Mode/s);
      assert.equal(await exists(inWorkspace(file)), false);
      assert.ok(
        recorder.of('refClosed').some((m) => m.ref?.id === 'greeting'),
        'the answer and its ref still arrived',
      );
    } finally {
      panel.dispose();
      await setSetting('fdref.chat.endpoints', undefined);
      await endpoint.close();
    }
  });

  it('hides the fdref_fd_to_file language model tool where VS Code applies `when`, and refuses it when called', async () => {
    const id = uniqueId('restricted_lm');
    await sessionWith(refBlock(id, 'python', 'print("hi")'));
    const names = vscode.lm.tools.map((t) => t.name);
    assert.ok(names.includes('fdref_read_fd'), 'the reading tools stay');
    const listed = names.includes('fdref_fd_to_file');
    // 1.100 applies the manifest's `when: isWorkspaceTrusted` to lm.tools; 1.139 still lists the tool to extensions
    // (its own chat decides what it offers).
    if (vscode.version.startsWith('1.100.')) assert.equal(listed, false, 'hidden on 1.100');
    const file = `${id}.py`;
    const prepared = await (await fdref()).lmTools.prepare('fdref_fd_to_file', { fd: `ref:${id}`, file_path: file });
    assert.equal(prepared?.confirmationMessages, undefined, 'nothing to confirm');
    // Hidden or not, a call by name still reaches the tool on both versions: its own refusal keeps the file unwritten.
    const result = await vscode.lm.invokeTool('fdref_fd_to_file', {
      input: { fd: `ref:${id}`, file_path: file },
      toolInvocationToken: undefined,
    });
    const text = result.content
      .map((part) => (part instanceof vscode.LanguageModelTextPart ? part.value : ''))
      .join('');
    assert.match(text, /<fd_error type="permission_denied"[^>]*>fd_to_file is not available in Restricted Mode/);
    assert.equal(await exists(inWorkspace(file)), false);
  });

  it('does not offer the chat model run_command, also with auto-approve on, and refuses one called anyway', async () => {
    const endpoint = await startModelEndpoint();
    await setSetting('fdref.chat.endpoints', [
      { name: 'Restricted loopback', protocol: 'openai', baseUrl: endpoint.openaiBaseUrl, model: 'm', demo: true },
    ]);
    await setSetting('fdref.chat.autoApproveCommands', true);
    const panel = await (await fdref()).chats.newChat();
    try {
      const recorder = new Recorder(panel);
      const made = uniqueId('restricted-run');
      await panel.send(`call run_command {"command":"touch ${made}.txt"}`);
      assert.match(recorder.lastAnswer().rounds[0]?.text ?? '', /can't call run_command: the request offers no tool/);
      await panel.send(`call! run_command {"command":"touch ${made}.txt"}`);
      const calls = recorder.toolCalls();
      assert.ok(!calls.some((c) => c.status === 'awaitingConfirmation'), 'nothing was asked');
      const last = calls[calls.length - 1];
      assert.equal(last?.status, 'error');
      assert.match(last?.result ?? '', /permission_denied.*Restricted Mode/s);
      assert.equal(await exists(inWorkspace(`${made}.txt`)), false);
    } finally {
      panel.dispose();
      await setSetting('fdref.chat.autoApproveCommands', undefined);
      await setSetting('fdref.chat.endpoints', undefined);
      await endpoint.close();
    }
  });
});
