import assert from 'node:assert/strict';
import {
  applyRetention,
  clearQuestion,
  clearSessions,
  describeClear,
  groupUsage,
  storeUsage,
  type Store,
  type StoredSessionMeta,
} from '../../../../src/core/store';
import { keepInAgentSession, OutputSpool } from '../../../../src/core/store/agentSession';
import { startStoreWorker, type RunningWorker } from '../../../support/store/workers';
import { tempStoreFolder } from '../../../support/store/tempStore';

type Origin = StoredSessionMeta['origin'];

/** A closed session of `origin` holding `bytes` of content. */
async function sessionOf(store: Store, name: string, origin: Origin, bytes: number): Promise<string> {
  const writer = await store.create({ name, origin });
  await writer.addDescriptor(
    { source: 'tool_output', createdAt: new Date().toISOString() },
    await writer.putContent('z'.repeat(bytes)),
  );
  await writer.close();
  return writer.id;
}

const claude: Origin = { kind: 'agentShell', agent: 'claude-code', conversation: 'c1' };
const codex: Origin = { kind: 'agentShell', agent: 'codex', day: '2026-01-02' };

/** Another process writing session `id` (holding its lease) until killed. */
async function otherWriter(root: string, id: string): Promise<RunningWorker> {
  const worker = startStoreWorker({ mode: 'crash', root, id, seed: 7 });
  worker.go();
  await worker.ready;
  return worker;
}

async function stop(worker: RunningWorker): Promise<void> {
  worker.child.kill('SIGKILL');
  await worker.exited;
}

describe('store usage by source', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('groups sessions by origin (chat, terminal, MCP server, each agent by name), largest first, with sizes and counts', async () => {
    const store = await folder.open();
    await sessionOf(store, 'chat', { kind: 'chat' }, 30_000);
    await sessionOf(store, 'term', { kind: 'terminal', day: '2026-01-02' }, 10_000);
    await sessionOf(store, 'wrapped term', { kind: 'agentShell', agent: 'terminal', day: '2026-01-02' }, 10_000);
    await sessionOf(store, 'claude 1', claude, 50_000);
    await sessionOf(store, 'claude 2', { ...claude, conversation: 'c2' }, 40_000);
    await sessionOf(store, 'codex', codex, 8_000);
    await sessionOf(store, 'mcp a', { kind: 'mcp', client: 'claude-code' }, 2_000);
    await sessionOf(store, 'mcp b', { kind: 'mcp', client: 'zed' }, 2_000);
    await sessionOf(store, 'mine', { kind: 'agentShell', agent: 'my-agent' }, 1_000);
    const groups = groupUsage((await storeUsage(store)).sessions);
    assert.deepEqual(
      groups.map((g) => [g.key, g.label, g.sessions.map((s) => s.name).sort()]),
      [
        ['agent:claude-code', 'Claude Code', ['claude 1', 'claude 2']],
        ['chat', 'Chat', ['chat']],
        ['terminal', 'Terminal', ['term', 'wrapped term']],
        ['agent:codex', 'Codex', ['codex']],
        ['mcp', 'MCP server', ['mcp a', 'mcp b']],
        ['agent:my-agent', 'my-agent', ['mine']],
      ],
    );
    assert.deepEqual(
      groups[0]?.sessions.map((s) => s.name),
      ['claude 1', 'claude 2'],
      'largest first',
    );
    for (const group of groups) {
      assert.equal(
        group.bytes,
        group.sessions.reduce((sum, s) => sum + s.bytes, 0),
      );
    }
    assert.ok(groups[0] !== undefined && groups[0].bytes > 90_000, 'the two Claude Code sessions add up');
  });

  it("clears one agent's sessions: never a pinned one, one open here or one another process writes; says what it kept and why", async () => {
    const store = await folder.open();
    const plain = await sessionOf(store, 'claude plain', claude, 20_000);
    const other = await sessionOf(store, 'claude other', { ...claude, conversation: 'c2' }, 20_000);
    const pinned = await sessionOf(store, 'claude pinned', { ...claude, conversation: 'c3' }, 20_000);
    await store.setPinned(pinned, true);
    const here = await sessionOf(store, 'claude here', { ...claude, conversation: 'c4' }, 20_000);
    const busy = await sessionOf(store, 'claude busy', { ...claude, conversation: 'c5' }, 20_000);
    const codexId = await sessionOf(store, 'codex', codex, 20_000);
    const worker = await otherWriter(folder.root, busy);
    try {
      const group = groupUsage((await storeUsage(store)).sessions).find((g) => g.key === 'agent:claude-code');
      assert.ok(group);
      const asked = clearQuestion(group, (s) => s.open || s.id === here);
      assert.match(asked.question, /^Remove 2 Claude Code sessions \(\d+(\.\d+)? KB\)\?$/);
      assert.match(asked.detail, /^3 sessions pinned or open stay\. /);
      assert.equal(asked.removable, 2);
      const result = await clearSessions(store, group.sessions, (id) => id === here);
      assert.deepEqual(result.removed.map((s) => s.id).sort(), [plain, other].sort());
      assert.deepEqual(
        result.kept.map((k) => [k.session.id, k.reason]).sort(),
        [
          [busy, 'open elsewhere'],
          [here, 'open here'],
          [pinned, 'pinned'],
        ].sort(),
      );
      assert.match(
        describeClear(group, result),
        /^Removed 2 Claude Code sessions \([\d.]+ KB\)\. Kept 3: 1 pinned, 1 open in this window, 1 being written by another window or agent\.$/,
      );
      const left = (await store.list()).sessions.map((s) => s.id).sort();
      assert.deepEqual(left, [busy, codexId, here, pinned].sort(), 'the other groups are untouched');
    } finally {
      await stop(worker);
    }
    // What the other process wrote while the group was cleared is all there.
    const acks = worker.acks.filter((a) => a.fd !== undefined);
    const reader = await store.read(busy);
    assert.ok(reader);
    for (const ack of acks) assert.ok(reader.lookup(ack.fd as string), `${ack.fd} is there`);
  });

  it('keeps a session a writer took or a person pinned after the usage was measured (the listing is stale by then)', async () => {
    const store = await folder.open();
    const taken = await sessionOf(store, 'taken', claude, 10_000);
    const pinnedLate = await sessionOf(store, 'pinned late', { ...claude, conversation: 'c2' }, 10_000);
    const free = await sessionOf(store, 'free', { ...claude, conversation: 'c3' }, 10_000);
    const measured = (await storeUsage(store)).sessions;
    assert.ok(measured.every((s) => !s.open && !s.pinned));
    const worker = await otherWriter(folder.root, taken);
    try {
      await store.setPinned(pinnedLate, true);
      const result = await clearSessions(store, measured);
      assert.deepEqual(
        result.removed.map((s) => s.id),
        [free],
      );
      assert.deepEqual(
        result.kept.map((k) => [k.session.id, k.reason]).sort(),
        [
          [pinnedLate, 'pinned'],
          [taken, 'open elsewhere'],
        ].sort(),
      );
      // Retention goes the same way: over a size limit of 0 everything would go, but not these.
      const retention = await applyRetention(store, { maxBytes: 0 });
      assert.deepEqual(retention.removed, []);
      assert.equal(await store.deleteIfIdle(taken), 'busy');
      assert.equal(await store.deleteIfIdle(free), 'missing');
    } finally {
      await stop(worker);
    }
    assert.equal(await store.deleteIfIdle(taken), 'removed', 'free once its writer is gone');
    assert.deepEqual(
      (await store.list()).sessions.map((s) => s.id),
      [pinnedLate],
    );
    // A person who picked a pinned session knowing it (Show Store Usage's list) removes it.
    assert.equal(await store.deleteIfIdle(pinnedLate), 'pinned');
    assert.equal(await store.deleteIfIdle(pinnedLate, { evenIfPinned: true }), 'removed');
    assert.deepEqual((await store.list()).sessions, []);
  });

  it('removes agent and terminal sessions past the retention limits like chat sessions, whoever wrote them', async () => {
    const store = await folder.open();
    await sessionOf(store, 'chat', { kind: 'chat' }, 10_000);
    await sessionOf(store, 'terminal', { kind: 'terminal', day: '2026-01-02' }, 10_000);
    await sessionOf(store, 'claude', claude, 10_000);
    await sessionOf(store, 'mcp', { kind: 'mcp', client: 'zed' }, 10_000);
    // Written by another process (a wrapper), which has ended.
    const worker = await otherWriter(folder.root, 'abcdef12');
    await stop(worker);
    const result = await applyRetention(store, { maxBytes: 0 });
    assert.equal(result.removed.length, 5);
    assert.deepEqual((await store.list()).sessions, []);
  });

  it("makes an agent's session anew when it was removed between finding it and opening it", async () => {
    const store = await folder.open();
    const key = { agent: 'codex', productName: 'Codex', conversation: 'conv-1' };
    const keep = async (text: string) => {
      const spool = await OutputSpool.create(store);
      const sink = spool.sink(store);
      await sink.write(text);
      const { ref } = await sink.seal();
      try {
        return await keepInAgentSession(store, key, spool.folder, ref, { source: 'user_input' });
      } finally {
        await spool.remove();
      }
    };
    const first = await keep('one');
    const open = store.openWriter.bind(store);
    let removedMeanwhile = false;
    store.openWriter = async (id: string) => {
      if (!removedMeanwhile) {
        removedMeanwhile = true;
        assert.equal(await store.deleteIfIdle(id), 'removed');
      }
      return open(id);
    };
    const second = await keep('two');
    assert.ok(removedMeanwhile);
    assert.equal(second.session.id, first.session.id);
    assert.equal(second.fd, 'fd:1', 'a new session');
  });
});
