import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { sessionRecordToJSON } from '../../src/core/session/sessionRecord';
import type { SessionChange, SessionEntry } from '../../src/sessions/sessionEntry';
import { SessionRegistry } from '../../src/sessions/sessionRegistry';
import { SessionStore } from '../../src/sessions/sessionStore';
import {
  closeAllEditors,
  eventually,
  exists,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  readText,
  refBlock,
  sessionWith,
  uniqueId,
  workspaceRoot,
} from './support/fdref';

describe('sessions', () => {
  afterEach(closeAllEditors);

  it('captures the refs in the editor selection into the capture session of today', async () => {
    const id = uniqueId('captured');
    const text = `Here you go:\n${refBlock(id, 'python', 'print("hi")')}\nand <ref id="${id}_b">plain</ref>`;
    const document = await openFile(`ignored before\n${text}`);
    const editor = await showAndWait(document);
    editor.selection = new vscode.Selection(
      document.positionAt(document.getText().indexOf('Here')),
      document.positionAt(document.getText().length),
    );
    const mark = await messageMark();

    const captured = await vscode.commands.executeCommand<{ sessionId: string }>('fdref.captureSelection');

    const api = await fdref();
    const entry = await api.registry.get(captured.sessionId);
    assert.ok(entry, 'the capture session exists');
    assert.equal(entry.metadata.origin.kind, 'capture');
    assert.match(entry.metadata.name, /^Captured \d{4}-\d{2}-\d{2}$/);
    assert.equal(entry.session.getDescriptor(`ref:${id}`)?.content.text, 'print("hi")');
    assert.equal(entry.session.getDescriptor(`ref:${id}`)?.language, 'python');
    assert.equal(entry.session.getDescriptor(`ref:${id}_b`)?.content.text, 'plain');
    const shown = await messagesSince(mark);
    assert.deepEqual(
      shown.map((m) => m.level),
      ['info'],
    );
    assert.match(shown[0]!.text, new RegExp(`Captured 2 refs \\(ref:${id}, ref:${id}_b\\)`));
  });

  it('captures the same day into the same session, adding versions', async () => {
    const id = uniqueId('again');
    const first = await captureFromEditor(`<ref id="${id}">one</ref>`);
    const second = await captureFromEditor(`<ref id="${id}">two</ref>`);
    assert.equal(first.sessionId, second.sessionId);
    const entry = await (await fdref()).registry.get(first.sessionId);
    assert.equal(entry?.session.getDescriptor(`ref:${id}@1`)?.content.text, 'one');
    assert.equal(entry?.session.getDescriptor(`ref:${id}`)?.content.text, 'two');
  });

  it('reports invalid ids and unclosed tags in a warning', async () => {
    const id = uniqueId('fine');
    const mark = await messageMark();
    await captureFromEditor(`<ref id="not valid">x</ref> <ref id="${id}">ok</ref> <ref id="${id}_open">never closed`);
    const shown = await messagesSince(mark);
    assert.equal(shown.length, 1);
    assert.equal(shown[0]!.level, 'warning');
    assert.match(shown[0]!.text, /Captured 1 ref/);
    assert.match(shown[0]!.text, /Invalid ref id "not valid"/);
    assert.match(shown[0]!.text, /Unclosed <ref id=/);
  });

  it('warns when the text holds no refs at all', async () => {
    const mark = await messageMark();
    await captureFromEditor('just prose, no refs');
    const shown = await messagesSince(mark);
    assert.equal(shown[0]?.level, 'warning');
    assert.match(shown[0].text, /No refs found/);
  });

  it('captures from the clipboard', async () => {
    const id = uniqueId('clip');
    await vscode.env.clipboard.writeText(`<ref id="${id}">from the clipboard</ref>`);
    const captured = await vscode.commands.executeCommand<{ sessionId: string } | undefined>('fdref.captureClipboard');
    assert.ok(captured);
    const entry = await (await fdref()).registry.get(captured.sessionId);
    assert.equal(entry?.session.getDescriptor(`ref:${id}`)?.content.text, 'from the clipboard');
  });

  it('saves every session as its own JSON file and restores it after a reload', async () => {
    const api = await fdref();
    const id = uniqueId('kept');
    const entry = await sessionWith(refBlock(id, 'ts', 'export const kept = 1;'), 'Kept');
    const file = vscode.Uri.joinPath(api.registry.storageFolder, `${entry.metadata.id}.json`);
    const saved = JSON.parse(await readText(file));
    assert.equal(saved.format, 'fdref.sessionRecord');
    assert.equal(saved.name, 'Kept');
    assert.equal(saved.session.format, 'fdref.session');

    await api.registry.reload();
    const restored = await api.registry.get(entry.metadata.id);
    assert.ok(restored);
    assert.notEqual(restored.session, entry.session, 'read back from disk, not the object in memory');
    assert.equal(restored.metadata.name, 'Kept');
    assert.equal(restored.metadata.createdAt, entry.metadata.createdAt);
    assert.equal(restored.session.getDescriptor(`ref:${id}`)?.content.text, 'export const kept = 1;');
    assert.equal(restored.session.getDescriptor(`ref:${id}`)?.language, 'ts');
  });

  it('saves a burst of in-place changes with the last state on disk', async () => {
    const api = await fdref();
    const entry = await api.registry.create('Burst', { kind: 'chat' }, undefined, { messages: [] });
    const saves: Promise<void>[] = [];
    for (let i = 0; i < 20; i++) {
      entry.chat?.messages.push({
        role: 'user',
        id: `u${i}`,
        text: `message ${i}`,
        createdAt: new Date().toISOString(),
      });
      entry.session.registerRef({ id: `burst_${i}`, content: `${i}`, start: 0, end: 1 });
      saves.push(api.registry.changed(entry.metadata.id, { refIds: [`burst_${i}`] }));
    }
    await Promise.all(saves);
    const file = vscode.Uri.joinPath(api.registry.storageFolder, `${entry.metadata.id}.json`);
    const saved = JSON.parse(await readText(file));
    assert.equal(saved.chat.messages.length, 20);
    assert.equal(saved.chat.messages[19].text, 'message 19');
    await api.registry.reload();
    const restored = await api.registry.get(entry.metadata.id);
    assert.equal(restored?.session.getDescriptor('ref:burst_19')?.content.text, '19');
  });

  it('reloads only after every pending save, also one queued while the reload waits, and loses no change', async () => {
    // A store of its own whose saves are slow, so that a reload starts while one save runs and another is queued.
    const folder = vscode.Uri.joinPath(workspaceRoot(), '.fdref-test', uniqueId('slow-store'));
    const delays = [300, 1500];
    class SlowStore extends SessionStore {
      override async save(entry: SessionEntry): Promise<void> {
        const delay = delays.shift() ?? 0;
        const bytes = JSON.stringify(sessionRecordToJSON(entry.metadata, entry.session, entry.chat));
        await new Promise((resolve) => setTimeout(resolve, delay));
        await vscode.workspace.fs.createDirectory(this.folder);
        await vscode.workspace.fs.writeFile(this.fileOf(entry.metadata.id), new TextEncoder().encode(bytes));
      }
    }
    const api = await fdref();
    const registry = new SessionRegistry(new SlowStore(folder), api.messages);
    try {
      delays.unshift(0); // the save of the new session
      const entry = await registry.create('Slow', { kind: 'chat' }, undefined, { messages: [] });
      entry.session.registerRef({ id: 'first', content: '1', start: 0, end: 1 });
      const firstSave = registry.changed(entry.metadata.id); // takes 300 ms
      const reloaded = registry.reload();
      await new Promise((resolve) => setTimeout(resolve, 50));
      entry.session.registerRef({ id: 'second', content: '2', start: 0, end: 1 });
      const secondSave = registry.changed(entry.metadata.id); // queued behind the first, then takes 1.5 s
      await reloaded;
      const restored = await registry.get(entry.metadata.id);
      assert.notEqual(restored, entry, 'read back from disk');
      assert.equal(
        restored?.session.getDescriptor('ref:second')?.content.text,
        '2',
        'the change saved last is in memory after the reload',
      );
      await Promise.all([firstSave, secondSave]);
    } finally {
      registry.dispose();
      await vscode.workspace.fs.delete(folder, { recursive: true, useTrash: false }).then(undefined, () => undefined);
    }
  });

  it('sets a corrupt session file aside with a warning naming it, and still loads the others', async () => {
    const api = await fdref();
    const good = await sessionWith(`<ref id="${uniqueId('good')}">fine</ref>`, 'Good');
    const goodFile = vscode.Uri.joinPath(api.registry.storageFolder, `${good.metadata.id}.json`);
    const goodBytes = await readText(goodFile);
    const corrupt = vscode.Uri.joinPath(api.registry.storageFolder, 'badc0ffe.json');
    await vscode.workspace.fs.writeFile(corrupt, new TextEncoder().encode('{ this is not json'));
    const mark = await messageMark();

    await api.registry.reload();
    const sessions = await api.registry.list();

    assert.ok(
      sessions.some((s) => s.metadata.id === good.metadata.id),
      'the good session loaded',
    );
    assert.equal(await exists(corrupt), false, 'the corrupt file is no longer under its name');
    const listing = await vscode.workspace.fs.readDirectory(api.registry.storageFolder);
    assert.ok(
      listing.some(([name]) => /^badc0ffe\.json\.corrupt-/.test(name)),
      `renamed aside: ${listing.map(([n]) => n).join(', ')}`,
    );
    assert.equal(await readText(goodFile), goodBytes, 'the good file was not rewritten');
    const warning = (await messagesSince(mark)).find((m) => m.level === 'warning');
    assert.ok(warning, 'a warning was shown');
    assert.match(warning.text, /badc0ffe\.json/);
  });

  it('renames and deletes sessions through the commands, on disk too', async () => {
    const api = await fdref();
    const entry = await sessionWith(`<ref id="${uniqueId('doomed')}">x</ref>`, 'Before');
    const file = vscode.Uri.joinPath(api.registry.storageFolder, `${entry.metadata.id}.json`);

    assert.equal(
      await vscode.commands.executeCommand('fdref.renameSession', { sessionId: entry.metadata.id, name: 'After' }),
      'After',
    );
    assert.equal((await api.registry.get(entry.metadata.id))?.metadata.name, 'After');
    assert.equal(JSON.parse(await readText(file)).name, 'After');

    assert.equal(
      await vscode.commands.executeCommand('fdref.deleteSession', { sessionId: entry.metadata.id, confirmed: true }),
      true,
    );
    assert.equal(await api.registry.get(entry.metadata.id), undefined);
    assert.equal(await exists(file), false);
  });

  it('announces additions, renames, new refs and removals', async () => {
    const api = await fdref();
    const changes: SessionChange[] = [];
    const subscription = api.registry.onDidChange((change) => changes.push(change));
    try {
      const entry = await sessionWith(`<ref id="${uniqueId('evt')}">x</ref>`);
      await api.registry.rename(entry.metadata.id, 'Renamed');
      await api.registry.delete(entry.metadata.id);
      await eventually(() => (changes.length >= 4 ? true : undefined), 'four changes');
      assert.deepEqual(
        changes.map((c) => c.kind),
        ['added', 'refsChanged', 'renamed', 'removed'],
      );
    } finally {
      subscription.dispose();
    }
  });

  it('reports an unknown session id as an error and changes nothing', async () => {
    const mark = await messageMark();
    assert.equal(
      await vscode.commands.executeCommand('fdref.renameSession', { sessionId: 'nosuchid', name: 'x' }),
      undefined,
    );
    const shown = await messagesSince(mark);
    assert.equal(shown[0]?.level, 'error');
    assert.match(shown[0].text, /no FD Refs session with id nosuchid/);
  });
});

async function captureFromEditor(text: string): Promise<{ sessionId: string }> {
  const document = await openFile(text);
  const editor = await showAndWait(document);
  editor.selection = new vscode.Selection(0, 0, document.lineCount, 0);
  return vscode.commands.executeCommand<{ sessionId: string }>('fdref.captureSelection');
}

/** Shows the document and waits until the extension host also sees it as the active editor. */
async function showAndWait(document: vscode.TextDocument): Promise<vscode.TextEditor> {
  const editor = await vscode.window.showTextDocument(document);
  await eventually(
    () => (vscode.window.activeTextEditor?.document === document ? true : undefined),
    'the editor to become active',
  );
  return editor;
}

/**
 * A new workspace file with the text, opened. Files rather than untitled documents: a new untitled document
 * can reuse the name of one just closed, and the extension host may still hold the closed one's text.
 */
async function openFile(text: string): Promise<vscode.TextDocument> {
  const uri = inWorkspace(`captures/${uniqueId('capture')}.md`);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  return vscode.workspace.openTextDocument(uri);
}
