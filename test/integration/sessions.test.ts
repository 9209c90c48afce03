import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { readFile as readFileText, stat } from 'node:fs/promises';
import * as path from 'node:path';
import { Store } from '../../src/core/store';
import type { SessionChange } from '../../src/sessions/sessionEntry';
import {
  closeAllEditors,
  eventually,
  fdref,
  inWorkspace,
  messageMark,
  messagesSince,
  refBlock,
  sessionWith,
  uniqueId,
} from './support/fdref';
import { descriptorText } from '../support/descriptorText';
import { startOtherProcess } from './support/otherProcess';

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
    assert.equal(await descriptorText(entry.session.getDescriptor(`ref:${id}`)), 'print("hi")');
    assert.equal(entry.session.getDescriptor(`ref:${id}`)?.language, 'python');
    assert.equal(await descriptorText(entry.session.getDescriptor(`ref:${id}_b`)), 'plain');
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
    assert.equal(await descriptorText(entry?.session.getDescriptor(`ref:${id}@1`)), 'one');
    assert.equal(await descriptorText(entry?.session.getDescriptor(`ref:${id}`)), 'two');
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
    assert.equal(await descriptorText(entry?.session.getDescriptor(`ref:${id}`)), 'from the clipboard');
  });

  it('saves every session in the store and reads it back whole from there', async () => {
    const api = await fdref();
    const id = uniqueId('kept');
    const entry = await sessionWith(refBlock(id, 'ts', 'export const kept = 1;'), 'Kept');
    const meta = JSON.parse(await readFile(sessionFile(api.registry.storeFolder, entry.metadata.id, 'meta.json')));
    assert.equal(meta.format, 'fdref.storeSession');
    assert.equal(meta.name, 'Kept');

    // Another reader of the store (as another window is) sees exactly what this window holds.
    const store = await Store.open(api.registry.storeFolder);
    const restored = await (await store.read(entry.metadata.id))?.materialize();
    assert.ok(restored);
    assert.equal(restored.metadata.name, 'Kept');
    assert.equal(restored.metadata.createdAt, entry.metadata.createdAt);
    assert.equal(await descriptorText(restored.session.getDescriptor(`ref:${id}`)), 'export const kept = 1;');
    assert.equal(restored.session.getDescriptor(`ref:${id}`)?.language, 'ts');
    await api.registry.reload();
    assert.equal(await api.registry.get(entry.metadata.id), entry, 'a session this window writes stays as it is');
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
    const store = await Store.open(api.registry.storeFolder);
    const saved = await (await store.read(entry.metadata.id))?.materialize();
    assert.equal(saved?.chat?.messages.length, 20);
    assert.equal((saved?.chat?.messages[19] as { text?: string } | undefined)?.text, 'message 19');
    assert.equal(await descriptorText(saved?.session.getDescriptor('ref:burst_19')), '19');
    const reader = await api.registry.reader(entry.metadata.id);
    assert.equal(reader?.refs().length, 20, 'the tree and files read the same');
  });

  it('renames and deletes sessions through the commands, on disk too', async () => {
    const api = await fdref();
    const entry = await sessionWith(`<ref id="${uniqueId('doomed')}">x</ref>`, 'Before');
    const folder = path.join(api.registry.storeFolder, 'sessions', entry.metadata.id);

    assert.equal(
      await vscode.commands.executeCommand('fdref.renameSession', { sessionId: entry.metadata.id, name: 'After' }),
      'After',
    );
    assert.equal((await api.registry.get(entry.metadata.id))?.metadata.name, 'After');
    assert.equal((await api.registry.meta(entry.metadata.id))?.name, 'After');
    assert.equal(JSON.parse(await readFile(path.join(folder, 'meta.json'))).name, 'After');

    assert.equal(
      await vscode.commands.executeCommand('fdref.deleteSession', { sessionId: entry.metadata.id, confirmed: true }),
      true,
    );
    assert.equal(await api.registry.get(entry.metadata.id), undefined);
    await assert.rejects(stat(folder), 'the session folder is gone');
  });

  it('Delete Session keeps a pinned session and one another process is writing, and says why', async () => {
    const api = await fdref();
    const deleteSession = (sessionId: string): Thenable<unknown> =>
      vscode.commands.executeCommand('fdref.deleteSession', { sessionId, confirmed: true });
    const errorAfter = async (mark: number): Promise<string> => {
      const error = (await messagesSince(mark)).find((m) => m.level === 'error');
      assert.ok(error, 'an error message was shown');
      return error.text;
    };

    const pinned = await sessionWith(`<ref id="${uniqueId('kept')}">x</ref>`, 'Pinned one');
    await api.registry.release(pinned.metadata.id);
    await api.registry.setPinned(pinned.metadata.id, true);
    let mark = await messageMark();
    assert.equal(await deleteSession(pinned.metadata.id), undefined);
    assert.match(await errorAfter(mark), /^FD Refs: Session "Pinned one" is pinned, so it was not deleted\. Unpin it/);
    assert.ok(await api.registry.meta(pinned.metadata.id), 'the pinned session stays');
    await api.registry.setPinned(pinned.metadata.id, false);
    assert.equal(await deleteSession(pinned.metadata.id), true, 'deleted once unpinned');

    const other = await startOtherProcess(api.registry.storeFolder);
    try {
      const { session: busy } = (await other.send({ op: 'create', name: 'Written elsewhere' })) as { session: string };
      await eventually(() => api.registry.meta(busy), "the other process's session");
      mark = await messageMark();
      assert.equal(await deleteSession(busy), undefined);
      assert.match(
        await errorAfter(mark),
        /^FD Refs: Session "Written elsewhere" is being written by another window, MCP server or agent right now, so it was not deleted/,
      );
      await stat(path.join(api.registry.storeFolder, 'sessions', busy));
      assert.ok(await api.registry.meta(busy), 'the session being written stays');
      await other.exit();
      assert.equal(await deleteSession(busy), true, 'deleted once its writer is gone');
      await assert.rejects(stat(path.join(api.registry.storeFolder, 'sessions', busy)), 'its folder is gone');
    } finally {
      await other.exit();
    }
  });

  it('announces additions, renames, new refs and removals', async () => {
    const api = await fdref();
    const changes: SessionChange[] = [];
    const subscription = api.registry.onDidChange((change) => changes.push(change));
    try {
      const entry = await sessionWith(`<ref id="${uniqueId('evt')}">x</ref>`);
      await api.registry.rename(entry.metadata.id, 'Renamed');
      await api.registry.delete(entry.metadata.id);
      // This session's changes: others (an earlier test's, another process's) may be announced meanwhile.
      const own = () => changes.filter((c) => 'sessionId' in c && c.sessionId === entry.metadata.id);
      await eventually(() => (own().length >= 4 ? true : undefined), 'four changes');
      assert.deepEqual(
        own().map((c) => c.kind),
        ['added', 'refsChanged', 'renamed', 'removed'],
      );
    } finally {
      subscription.dispose();
    }
  });

  it("announces a removal once when the store's watcher sees the folder go before Delete has announced it", async () => {
    const api = await fdref();
    const entry = await sessionWith(`<ref id="${uniqueId('gone')}">x</ref>`);
    const id = entry.metadata.id;
    // The race a fresh clone once met, made certain: the watcher reports the removal as soon as the folder is gone.
    const registry = api.registry as unknown as {
      store: { delete(id: string): Promise<void> };
      onStoreChange(change: { kind: 'removed'; sessionId: string }): Promise<void>;
    };
    const store = registry.store;
    const realDelete = store.delete.bind(store);
    store.delete = async (sessionId) => {
      await realDelete(sessionId);
      await registry.onStoreChange({ kind: 'removed', sessionId });
    };
    const removals: string[] = [];
    const subscription = api.registry.onDidChange((change) => {
      if (change.kind === 'removed' && change.sessionId === id) removals.push(change.name);
    });
    try {
      await api.registry.delete(id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      assert.deepEqual(removals, [entry.metadata.name]);
    } finally {
      subscription.dispose();
      store.delete = realDelete;
    }
  });

  it("announces an addition once when the store's watcher sees the folder before Create has recorded it", async () => {
    const api = await fdref();
    // The race that gave a fresh clone 'added' twice, made certain: the watcher reports the new folder at once.
    const registry = api.registry as unknown as {
      store: { create(...args: unknown[]): Promise<{ id: string }> };
      onStoreChange(change: { kind: 'added'; sessionId: string }): Promise<void>;
    };
    const store = registry.store;
    const realCreate = store.create.bind(store);
    store.create = async (...args) => {
      const writer = await realCreate(...args);
      await registry.onStoreChange({ kind: 'added', sessionId: writer.id });
      return writer;
    };
    const added: string[] = [];
    const subscription = api.registry.onDidChange((change) => {
      if (change.kind === 'added') added.push(change.sessionId);
    });
    try {
      const entry = await api.registry.create(uniqueId('Added once'), { kind: 'chat' });
      assert.deepEqual(
        added.filter((id) => id === entry.metadata.id),
        [entry.metadata.id],
      );
      await api.registry.delete(entry.metadata.id);
    } finally {
      subscription.dispose();
      store.create = realCreate;
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

function readFile(file: string): Promise<string> {
  return readFileText(file, 'utf8');
}

function sessionFile(root: string, id: string, name: string): string {
  return path.join(root, 'sessions', id, name);
}

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
