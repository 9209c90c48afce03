import assert from 'node:assert/strict';
import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { Session } from '../../../../src/core';
import type { AssistantMessageRecord, ChatRecord } from '../../../../src/core/session/transcript';
import { sessionRecordToJSON, sessionRecordToJSONWhole } from '../../../../src/core/session/sessionRecord';
import {
  MissingContentError,
  SessionBusyError,
  SessionSync,
  watchStore,
  type StoreChange,
} from '../../../../src/core/store';
import { tempStoreFolder } from '../../../support/store/tempStore';

const at = '2025-03-04T05:06:07.000Z';

/** Every file's size under `folder`, by path. */
function sizes(folder: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true })) {
    if (entry.isFile())
      out.set(path.join(entry.parentPath, entry.name), statSync(path.join(entry.parentPath, entry.name)).size);
  }
  return out;
}

describe('store sessions', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('reads in another store what a writer recorded: descriptors, ref versions, counter, messages', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'Chat', origin: { kind: 'chat' }, chat: true, createdAt: at });
    const big = await writer.putContent('line\n'.repeat(100_000));
    assert.equal(await writer.addDescriptor({ source: 'tool_output', toolName: 'run', createdAt: at }, big), 'fd:1');
    await writer.addRefVersion({ id: 'a', createdAt: at, language: 'ts' }, await writer.putContent('one'));
    await writer.addRefVersion({ id: 'a', createdAt: at }, await writer.putContent('two'));
    await writer.setNextFd(5);
    await writer.putMessage({ id: 'm1', role: 'user', text: 'hi', createdAt: at });
    await writer.putMessage({ id: 'm2', role: 'user', text: 'again', createdAt: at });
    await writer.truncateMessages('m2');
    await writer.setModel('model-x');

    const other = await folder.open();
    const reader = await other.read(writer.id);
    assert.ok(reader);
    assert.deepEqual(
      reader.descriptors().map((d) => [d.id, d.source, d.toolName, d.content.length, d.content.totalLines]),
      [['fd:1', 'tool_output', 'run', 500_000, 100_000]],
    );
    assert.equal(await reader.lookup('fd:1')?.content.page(2, 4000), 'line\n'.repeat(800));
    assert.equal(await reader.lookup('ref:a')?.content.text(), 'two');
    assert.equal(reader.lookup('ref:a@1')?.language, 'ts');
    assert.equal(await reader.lookup('ref:a@1')?.content.text(), 'one');
    assert.equal(reader.lookup('ref:a@3'), undefined);
    assert.equal(reader.nextFd, 5);
    assert.deepEqual(await reader.messages(), [{ id: 'm1', role: 'user', text: 'hi', createdAt: at }]);
    assert.equal(reader.current.model, 'model-x');
  });

  it('lists sessions from their metadata alone, most recent first', async () => {
    const store = await folder.open();
    const older = await store.create({
      name: 'Older',
      origin: { kind: 'capture', day: '2025-01-01' },
      createdAt: '2025-01-01T00:00:00.000Z',
    });
    const newer = await store.create({
      name: 'Newer',
      origin: { kind: 'chat', forkedFrom: older.id },
      createdAt: '2025-02-01T00:00:00.000Z',
      chat: true,
    });
    await newer.addDescriptor({ source: 'user_input', createdAt: at }, await newer.putContent('x'));
    // A journal that cannot even be read does not matter to a listing.
    writeFileSync(path.join(store.sessionFolder(newer.id), 'journal.log'), 'garbage');
    writeFileSync(path.join(store.sessionFolder(older.id), 'journal.log'), 'garbage');
    const { sessions, unreadable } = await (await folder.open()).list();
    assert.deepEqual(unreadable, []);
    assert.deepEqual(
      sessions.map((s) => [s.name, s.origin, s.pinned, s.chat]),
      [
        ['Newer', { kind: 'chat', forkedFrom: older.id }, false, true],
        ['Older', { kind: 'capture', day: '2025-01-01' }, false, false],
      ],
    );
  });

  it("shows another writer's appends on refresh, saying which refs changed", async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const reader = await (await folder.open()).read(writer.id);
    assert.ok(reader);
    assert.deepEqual(reader.refs(), []);
    await writer.addRefVersion({ id: 'b', createdAt: at }, await writer.putContent('b1'));
    await writer.addDescriptor(
      { source: 'extract', extractedFrom: 'ref:b', createdAt: at },
      await writer.putContent('b'),
    );
    const change = await reader.refresh();
    assert.deepEqual([...change.refIds], ['b']);
    assert.equal(change.descriptors, true);
    assert.equal(change.meta, false);
    await store.rename(writer.id, 'renamed');
    assert.equal((await reader.refresh()).meta, true);
    assert.equal(reader.meta.name, 'renamed');
  });

  it('applies appended records once when refreshes overlap, whoever starts them', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const reader = await (await folder.open()).read(writer.id);
    assert.ok(reader);
    for (let i = 0; i < 20; i++)
      await writer.addRefVersion({ id: 'r', createdAt: at }, await writer.putContent(`v${i}`));
    const changes = await Promise.all([reader.refresh(), reader.refresh(), reader.refresh()]);
    assert.equal(reader.refs()[0]?.versions, 20);
    assert.deepEqual(
      changes.map((c) => [...c.refIds]),
      [['r'], [], []],
    );
  });

  it('lets one process at a time write a session: a second writer is told who holds it, a dead holder is taken over', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const other = await folder.open();
    await assert.rejects(
      other.openWriter(writer.id),
      (error: unknown) => error instanceof SessionBusyError && error.holder?.pid === process.pid,
    );
    await writer.close();
    const second = await other.openWriter(writer.id);
    await second.addRefVersion({ id: 'c', createdAt: at }, await second.putContent('c'));
    await second.close();
    // A lease left by a process that is gone.
    writeFileSync(
      path.join(store.sessionFolder(writer.id), 'lease.json'),
      JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), started: '1', token: 't', since: at }),
    );
    const third = await (await folder.open()).openWriter(writer.id);
    assert.equal(third.state.refVersionCount('c'), 1);
  });

  it('lets anyone rename or pin a session while its owner writes; renames and a pin at once lose none of them', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'first', origin: { kind: 'capture' } });
    const others = await Promise.all([1, 2, 3].map(() => folder.open()));
    await Promise.all([
      ...others.map((other, i) => other.rename(writer.id, `name ${i}`)),
      others[0]?.setPinned(writer.id, true),
      writer.addRefVersion({ id: 'r', createdAt: at }, await writer.putContent('r')),
    ]);
    const meta = (await store.list()).sessions[0];
    assert.match(meta?.name ?? '', /^name [0-2]$/);
    assert.equal(meta?.pinned, true);
  });

  it('removes a deleted session from the listing at once; its contents are gone for readers', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    await writer.addRefVersion({ id: 'd', createdAt: at }, await writer.putContent('d'.repeat(10)));
    const reader = await (await folder.open()).read(writer.id);
    assert.equal(await store.delete(writer.id), true);
    assert.deepEqual((await store.list()).sessions, []);
    await assert.rejects(reader?.lookup('ref:d')?.content.text() ?? Promise.resolve(), MissingContentError);
    assert.equal(await store.delete(writer.id), false);
    assert.deepEqual(readdirSync(store.trashFolder), []);
  });

  it("shares a forked content with its parent without copying it; each survives the other's deletion", async () => {
    const store = await folder.open();
    const parent = await store.create({ name: 'p', origin: { kind: 'capture' } });
    const content = await parent.putContent('shared\n'.repeat(50_000));
    await parent.addDescriptor({ source: 'tool_output', createdAt: at }, content);
    const fork = await store.create({ name: 'f', origin: { kind: 'chat', forkedFrom: parent.id } });
    await fork.addDescriptor({ source: 'tool_output', createdAt: at }, await fork.importContent(content));
    assert.equal(statSync(path.join(fork.contentFolder, path.basename(content.file))).nlink, 2);
    await store.delete(parent.id);
    assert.equal(await (await store.read(fork.id))?.lookup('fd:1')?.content.page(1, 100), 'shared\n'.repeat(14));
  });

  it('saves an in-memory session by difference: a 1 KB ref added to a session holding 20 MB writes about 1 KB', async () => {
    const store = await folder.open({ durability: 'fsync' });
    const session = new Session();
    session.wrapToolOutput('run', 'output line\n'.repeat((20 * 1024 * 1024) / 12));
    session.ingestAssistantMessage('<ref id="early">one</ref>');
    const chat: ChatRecord = { messages: [{ role: 'user', id: 'u1', text: 'hello', createdAt: at }] };
    const writer = await store.create({ name: 's', origin: { kind: 'chat' }, chat: true });
    const sync = new SessionSync(writer);
    await sync.sync(session, chat);
    const before = sizes(store.sessionFolder(writer.id));
    session.ingestAssistantMessage(`<ref id="small">${'k'.repeat(1024)}</ref>`);
    const result = await sync.sync(session, chat);
    assert.deepEqual(result, { descriptors: [], refIds: ['small'], messages: 0 });
    const after = sizes(store.sessionFolder(writer.id));
    let written = 0;
    for (const [file, size] of after) written += size - (before.get(file) ?? 0);
    assert.ok(written > 1024 && written < 2048, `wrote ${written} bytes`);
    const back = await (await (await folder.open()).read(writer.id))?.materialize();
    assert.deepEqual(
      await sessionRecordToJSONWhole(back!.metadata, back!.session, back!.chat),
      sessionRecordToJSON(back!.metadata, session, chat),
    );
  });

  it('records an answer that streams and saves after each of its 400 refs in a few times its size, and whole at the end', async () => {
    const store = await folder.open();
    const session = new Session();
    const round = { text: '', refVersions: [] as number[], toolCalls: [] };
    const answer: AssistantMessageRecord = {
      role: 'assistant',
      id: 'a1',
      createdAt: at,
      status: 'streaming',
      rounds: [round],
    };
    const chat: ChatRecord = { messages: [{ role: 'user', id: 'u1', text: 'hello', createdAt: at }, answer] };
    const writer = await store.create({ name: 's', origin: { kind: 'chat' }, chat: true });
    const sync = new SessionSync(writer);
    // The journal, and the content files that hold messages over 64 KiB.
    const bytes = (): number => [...sizes(store.sessionFolder(writer.id)).values()].reduce((a, b) => a + b, 0);
    const start = bytes();
    for (let i = 0; i < 400; i++) {
      // The chat saves each time a ref closes: the answer so far is about 1 KB longer each time.
      round.text += `<ref id="r${i}">${'v'.repeat(1000)}</ref>\n`;
      await sync.sync(session, chat);
    }
    const finalSize = JSON.stringify(answer).length;
    answer.status = 'complete';
    await sync.sync(session, chat);
    const written = bytes() - start;
    assert.ok(written < 4 * finalSize, `the session grew by ${written} bytes for an answer of ${finalSize}`);
    const back = await (await (await folder.open()).read(writer.id))?.materialize();
    assert.deepEqual(back?.chat?.messages.at(-1), answer, 'the finished answer is recorded whole');
  });

  for (const [label, size] of [
    ['a short answer', 100],
    ['an answer stored in a content file', 100_000],
  ] as const) {
    it(`records ${label} that ends while its streaming record is being written as ended, with its whole text`, async () => {
      // The conversation changes the answer in place; the chat saves when the answer ends (a long paste's write
      // before it slowed the save queue, so the answer ended while its streaming record was being appended).
      const store = await folder.open();
      const session = new Session();
      const round = { text: 'v'.repeat(size) + ' You ca', refVersions: [] as number[], toolCalls: [] };
      const answer: AssistantMessageRecord = {
        role: 'assistant',
        id: 'a1',
        createdAt: at,
        status: 'streaming',
        rounds: [round],
      };
      const chat: ChatRecord = { messages: [{ role: 'user', id: 'u1', text: 'hello', createdAt: at }, answer] };
      const writer = await store.create({ name: 's', origin: { kind: 'chat' }, chat: true });
      const sync = new SessionSync(writer);
      const put = writer.putMessage.bind(writer);
      let atEnd: Promise<unknown> | undefined;
      writer.putMessage = async (message, textFd) => {
        await put(message, textFd);
        if (message === answer && answer.status === 'streaming') {
          // The record is written, the save has not yet heard so: the answer ends now.
          round.text += 'n read it now.';
          answer.status = 'complete';
          atEnd = sync.sync(session, chat); // the save the answer's end asks for
        }
      };
      await sync.sync(session, chat);
      assert.ok(atEnd, 'the answer ended while its streaming record was written');
      await atEnd;
      await writer.close();
      const back = await (await (await folder.open()).read(writer.id))?.materialize();
      const last = back?.chat?.messages.at(-1) as AssistantMessageRecord | undefined;
      assert.equal(last?.status, 'complete');
      assert.ok(last?.rounds[0]?.text.endsWith('You can read it now.'), 'the whole text is recorded');
    });
  }

  it('reports sessions added, renamed, grown and removed by others', async () => {
    const store = await folder.open();
    const changes: StoreChange[] = [];
    const watcher = watchStore(store, (change) => changes.push(change), { pollMs: 60_000 });
    try {
      await watcher.check();
      const other = await folder.open();
      const writer = await other.create({ name: 's', origin: { kind: 'capture' } });
      await watcher.check();
      await writer.addRefVersion({ id: 'w', createdAt: at }, await writer.putContent('w'));
      await other.rename(writer.id, 't');
      await watcher.check();
      await other.delete(writer.id);
      await watcher.check();
      // fs.watch may have looked between the append and the rename: those two come in either order.
      assert.deepEqual(changes[0], { kind: 'added', sessionId: writer.id });
      assert.deepEqual(
        changes
          .slice(1, 3)
          .map((c) => c.kind)
          .sort(),
        ['journal', 'meta'],
      );
      assert.deepEqual(changes.slice(3), [{ kind: 'removed', sessionId: writer.id }]);
    } finally {
      watcher.dispose();
    }
  });
});
