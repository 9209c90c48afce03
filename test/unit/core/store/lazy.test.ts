import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { Session } from '../../../../src/core';
import { Content } from '../../../../src/core/descriptors/content';
import { contentDigest } from '../../../../src/core/descriptors/contentDigest';
import type { SessionOptions } from '../../../../src/core/session/options';
import type { ChatRecord } from '../../../../src/core/session/transcript';
import { SessionSync, StoredContent, type Store } from '../../../../src/core/store';
import { seeded, tempStoreFolder } from '../../../support/store/tempStore';

const at = '2025-03-04T05:06:07.000Z';
const READS = ['text', 'slice', 'index', 'lineAt', 'lineStart', 'pageTable', 'page', 'tail', 'chunks'] as const;

/** Counts calls of every `StoredContent` method that reads a content file, while installed. */
function spyOnReads(): { readonly count: number; restore(): void } {
  const proto = StoredContent.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const saved = READS.map((name) => [name, proto[name]] as const);
  const spy = { count: 0, restore: () => saved.forEach(([name, original]) => (proto[name] = original as never)) };
  for (const [name, original] of saved)
    proto[name] = function (this: unknown, ...args: unknown[]) {
      spy.count++;
      return (original as (...a: unknown[]) => unknown).apply(this, args);
    };
  return spy;
}

/** Every file's size under `folder`, summed. */
function folderBytes(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** Saves `session` (and `chat`) as a new session of `store` and gives its id, its writer closed. */
async function saveNew(store: Store, session: Session, chat?: ChatRecord): Promise<string> {
  const writer = await store.create({ name: 'lazy', origin: { kind: 'chat' }, chat: chat !== undefined });
  await new SessionSync(writer).sync(session, chat);
  await writer.close();
  return writer.id;
}

describe('a chat session opened from the store reads its contents lazily', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  let spy: ReturnType<typeof spyOnReads> | undefined;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(async () => {
    spy?.restore();
    spy = undefined;
    await folder.dispose();
  });

  it('names a text as the store does: the digest of a new text equals the hash its content file gets', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'd', origin: { kind: 'chat' } });
    for (const text of ['', 'a', 'line\n'.repeat(1000), 'é😀 ü\r\n', `lone \ud800 high`, 'x'.repeat(300_000)]) {
      const { ref } = await writer.putContent(text);
      assert.deepEqual(contentDigest(text), { h: ref.h, enc: ref.enc }, JSON.stringify(text.slice(0, 20)));
      assert.deepEqual(new Content(text).digest, contentDigest(text));
    }
    assert.notEqual(contentDigest('a').h, contentDigest('b').h);
  });

  it('opens a session holding 20 MB without reading a content; read_fd, a ref dedupe and a save work afterwards', async () => {
    const options: SessionOptions = { now: () => new Date(at), maxDirectOutputChars: 1000 };
    const line = `${'0123456789abcdef'.repeat(4)}\n`;
    const big = line.repeat(Math.ceil((20 * 1024 * 1024) / line.length));
    const original = new Session(options);
    original.wrapToolOutput('shell', big);
    original.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 1;\n```\n</ref>');
    const chat: ChatRecord = { messages: [{ role: 'user', id: 'u1', text: 'hello', createdAt: at }] };
    const id = await saveNew(await folder.open(), original, chat);

    const store = await folder.open();
    spy = spyOnReads();
    const writer = await store.openWriter(id);
    const reader = await store.read(id);
    const { session, chat: readChat } = await reader!.materialize(options);
    assert.equal(spy.count, 0, 'no content read');
    assert.equal(store.cache.bytes, 0);
    assert.equal(store.cache.entries, 0);
    assert.deepEqual(readChat, chat);
    const fd1 = session.getDescriptor('fd:1')!;
    assert.ok(fd1.content instanceof StoredContent);
    assert.equal(fd1.content.length, big.length);
    assert.equal(fd1.content.totalLines, original.getDescriptor('fd:1')!.content.totalLines);

    // The same ref again is not a new version, decided without reading the stored one.
    session.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 1;\n```\n</ref>');
    assert.equal(session.refs()[0]?.versions, 1);
    session.ingestAssistantMessage('<ref id="a">\n```ts\nconst a = 2;\n```\n</ref>');
    assert.equal(session.refs()[0]?.versions, 2);
    assert.equal(spy.count, 0, 'no content read by a ref dedupe');

    const args = { fd: 'fd:1', start: 3 };
    assert.equal(await session.callTool('read_fd', args), await original.callTool('read_fd', args));
    const tail = { fd: 'fd:1', mode: 'tail', count: 3 };
    assert.equal(await session.callTool('read_fd', tail), await original.callTool('read_fd', tail));
    assert.ok(store.cache.bytes < big.length / 4, `a page keeps ${store.cache.bytes} bytes in memory, not the text`);

    const before = folderBytes(store.sessionFolder(id));
    const sync = new SessionSync(writer);
    assert.deepEqual(await sync.sync(session, readChat), { descriptors: [], refIds: ['a'], messages: 0 });
    const written = folderBytes(store.sessionFolder(id)) - before;
    assert.ok(written > 0 && written < 4096, `a save after opening wrote ${written} bytes`);
    await writer.close();

    const again = await (await (await folder.open()).read(id))!.materialize(options);
    assert.equal(await again.session.getDescriptor('ref:a@1')?.content.slice(0), 'const a = 1;');
    assert.equal(await again.session.getDescriptor('ref:a')?.content.slice(0), 'const a = 2;');
    assert.equal(again.session.getDescriptor('fd:1')?.content.length, big.length);
    assert.equal(await again.session.getDescriptor('fd:1')?.content.slice(big.length - 65), line);
  });

  it('adds content streamed into the store as a descriptor, and a save records it without writing it again', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'streamed', origin: { kind: 'terminal' } });
    const session = new Session();
    const sync = new SessionSync(writer);
    const sink = writer.createSink();
    const line = 'streamed output line\n';
    for (let i = 0; i < 20_000; i++) await sink.write(line);
    const content = writer.content((await sink.seal()).ref);
    const before = folderBytes(store.sessionFolder(writer.id));
    const added = session.addDescriptor('tool_output', content, { toolName: 'terminal' });
    assert.equal(added.id, 'fd:1');
    assert.deepEqual((await sync.sync(session)).descriptors, ['fd:1']);
    const written = folderBytes(store.sessionFolder(writer.id)) - before;
    assert.ok(written < 4096, `recording a streamed content wrote ${written} bytes, not the content again`);
    await writer.close();
    const reader = await (await folder.open()).read(writer.id);
    assert.equal(reader?.lookup('fd:1')?.content.length, line.length * 20_000);
    assert.equal(reader?.lookup('fd:1')?.toolName, 'terminal');
  });

  it('a fork of a lazily opened session shares its content files and reads nothing to save them', async () => {
    const original = new Session({ maxDirectOutputChars: 10 });
    original.wrapToolOutput('shell', 'parent output\n'.repeat(100));
    original.ingestAssistantMessage('<ref id="r">kept</ref>');
    const id = await saveNew(await folder.open(), original);
    const store = await folder.open();
    const { session } = await (await store.read(id))!.materialize();
    spy = spyOnReads();
    const fork = session.fork();
    fork.ingestAssistantMessage('<ref id="r">changed</ref>');
    const forkId = await saveNew(store, fork);
    assert.equal(spy.count, 0, 'the fork links the parent content files');
    spy.restore();
    spy = undefined;
    await store.delete(id);
    const back = await (await (await folder.open()).read(forkId))!.materialize();
    assert.equal(await back.session.getDescriptor('fd:1')?.content.slice(0), 'parent output\n'.repeat(100));
    assert.equal(await back.session.getDescriptor('ref:r@1')?.content.slice(0), 'kept');
    assert.equal(await back.session.getDescriptor('ref:r')?.content.slice(0), 'changed');
  });

  it('a session holding stored contents is serialised whole only by toJSONWhole, which reads them', async () => {
    const original = new Session({ maxDirectOutputChars: 10 });
    original.wrapToolOutput('shell', 'some output that is long');
    const id = await saveNew(await folder.open(), original);
    const { session } = await (await (await folder.open()).read(id))!.materialize();
    assert.throws(() => session.toJSON(), /toJSONWhole/);
    assert.deepEqual(await session.toJSONWhole(), original.toJSON());
  });

  it('answers every tool exactly as the session held in memory, over random sessions and calls', async function () {
    this.timeout(60_000);
    const random = seeded(12);
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const pieces = ['alpha', 'Beta', 'é', '😀', ' ', '\n', '\n', '\r\n', 'error', 'ERROR 42', '\ud800', ''];
    const text = (max: number): string => {
      let out = '';
      const n = Math.floor(random() * max);
      for (let i = 0; i < n; i++) out += pick(pieces);
      return out;
    };
    for (let trial = 0; trial < 12; trial++) {
      const options: SessionOptions = {
        now: () => new Date(at),
        pageSize: 20 + Math.floor(random() * 200),
        maxDirectOutputChars: Math.floor(random() * 50),
      };
      const memory = new Session(options);
      for (let i = Math.floor(random() * 5); i > 0; i--) memory.wrapToolOutput('shell', text(2000));
      for (let i = Math.floor(random() * 6); i > 0; i--)
        memory.ingestAssistantMessage(`<ref id="${pick(['a', 'b', 'c'])}">${text(300).replaceAll('<', '')}</ref>`);
      const id = await saveNew(await folder.open(), memory);
      const { session: lazy } = await (await (await folder.open()).read(id))!.materialize(options);
      const ids = [...memory.descriptors().map((d) => d.id)];
      for (const { descriptor, versions } of memory.refs()) {
        ids.push(descriptor.id);
        for (let v = 1; v < versions; v++) ids.push(`${descriptor.id}@${v}`);
      }
      ids.push('fd:99', 'ref:nope');
      const stored = lazy.descriptors().length;
      for (let call = 0; call < 40; call++) {
        const fd = pick(ids);
        const [name, args] = pick([
          ['read_fd', { fd }],
          ['read_fd', { fd, start: 1 + Math.floor(random() * 4), count: 1 + Math.floor(random() * 2) }],
          ['read_fd', { fd, mode: 'line', start: 1 + Math.floor(random() * 20), count: Math.floor(random() * 30) }],
          ['read_fd', { fd, mode: 'char', start: Math.floor(random() * 500), count: Math.floor(random() * 300) }],
          ['read_fd', { fd, mode: 'tail', count: Math.floor(random() * 10) }],
          ['read_fd', { fd, read_all: true }],
          ['read_fd', { fd, mode: 'line', start: 2, count: 5, extract_to_new_fd: true }],
          ['search_fd', { fd, pattern: pick(['error', 'é', 'a', '😀']), context: Math.floor(random() * 3) }],
          ['search_fd', { fd, pattern: 'err.r \\d+|Beta$', regex: true, case_sensitive: random() < 0.5 }],
          ['get_ref', { id: fd.replace(/^ref:/, '') }],
          ['list_refs', {}],
        ] as const);
        const expected = await memory.runTool(name, args);
        const actual = await lazy.runTool(name, args);
        assert.deepEqual(actual, expected, `trial ${trial}, ${name} ${JSON.stringify(args)}`);
      }
      assert.ok(
        lazy
          .descriptors()
          .slice(0, stored)
          .every((d) => d.content instanceof StoredContent),
      );
    }
  });
});
