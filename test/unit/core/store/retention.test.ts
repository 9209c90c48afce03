import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  applyRetention,
  cleanTemporaryFiles,
  ContentCache,
  MissingContentError,
  storeUsage,
  StoredContent,
  type Store,
} from '../../../../src/core/store';
import { writeContent } from '../../../../src/core/store/contentSink';
import { tempStoreFolder } from '../../../support/store/tempStore';

const DAY = 86_400_000;
const now = new Date('2025-06-01T00:00:00.000Z');

/** A closed session holding `bytes` of content, last changed `daysAgo` days before `now`. */
async function sessionOf(store: Store, name: string, bytes: number, daysAgo: number): Promise<string> {
  const writer = await store.create({ name, origin: { kind: 'capture' } });
  await writer.addDescriptor(
    { source: 'tool_output', createdAt: now.toISOString() },
    await writer.putContent('z'.repeat(bytes)),
  );
  await writer.close();
  const when = new Date(now.getTime() - daysAgo * DAY);
  for (const file of ['meta.json', 'journal.log'])
    utimesSync(path.join(store.sessionFolder(writer.id), file), when, when);
  return writer.id;
}

describe('store retention', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('reports the size of each session and of the store, a content shared by a fork counted once in all', async () => {
    const store = await folder.open();
    const parent = await store.create({ name: 'p', origin: { kind: 'capture' } });
    const content = await parent.putContent('s'.repeat(100_000));
    await parent.addDescriptor({ source: 'tool_output', createdAt: now.toISOString() }, content);
    const fork = await store.create({ name: 'f', origin: { kind: 'capture' } });
    await fork.addDescriptor(
      { source: 'tool_output', createdAt: now.toISOString() },
      await fork.importContent(content),
    );
    const usage = await storeUsage(store);
    const [a, b] = usage.sessions;
    assert.ok(a && b && a.bytes > 100_000 && b.bytes > 100_000);
    assert.ok(usage.totalBytes < a.bytes + b.bytes - 90_000, `total ${usage.totalBytes}`);
    assert.deepEqual(
      usage.sessions.map((s) => s.open),
      [true, true],
    );
  });

  it('removes sessions past the age, then the ones unchanged longest while the store is too big; never a pinned, open or kept one', async () => {
    const store = await folder.open();
    const ancient = await sessionOf(store, 'ancient', 10, 400);
    const pinned = await sessionOf(store, 'pinned', 50_000, 300);
    await store.setPinned(pinned, true);
    utimesSync(
      path.join(store.sessionFolder(pinned), 'meta.json'),
      new Date(now.getTime() - 300 * DAY),
      new Date(now.getTime() - 300 * DAY),
    );
    const old = await sessionOf(store, 'old', 50_000, 20);
    const kept = await sessionOf(store, 'kept', 50_000, 15);
    const middle = await sessionOf(store, 'middle', 50_000, 10);
    const recent = await sessionOf(store, 'recent', 50_000, 1);
    const open = await store.create({ name: 'open', origin: { kind: 'capture' } });
    await open.addDescriptor(
      { source: 'tool_output', createdAt: now.toISOString() },
      await open.putContent('o'.repeat(50_000)),
    );
    const result = await applyRetention(store, { maxDays: 365, maxBytes: 210_000, keep: (id) => id === kept, now });
    assert.deepEqual(result.removed, [ancient, old, middle]);
    assert.ok(result.totalBytes <= 210_000 && result.totalBytes > 200_000, `${result.totalBytes}`);
    const left = (await store.list()).sessions.map((s) => s.name).sort();
    assert.deepEqual(left, ['kept', 'open', 'pinned', 'recent']);
    assert.equal((await storeUsage(store)).totalBytes, result.totalBytes);
    assert.ok((await store.list()).sessions.some((s) => s.id === recent));
  });

  it('cleans what crashes left: old temporary files, half-made sessions, deleted sessions not yet removed; not fresh ones', async () => {
    const store = await folder.open();
    const id = await sessionOf(store, 's', 10, 0);
    const content = path.join(store.sessionFolder(id), 'content');
    const old = new Date(now.getTime() - 2 * 3_600_000);
    const oldTemp = path.join(content, '.content.999999-aaaaaaaaaaaa.tmp');
    const freshTemp = path.join(content, '.content.999998-bbbbbbbbbbbb.tmp');
    const halfMade = path.join(store.sessionsFolder, '.abc.999999-cccccccccccc.tmp');
    writeFileSync(oldTemp, 'partial');
    writeFileSync(freshTemp, 'partial');
    mkdirSync(halfMade);
    mkdirSync(path.join(store.trashFolder, 'gone.123'));
    utimesSync(oldTemp, old, old);
    utimesSync(halfMade, old, old);
    const removed = await cleanTemporaryFiles(store, { now: new Date(now.getTime() + 60_000), olderThanMs: 3_600_000 });
    assert.deepEqual(removed.map((file) => path.basename(file)).sort(), [
      '.abc.999999-cccccccccccc.tmp',
      '.content.999999-aaaaaaaaaaaa.tmp',
      'gone.123',
    ]);
    assert.ok(readdirSync(content).includes(path.basename(freshTemp)));
  });
});

describe('store content memory budget', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('keeps what was read within its budget, forgetting the least recently used first', async () => {
    const cache = new ContentCache(3 * 200_000 * 2 + 1000);
    const contents: StoredContent[] = [];
    for (const letter of 'abcd')
      contents.push(
        new StoredContent((await writeContent(letter.repeat(200_000), folder.root, 'process')).ref, folder.root, cache),
      );
    const [a, b, c, d] = contents as [StoredContent, StoredContent, StoredContent, StoredContent];
    await a.text();
    await b.text();
    await c.text();
    await a.text(); // a is now the most recently used
    await d.text(); // so b goes
    assert.ok(cache.bytes <= cache.budgetBytes);
    assert.equal(cache.entries, 3);
    // With the files gone, what is held still reads and what was let go does not.
    for (const content of contents) rmSync(content.file);
    for (const content of [a, c, d]) assert.equal((await content.text()).length, 200_000);
    await assert.rejects(b.text(), MissingContentError);
  });

  it('reads a page of a large content without holding its text', async () => {
    const cache = new ContentCache(4 * 1024 * 1024);
    const text = 'a line of a large output\n'.repeat(400_000); // 10 MB
    const content = new StoredContent((await writeContent(text, folder.root, 'process')).ref, folder.root, cache);
    assert.equal(
      await content.page(1000, 4000),
      text.slice(...[(await content.pageTable(4000))[999], (await content.pageTable(4000))[1000]]),
    );
    assert.ok(cache.bytes < 3 * 1024 * 1024, `${cache.bytes} bytes held`);
    await content.text(); // 20 MB as a string: more than the whole budget, so not kept
    assert.ok(cache.bytes < 3 * 1024 * 1024, `${cache.bytes} bytes held`);
  });
});
