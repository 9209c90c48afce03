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
});
