import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { refDescriptorId } from '../../../../src/core/ids';
import { cleanTemporaryFiles, type SessionReader, type Store } from '../../../../src/core/store';
import { startStoreWorker, type Ack } from '../../../support/store/workers';
import { seeded, tempStoreFolder } from '../../../support/store/tempStore';

/** kill -9 rounds; FDREF_STORE_KILLS=500 for a longer run. */
const KILLS = Number(process.env['FDREF_STORE_KILLS'] ?? 50);

function hashOf(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Checks that every acknowledged change is in the session, its content whole. */
async function assertHolds(reader: SessionReader, acks: readonly Ack[]): Promise<void> {
  const messages = new Set((await reader.messages()).map((m) => (m as { id: string }).id));
  for (const ack of acks) {
    if (ack.message !== undefined) {
      assert.ok(messages.has(ack.message), `message ${ack.message} is missing`);
      continue;
    }
    const id = ack.fd ?? refDescriptorId(ack.ref as string, ack.v);
    const descriptor = reader.lookup(id);
    assert.ok(descriptor, `${id} is missing`);
    assert.equal(descriptor.content.ref.h, ack.h, `${id} points at other content`);
    const text = await descriptor.content.text();
    assert.equal(text.length, ack.chars, `${id} has ${text.length} characters, not ${ack.chars}`);
    assert.equal(hashOf(text), ack.h, `${id} does not read back whole`);
  }
}

async function readSession(store: Store, id: string): Promise<SessionReader> {
  const reader = await store.read(id);
  assert.ok(reader, `session ${id} is missing`);
  assert.equal(reader.problem, undefined);
  return reader;
}

describe('store shared by several processes', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('4 processes each write a session of their own while this one reads them all: every acknowledged change is there', async () => {
    const workers = [1, 2, 3, 4].map((seed) => startStoreWorker({ mode: 'own', root: folder.root, changes: 25, seed }));
    const store = await folder.open();
    const readers = new Map<string, SessionReader>();
    let reads = 0;
    let done = false;
    const finished = Promise.all(workers.map((w) => w.exited)).finally(() => (done = true));
    while (!done) {
      for (const meta of (await store.list()).sessions) {
        const reader = readers.get(meta.id) ?? (await readSession(store, meta.id));
        readers.set(meta.id, reader);
        const versionsBefore = reader.refs().reduce((sum, r) => sum + r.versions, 0);
        await reader.refresh();
        assert.equal(reader.problem, undefined);
        assert.ok(reader.refs().reduce((sum, r) => sum + r.versions, 0) >= versionsBefore);
        reads++;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (const { code, stderr } of await finished) assert.equal(code, 0, stderr);
    const sessions = new Set(workers.flatMap((w) => w.acks.map((a) => a.session)));
    assert.equal(sessions.size, 4);
    for (const worker of workers) {
      assert.equal(worker.acks.length, 25);
      await assertHolds(await readSession(await folder.open(), worker.acks[0]?.session as string), worker.acks);
    }
    assert.ok(reads > 0);
  });

  it('3 processes take turns at one session through its lease: nothing is lost, ref versions stay in order', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'shared', origin: { kind: 'capture' } });
    await writer.close();
    const workers = [1, 2, 3].map((seed) =>
      startStoreWorker({ mode: 'contend', root: folder.root, id: writer.id, changes: 4, rounds: 3, seed }),
    );
    for (const { code, stderr } of await Promise.all(workers.map((w) => w.exited))) assert.equal(code, 0, stderr);
    const acks = workers.flatMap((w) => w.acks);
    assert.equal(acks.length, 36);
    await assertHolds(await readSession(await folder.open(), writer.id), acks);
  });

  it(`is whole after a writer is killed (kill -9) at random points, ${KILLS} times: every acknowledged change, no half-written content`, async () => {
    const id = 'crash';
    const random = seeded(KILLS);
    const acks: Ack[] = [];
    let killedMidWrite = 0;
    // The next worker loads while the current one runs; it starts writing once told to.
    let next = startStoreWorker({ mode: 'crash', root: folder.root, id, seed: 1 });
    for (let round = 0; round < KILLS; round++) {
      const worker = next;
      worker.go();
      await worker.ready;
      next = startStoreWorker({ mode: 'crash', root: folder.root, id, seed: round + 2 });
      await new Promise((resolve) => setTimeout(resolve, random() * 40));
      worker.child.kill('SIGKILL');
      const { stderr } = await worker.exited;
      assert.equal(stderr, '');
      acks.push(...worker.acks);
      const store = await folder.open();
      if (worker.acks.length === 0 && (await store.read(id)) === undefined) continue; // killed before the session was made
      const reader = await readSession(store, id);
      // Every change of this round, and a sample of the earlier ones.
      await assertHolds(reader, [...worker.acks, ...acks.filter(() => random() < 0.05)]);
      const tempFiles = readdirSync(reader.folder, { recursive: true }).filter((name) => String(name).endsWith('.tmp'));
      if (tempFiles.length > 0) killedMidWrite++;
    }
    next.child.kill('SIGKILL');
    await next.exited;
    console.log(
      `      ${KILLS} kills, ${acks.length} acknowledged changes, ${killedMidWrite} kills left a temporary file`,
    );
    // The next owner cuts any torn tail, drops unreferenced content and temporary files; every change is still there.
    const store = await folder.open();
    const writer = await store.openWriter(id);
    await writer.close();
    await cleanTemporaryFiles(store, { olderThanMs: 0 });
    const reader = await readSession(store, id);
    await assertHolds(reader, acks);
    assert.deepEqual(
      readdirSync(reader.folder, { recursive: true }).filter((name) => String(name).endsWith('.tmp')),
      [],
    );
  });
});
