import assert from 'node:assert/strict';
import { RecentSessionSymbols, SYMBOL_SESSIONS } from '../../../src/core/files/symbolQuery';
import { tempStoreFolder } from '../../support/store/tempStore';

const at = '2025-03-04T05:06:07.000Z';

describe('Ctrl+T symbols: the recent sessions and what is kept of them', () => {
  it('drops the symbols of a session that left the recent ones when the list is made again', async () => {
    let all = Array.from({ length: SYMBOL_SESSIONS }, (_, i) => ({ id: `s${i}` }));
    const reads: string[] = [];
    const cache = new RecentSessionSymbols(
      () => Promise.resolve(all),
      (session: { id: string }) => {
        reads.push(session.id);
        return Promise.resolve([session.id]);
      },
    );
    for (const session of await cache.sessions()) await cache.symbolsOf(session);
    assert.equal(cache.cachedSessions, SYMBOL_SESSIONS);
    // Many new sessions: each listing pushes the older ones out, and their symbols go with them.
    for (let round = 0; round < 5; round++) {
      all = [...Array.from({ length: 7 }, (_, i) => ({ id: `n${round}-${i}` })), ...all];
      cache.listChanged();
      const sessions = await cache.sessions();
      assert.equal(sessions.length, SYMBOL_SESSIONS);
      for (const session of sessions) assert.deepEqual(await cache.symbolsOf(session), [session.id]);
      assert.equal(cache.cachedSessions, SYMBOL_SESSIONS, `round ${round}`);
    }
    // A session still in the list is not read again.
    const before = reads.length;
    for (const session of await cache.sessions()) await cache.symbolsOf(session);
    assert.equal(reads.length, before);
  });

  it('reads a session again after a failed read or a change, and lists again after a failed listing', async () => {
    let fail = true;
    const cache = new RecentSessionSymbols(
      () => (fail ? Promise.reject(new Error('store gone')) : Promise.resolve([{ id: 'a' }])),
      () => Promise.resolve(fail ? undefined : ['x']),
    );
    await assert.rejects(cache.sessions(), /store gone/);
    fail = false;
    const [session] = await cache.sessions();
    assert.ok(session);
    fail = true;
    assert.deepEqual(await cache.symbolsOf(session), []);
    fail = false;
    assert.deepEqual(await cache.symbolsOf(session), ['x']);
    cache.changed('a');
    assert.equal(cache.cachedSessions, 0);
  });

  it('a session reader hands out only the first refs and descriptors asked for', async () => {
    const folder = tempStoreFolder();
    try {
      const store = await folder.open();
      const writer = await store.create({ name: 'Many', origin: { kind: 'chat' }, chat: true, createdAt: at });
      for (let i = 0; i < 5; i++) {
        await writer.addRefVersion({ id: `r${i}`, createdAt: at }, await writer.putContent(`ref ${i}`));
        await writer.addDescriptor(
          { source: 'tool_output', toolName: 'run', createdAt: at },
          await writer.putContent(`${i}`),
        );
      }
      const reader = await store.read(writer.id);
      assert.ok(reader);
      assert.deepEqual(
        reader.refs(3).map((r) => r.descriptor.id),
        ['ref:r0', 'ref:r1', 'ref:r2'],
      );
      assert.deepEqual(
        reader.descriptors(2).map((d) => d.id),
        ['fd:1', 'fd:2'],
      );
      assert.equal(reader.refs().length, 5);
      assert.equal(reader.descriptors(0).length, 0);
    } finally {
      await folder.dispose();
    }
  });
});
