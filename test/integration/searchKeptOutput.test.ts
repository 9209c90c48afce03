import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { fromFdrefUri } from '../../src/files/fdrefUri';
import { closeAllEditors, fdref, uniqueId } from './support/fdref';

/** A session holding one kept output: `lines` lines, with `needles` put at the 1-based line numbers given. */
async function keptOutput(name: string, lines: number, needles: Record<number, string>): Promise<string> {
  const api = await fdref();
  const entry = await api.registry.create(name, { kind: 'chat' });
  const text = Array.from({ length: lines }, (_, i) => needles[i + 1] ?? `step ${i + 1}: compiling module ${i}`);
  entry.session.wrapToolOutputAsDescriptor('build', text.join('\n'), 0);
  await api.registry.changed(entry.metadata.id, { descriptors: true });
  return entry.metadata.id;
}

/**
 * Runs Search Kept Output with `arg` (its `query` typed into the pick) and presses Enter until a result is opened:
 * Enter does nothing while the pick shows no result yet, so the first one that opens is the first result shown.
 */
async function searchAndOpen(arg: object): Promise<vscode.TextEditor> {
  const opened = Promise.resolve(
    vscode.commands.executeCommand<vscode.TextEditor | undefined>('fdref.searchKeptOutput', arg),
  );
  let settled = false;
  void opened.finally(() => (settled = true));
  // 1.139 ignores an accept sent while the pick is still opening: keep pressing until the result opens.
  for (let i = 0; i < 200 && !settled; i++) {
    await new Promise((resolve) => setTimeout(resolve, 150));
    // `quickInput.accept` is Enter in a quick pick on recent builds; older ones have only the quick open command.
    for (const command of ['quickInput.accept', 'workbench.action.acceptSelectedQuickOpenItem'])
      if (!settled) await vscode.commands.executeCommand(command).then(undefined, () => undefined);
  }
  const editor = await opened;
  assert.ok(editor, 'a result was opened');
  return editor;
}

function shownAt(editor: vscode.TextEditor): { sessionId: string; file: string; line: number; text: string } {
  const location = fromFdrefUri(editor.document.uri);
  assert.ok(location?.kind === 'file', `an fdref: descriptor document is open (${editor.document.uri.toString()})`);
  assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString());
  const line = editor.selection.start.line;
  return {
    sessionId: location.sessionId,
    file: location.fileName,
    line: line + 1,
    text: editor.document.getText(editor.selection),
  };
}

describe('Search Kept Output', function () {
  this.timeout(60_000);
  afterEach(async () => {
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    await closeAllEditors();
  });

  it('finds a line kept in any session as the query is typed and opens its fdref: document at that line', async () => {
    const needle = uniqueId('needle');
    await keptOutput('Search: build', 60, { 20: 'step 20: compiling module 19' });
    const test = await keptOutput('Search: tests', 80, { 37: `  FAIL parser.test.ts: ${needle} was undefined` });
    const editor = await searchAndOpen({ query: needle });
    assert.deepEqual(shownAt(editor), {
      sessionId: test,
      file: 'fd-1.txt',
      line: 37,
      text: `  FAIL parser.test.ts: ${needle} was undefined`,
    });
    assert.ok(
      editor.visibleRanges.some((range) => range.contains(editor.selection)),
      'the line is in view',
    );
  });

  it("searches only a session's output when run on its item in the tree", async () => {
    const needle = uniqueId('shared');
    const first = await keptOutput('Search: first', 30, { 5: `first ${needle}` });
    const second = await keptOutput('Search: second', 30, { 12: `second ${needle}` });
    for (const [sessionId, line] of [
      [first, 5],
      [second, 12],
    ] as const) {
      const editor = await searchAndOpen({ kind: 'session', sessionId, query: needle });
      const shown = shownAt(editor);
      assert.equal(shown.sessionId, sessionId);
      assert.equal(shown.line, line);
      await closeAllEditors();
    }
  });

  it('keeps the search index on disk beside the sessions, not counted as one', async () => {
    const api = await fdref();
    await keptOutput('Search: indexed', 10, { 3: `indexed ${uniqueId('word')}` });
    const stats = await api.registry.search.store.catchUp();
    assert.ok(stats.diskBytes > 0, `the index is on disk (${JSON.stringify(stats)})`);
    assert.equal(stats.pendingBytes, 0);
    const listed = new Set((await api.registry.list()).map((s) => s.id));
    const usage = await api.registry.usage();
    assert.deepEqual(
      usage.sessions.filter((s) => !listed.has(s.id)).map((s) => s.id),
      [],
      'every session Show Store Usage counts is a session',
    );
  });
});
