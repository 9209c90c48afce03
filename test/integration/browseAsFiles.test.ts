import assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { SYMBOL_RESULTS, SYMBOL_SESSIONS, SYMBOLS_PER_SESSION } from '../../src/core/files/symbolQuery';
import { Store } from '../../src/core/store';
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

function symbols(query: string): Thenable<vscode.SymbolInformation[]> {
  return vscode.commands.executeCommand<vscode.SymbolInformation[]>('vscode.executeWorkspaceSymbolProvider', query);
}

/**
 * A session of many refs written straight into the store as another process would (one shared content, no flush
 * to disk per record), so that making 2,000 refs takes a moment on a busy machine; resolves once the window lists it.
 */
async function storedSessionWithRefs(name: string, ids: readonly string[]): Promise<void> {
  const api = await fdref();
  const store = await Store.open(api.registry.storeFolder, { durability: 'process' });
  try {
    const writer = await store.create({ name, origin: { kind: 'chat' } }, async (building) => {
      const content = await building.putContent('text');
      for (const id of ids) await building.addRefVersion({ id, createdAt: new Date().toISOString() }, content);
    });
    await writer.close();
    await eventually(
      async () => ((await api.registry.list()).some((meta) => meta.id === writer.id) ? true : undefined),
      `session "${name}" listed`,
      30_000,
    );
  } finally {
    await store.close();
  }
}

describe('Go to Symbol in Workspace (Ctrl+T) on refs', () => {
  afterEach(closeAllEditors);

  it('lists each ref, its earlier versions and the descriptors by id, with the session as container, at its fdref: file', async () => {
    const id = uniqueId('sym_parse');
    const name = uniqueId('Symbols session');
    const entry = await sessionWith(
      `${refBlock(id, 'python', 'old = 1')}\n${refBlock(id, 'python', 'def parse():\n    pass')}`,
      name,
    );
    entry.session.wrapToolOutput('read_file', 'y'.repeat(9000));
    await (await fdref()).registry.changed(entry.metadata.id, { descriptors: true });

    const found = (await symbols(id)).filter((s) => s.containerName === name);
    assert.deepEqual(
      found.map((s) => [s.name, s.kind]),
      [
        [`ref:${id}`, vscode.SymbolKind.Variable],
        [`ref:${id}@1`, vscode.SymbolKind.Variable],
      ],
    );
    const latest = found[0] as vscode.SymbolInformation;
    assert.equal(latest.location.uri.scheme, 'fdref');
    assert.ok(latest.location.uri.path.endsWith(`/refs/${id}.py`), latest.location.uri.toString());
    const document = await vscode.workspace.openTextDocument(latest.location.uri);
    assert.equal(document.getText(), 'def parse():\n    pass');

    const descriptors = (await symbols('fd:')).filter((s) => s.containerName === name);
    assert.deepEqual(
      descriptors.map((s) => [s.name, s.kind]),
      [['fd:1', vscode.SymbolKind.File]],
    );
    assert.equal((await vscode.workspace.openTextDocument(descriptors[0]!.location.uri)).getText(), 'y'.repeat(9000));
  });

  it("matches the query's characters in order, in any case, and nothing else", async () => {
    const id = uniqueId('sym_config_loader');
    const name = uniqueId('Symbols query');
    await sessionWith(refBlock(id, 'json', '{}'), name);
    const ours = async (query: string) =>
      (await symbols(query)).filter((s) => s.containerName === name).map((s) => s.name);
    assert.deepEqual(await ours(id.toUpperCase()), [`ref:${id}`]);
    assert.deepEqual(await ours('symcfgldr'), [`ref:${id}`]);
    assert.deepEqual(await ours('loader_config'), []);
  });

  it('follows a new ref version and a renamed session without a reload', async () => {
    const id = uniqueId('sym_versioned');
    const entry = await sessionWith(refBlock(id, 'python', 'v = 1'), uniqueId('Before rename'));
    const api = await fdref();
    assert.deepEqual(
      (await symbols(id)).map((s) => s.name),
      [`ref:${id}`],
    );
    await api.registry.ingest(entry.metadata.id, refBlock(id, 'python', 'v = 2'));
    const renamed = uniqueId('After rename');
    await api.registry.rename(entry.metadata.id, renamed);
    const found = await symbols(id);
    assert.deepEqual(
      found.map((s) => [s.name, s.containerName]),
      [
        [`ref:${id}`, renamed],
        [`ref:${id}@1`, renamed],
      ],
    );
    assert.ok(found[0]!.location.uri.path.startsWith(`/${renamed} (`), found[0]!.location.uri.path);
  });

  it(`takes at most ${SYMBOLS_PER_SESSION} symbols from one session, its first refs`, async function () {
    this.timeout(60_000);
    const first = uniqueId('sym_first');
    const beyond = uniqueId('sym_beyond');
    const ids = [first, ...Array.from({ length: SYMBOLS_PER_SESSION - 1 }, (_, i) => `${first}_${i}`), beyond];
    const name = uniqueId('Capped');
    await storedSessionWithRefs(name, ids);
    const ours = async (query: string) =>
      (await symbols(query)).filter((s) => s.containerName === name).map((s) => s.name);
    const lastKept = ids[SYMBOLS_PER_SESSION - 1]!;
    assert.ok((await ours(first)).includes(`ref:${first}`));
    assert.ok((await ours(lastKept)).includes(`ref:${lastKept}`), 'the last ref within the bound is listed');
    assert.deepEqual(await ours(beyond), [], 'the ref after the bound is not listed');
  });

  it(`looks in the ${SYMBOL_SESSIONS} most recent sessions and returns at most ${SYMBOL_RESULTS} symbols`, async function () {
    this.timeout(120_000);
    const oldest = uniqueId('sym_oldest');
    await sessionWith(refBlock(oldest, 'text', 'old'), uniqueId('Oldest'));
    const prefix = uniqueId('sym_many');
    for (let s = 0; s < SYMBOL_SESSIONS; s++) {
      const ids = Array.from({ length: 30 }, (_, r) => `${prefix}_${s}_${r}`);
      await storedSessionWithRefs(uniqueId(`Many ${s}`), ids);
    }
    assert.deepEqual(await symbols(oldest), [], 'the session before the 20 most recent is not searched');
    assert.equal((await symbols(prefix)).length, SYMBOL_RESULTS);
    // Each next keystroke filters the symbols the first query built (what one costs is in `npm run bench`).
    const narrowed = (await symbols(`${prefix}_7_29`)).map((s) => s.name);
    assert.ok(narrowed.includes(`ref:${prefix}_7_29`), narrowed.join(', '));
    assert.ok(narrowed.length < SYMBOL_RESULTS && narrowed.every((n) => n.startsWith(`ref:${prefix}_`)));
  });
});

describe('Browse as Files', () => {
  afterEach(closeAllEditors);

  /** Answers the next modal warnings with `answer`, keeping what they asked. */
  function answerWarnings(answer: string | undefined) {
    const asked: { message: string; options: vscode.MessageOptions; items: string[] }[] = [];
    const original = vscode.window.showWarningMessage;
    (vscode.window as { showWarningMessage: unknown }).showWarningMessage = (
      message: string,
      options: vscode.MessageOptions,
      ...items: string[]
    ) => {
      asked.push({ message, options, items });
      return Promise.resolve(answer);
    };
    return { asked, restore: () => ((vscode.window as { showWarningMessage: unknown }).showWarningMessage = original) };
  }

  it('in a folder window first warns, modally, that the window loads again and what is kept; Cancel changes nothing', async () => {
    await closeAllEditors();
    await vscode.window.showTextDocument(inWorkspace('notes.txt'));
    const folders = vscode.workspace.workspaceFolders?.map((f) => f.uri.toString());
    const prompt = answerWarnings(undefined);
    try {
      assert.equal(await vscode.commands.executeCommand('fdref.browseAsFiles'), 'cancelled');
    } finally {
      prompt.restore();
    }
    assert.equal(prompt.asked.length, 1);
    const [{ message, options, items }] = prompt.asked as [(typeof prompt.asked)[number]];
    assert.equal(message, 'Browse as Files loads this window again.');
    assert.equal(options.modal, true);
    assert.match(options.detail ?? '', /loads the window again/);
    assert.match(options.detail ?? '', /After the reload, FD Refs opens again: 1 editor open now\./);
    assert.deepEqual(items, ['Continue']);
    assert.deepEqual(
      vscode.workspace.workspaceFolders?.map((f) => f.uri.toString()),
      folders,
    );
  });

  it('refuses, before asking, while untitled editors hold more text than it carries across the reload', async () => {
    const untitled = await vscode.workspace.openTextDocument({ content: 'x'.repeat(1_000_001) });
    await vscode.window.showTextDocument(untitled);
    const prompt = answerWarnings('Continue');
    const mark = await messageMark();
    try {
      assert.equal(await vscode.commands.executeCommand('fdref.browseAsFiles'), undefined);
    } finally {
      prompt.restore();
    }
    assert.equal(prompt.asked.length, 0, 'no warning was shown');
    const errors = (await messagesSince(mark)).filter((m) => m.level === 'error');
    assert.match(errors[0]?.text ?? '', /Untitled editors hold 1,000,001 characters.*save them to files first/);
    assert.equal(vscode.workspace.workspaceFolders?.length, 1);
  });

  it('Stop Browsing as Files says so when the FD Refs folder is not in the workspace', async () => {
    const mark = await messageMark();
    assert.equal(await vscode.commands.executeCommand('fdref.stopBrowsingAsFiles'), undefined);
    const errors = (await messagesSince(mark)).filter((m) => m.level === 'error');
    assert.match(errors[0]?.text ?? '', /not in this workspace: there is nothing to stop/);
  });

  it('tells the Explorer of every session folder under fdref:/, so a root it could not list is read again', async () => {
    const api = await fdref();
    const entry = await sessionWith(refBlock(uniqueId('announced'), 'text', 'x'), uniqueId('Announced'));
    const events: vscode.FileChangeEvent[] = [];
    const listening = api.fileSystem.onDidChangeFile((batch) => events.push(...batch));
    try {
      await api.fileSystem.announceSessions();
      const folder = `(${entry.metadata.id})`;
      await eventually(
        () =>
          events.some((e) => e.type === vscode.FileChangeType.Created && e.uri.path.endsWith(folder))
            ? true
            : undefined,
        'the session folder announced as created',
      );
      assert.ok(events.some((e) => e.type === vscode.FileChangeType.Changed && e.uri.toString() === 'fdref:/'));
    } finally {
      listening.dispose();
    }
  });
});
