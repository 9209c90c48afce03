import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { closeAllEditors, eventually, fdref, refBlock, sessionWith, uniqueId } from './support/fdref';

const ROOT = vscode.Uri.parse('fdref:/');

describe('fdref: file system', () => {
  afterEach(closeAllEditors);

  async function fixture() {
    const id = uniqueId('parse_config');
    const entry = await sessionWith(
      `${refBlock(id, 'py', 'old = 1')}\n${refBlock(id, 'python', 'def parse():\n    return "é"')}\n<ref id="${id}_notes">just text</ref>\n${refBlock(`${id}_data`, 'json', '{"a": 1}')}`,
      'FS test / session',
    );
    entry.session.wrapToolOutput('read_file', 'x'.repeat(9000));
    await (await fdref()).registry.changed(entry.metadata.id, { descriptors: true }); // saved, so the store shows it
    const folder = vscode.Uri.joinPath(ROOT, `FS test - session (${entry.metadata.id})`);
    return { id, entry, folder, refs: vscode.Uri.joinPath(folder, 'refs'), fds: vscode.Uri.joinPath(folder, 'fds') };
  }

  it('lists sessions as readable folders, each with refs/ and fds/', async () => {
    const { folder } = await fixture();
    const root = await vscode.workspace.fs.readDirectory(ROOT);
    assert.ok(
      root.some(([name, type]) => name === folder.path.slice(1) && type === vscode.FileType.Directory),
      JSON.stringify(root),
    );
    assert.deepEqual(await vscode.workspace.fs.readDirectory(folder), [
      ['refs', vscode.FileType.Directory],
      ['fds', vscode.FileType.Directory],
    ]);
  });

  it('names refs by id and language, with earlier versions beside them, and descriptors fd-N.txt', async () => {
    const { id, refs, fds } = await fixture();
    assert.deepEqual(
      (await vscode.workspace.fs.readDirectory(refs)).map(([name]) => name),
      [`${id}.py`, `${id}@1.py`, `${id}_notes.txt`, `${id}_data.json`],
    );
    assert.deepEqual(await vscode.workspace.fs.readDirectory(fds), [['fd-1.txt', vscode.FileType.File]]);
  });

  it('reads every version and descriptor as UTF-8 and stats its byte size and time', async () => {
    const { id, entry, refs, fds } = await fixture();
    const latest = vscode.Uri.joinPath(refs, `${id}.py`);
    const text = 'def parse():\n    return "é"';
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(latest)), text);
    assert.equal(
      new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(refs, `${id}@1.py`))),
      'old = 1',
    );
    assert.equal((await vscode.workspace.fs.readFile(vscode.Uri.joinPath(fds, 'fd-1.txt'))).length, 9000);
    const stat = await vscode.workspace.fs.stat(latest);
    assert.equal(stat.type, vscode.FileType.File);
    assert.equal(stat.size, new TextEncoder().encode(text).length);
    assert.equal(stat.size, text.length + 1, 'é takes two bytes');
    assert.equal(stat.mtime, Date.parse(entry.session.getDescriptor(`ref:${id}`)!.createdAt));
  });

  it('says FileNotFound for anything that does not exist', async () => {
    const { id, refs, folder } = await fixture();
    const missing = [
      vscode.Uri.joinPath(refs, 'nope.txt'),
      vscode.Uri.joinPath(refs, `${id}.txt`), // right id, wrong extension
      vscode.Uri.joinPath(refs, `${id}@9.py`),
      vscode.Uri.joinPath(folder, 'other'),
      vscode.Uri.parse('fdref:/Gone (deadbeef)/refs'),
      vscode.Uri.parse('fdref:/not a session folder'),
    ];
    for (const uri of missing) {
      await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(uri)), (error: unknown) => {
        assert.ok(error instanceof vscode.FileSystemError, String(error));
        assert.equal(error.code, 'FileNotFound', uri.toString());
        return true;
      });
    }
    await assert.rejects(Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.joinPath(refs, 'nope.txt'))));
  });

  it('refuses every write', async () => {
    const { id, refs } = await fixture();
    await assert.rejects(
      Promise.resolve(vscode.workspace.fs.writeFile(vscode.Uri.joinPath(refs, `${id}.py`), new Uint8Array([1]))),
    );
    await assert.rejects(Promise.resolve(vscode.workspace.fs.delete(vscode.Uri.joinPath(refs, `${id}.py`))));
    await assert.rejects(Promise.resolve(vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(refs, 'new'))));
  });

  it('opens refs as documents in the language of their fence', async () => {
    const { id, refs } = await fixture();
    const python = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(refs, `${id}.py`));
    assert.equal(python.languageId, 'python');
    assert.equal(python.getText(), 'def parse():\n    return "é"');
    assert.equal(
      (await vscode.workspace.openTextDocument(vscode.Uri.joinPath(refs, `${id}_data.json`))).languageId,
      'json',
    );
    assert.equal(
      (await vscode.workspace.openTextDocument(vscode.Uri.joinPath(refs, `${id}_notes.txt`))).languageId,
      'plaintext',
    );
  });

  it('opens a ref in an editor through the Open Ref command', async () => {
    const { id, entry } = await fixture();
    const editor = await vscode.commands.executeCommand<vscode.TextEditor>('fdref.openRef', {
      sessionId: entry.metadata.id,
      refId: `${id}_data`,
    });
    assert.ok(editor);
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), editor.document.uri.toString());
    assert.equal(editor.document.uri.scheme, 'fdref');
    assert.equal(editor.document.languageId, 'json');
    assert.equal(editor.document.getText(), '{"a": 1}');
  });

  it('announces new and replaced refs in one batch of changes', async () => {
    const api = await fdref();
    const { id, entry, refs } = await fixture();
    await new Promise((resolve) => setTimeout(resolve, 100)); // let the fixture's own events go out first
    const batches: vscode.FileChangeEvent[][] = [];
    const subscription = api.fileSystem.onDidChangeFile((events) => batches.push([...events]));
    try {
      await api.registry.ingest(entry.metadata.id, refBlock(id, 'python', 'third = 3'));
      await eventually(() => (batches.length > 0 ? true : undefined), 'a change event');
      const events = batches.flat().map((e) => `${e.type}:${e.uri.path}`);
      assert.ok(
        events.includes(`${vscode.FileChangeType.Changed}:${vscode.Uri.joinPath(refs, `${id}.py`).path}`),
        events.join('\n'),
      );
      assert.ok(
        events.includes(`${vscode.FileChangeType.Created}:${vscode.Uri.joinPath(refs, `${id}@2.py`).path}`),
        events.join('\n'),
      );
      assert.equal(batches.length, 1, 'one batch');
    } finally {
      subscription.dispose();
    }
  });

  it('updates an open document when its ref gets a new version', async () => {
    const api = await fdref();
    const { id, entry, refs } = await fixture();
    const document = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(refs, `${id}.py`));
    await vscode.window.showTextDocument(document);
    await api.registry.ingest(entry.metadata.id, refBlock(id, 'python', 'newest = True'));
    await eventually(
      () => (document.getText() === 'newest = True' ? true : undefined),
      'the document to reload',
      10_000,
    );
  });
});
