import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../../../src/core/store';
import {
  agentSessionIds,
  type AgentSessionKey,
  findAgentSession,
  keepInAgentSession,
  localDay,
  OutputSpool,
} from '../../../../src/core/store/agentSession';
import { tempWorkspace } from '../../support/tempWorkspace';

const key = { agent: 'codex', productName: 'Codex', conversation: 'conv-9' };

/** Keeps `text` through a spool, as the wrapper does. */
async function keepText(store: Store, text: string, k: AgentSessionKey = key) {
  const spool = await OutputSpool.create(store);
  const sink = spool.sink(store);
  await sink.write(text);
  const { ref } = await sink.seal();
  const kept = await keepInAgentSession(store, k, spool.folder, ref, { source: 'user_input' });
  await spool.remove();
  return kept;
}

describe("an agent's session for its own shell output", () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace()));
  afterEach(() => ws.dispose());

  it('has an id derived from agent and conversation, found without listing the store', async () => {
    const store = await Store.open(ws.file('store'), { durability: 'process' });
    const first = await keepText(store, 'one');
    const second = await keepText(store, 'two');
    assert.equal(first.session.id, agentSessionIds(key, localDay(new Date()))[0]);
    assert.equal(second.session.id, first.session.id);
    assert.deepEqual([first.fd, second.fd], ['fd:1', 'fd:2']);
    assert.equal((await findAgentSession(store, key))?.id, first.session.id);
    assert.equal(await findAgentSession(store, { ...key, conversation: 'other' }), undefined);
    assert.notEqual(
      agentSessionIds({ ...key, agent: 'cline' }, '2026-01-01')[0],
      agentSessionIds(key, '2026-01-01')[0],
    );
  });

  it('takes a longer id when another session already has the short one', async () => {
    const store = await Store.open(ws.file('store'), { durability: 'process' });
    const [short = '', longer] = agentSessionIds(key, localDay(new Date()));
    const other = await store.create({ id: short, name: 'a chat', origin: { kind: 'lmTools' } });
    await other.close();
    const kept = await keepText(store, 'mine');
    assert.equal(kept.session.id, longer);
    assert.deepEqual(kept.session.origin, { kind: 'agentShell', agent: 'codex', conversation: 'conv-9' });
    assert.equal((await findAgentSession(store, key))?.id, longer);
  });

  it('keeps one session per agent and day without a conversation id', async () => {
    const store = await Store.open(ws.file('store'), { durability: 'process' });
    const dayKey = { agent: 'terminal', productName: 'Terminal' };
    const kept = await keepText(store, 'x', dayKey);
    assert.deepEqual(kept.session.origin, { kind: 'agentShell', agent: 'terminal', day: localDay(new Date()) });
    assert.equal(kept.session.name, `Terminal ${localDay(new Date())}`);
  });

  it("removes a dead process's spool when a new one starts, never a live one's", async () => {
    const store = await Store.open(ws.file('store'), { durability: 'process' });
    const spools = path.join(store.root, 'spool');
    const dead = path.join(spools, '.spool.2147483646-0123456789ab.tmp'); // no such pid
    mkdirSync(dead, { recursive: true });
    const live = await OutputSpool.create(store);
    const next = await OutputSpool.create(store);
    assert.equal(existsSync(dead), false);
    assert.deepEqual(readdirSync(spools).sort(), [path.basename(live.folder), path.basename(next.folder)].sort());
  });
});
