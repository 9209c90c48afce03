import assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { Session } from '../../src/core';
import { sessionRecordToJSON } from '../../src/core/session/sessionRecord';
import { Store } from '../../src/core/store';
import type { RetentionLimits } from '../../src/sessions/sessionRegistry';
import { SessionRegistry } from '../../src/sessions/sessionRegistry';
import { SessionStore } from '../../src/sessions/sessionStore';
import { startOtherProcess } from './support/otherProcess';
import { eventually, fdref, messageMark, messagesSince, refBlock, sessionWith, uniqueId } from './support/fdref';

const DAY_MS = 86_400_000;

/** A registry of its own over a new store folder (and legacy folder), removed after the test. */
async function ownRegistry(
  limits: RetentionLimits = {},
  schedule: { intervalMs?: number } = {},
): Promise<{
  registry: SessionRegistry;
  root: string;
  legacy: string;
  limits: { current: RetentionLimits };
  dispose(): Promise<void>;
}> {
  const folder = await fs.mkdtemp(path.join(tmpdir(), 'fdref-store-it-'));
  const root = path.join(folder, 'store');
  const legacy = path.join(folder, 'sessions');
  await fs.mkdir(legacy, { recursive: true });
  const current = { current: limits };
  const api = await fdref();
  const registry = new SessionRegistry(
    new SessionStore(root, legacy, { durability: 'process' }),
    api.messages,
    () => current.current,
    schedule,
  );
  return {
    registry,
    root,
    legacy,
    limits: current,
    dispose: async () => {
      await registry.close();
      registry.dispose();
      await fs.rm(folder, { recursive: true, force: true });
    },
  };
}

/** Makes a session look unchanged for `days` days (retention reads its files' modification times). */
async function age(root: string, id: string, days: number): Promise<void> {
  const when = new Date(Date.now() - days * DAY_MS);
  for (const file of ['journal.log', 'meta.json']) await fs.utimes(path.join(root, 'sessions', id, file), when, when);
}

describe('session store', () => {
  it('converts an old session file on first load: the session shows up and the old file is gone', async () => {
    const own = await ownRegistry();
    try {
      const session = new Session();
      session.ingestAssistantMessage(refBlock('migrated', 'python', 'x = 1'));
      const metadata = {
        id: 'a1b2c3d4',
        name: 'From before',
        createdAt: '2024-05-01T10:00:00.000Z',
        origin: { kind: 'chat' as const },
      };
      const file = path.join(own.legacy, 'a1b2c3d4.json');
      await fs.writeFile(file, JSON.stringify(sessionRecordToJSON(metadata, session, { messages: [] })));
      await fs.writeFile(path.join(own.legacy, 'badc0ffe.json'), '{ this is not json');
      const mark = await messageMark();

      const listed = await own.registry.list();
      assert.deepEqual(
        listed.map((m) => [m.id, m.name, m.createdAt]),
        [['a1b2c3d4', 'From before', '2024-05-01T10:00:00.000Z']],
      );
      const reader = await own.registry.reader('a1b2c3d4');
      assert.equal(await reader?.lookup('ref:migrated')?.content.text(), 'x = 1');
      await assert.rejects(fs.stat(file), 'the old file was removed');
      await fs.stat(path.join(own.legacy, 'badc0ffe.json')); // left in place
      const warning = (await messagesSince(mark)).find((m) => m.level === 'warning');
      assert.match(warning?.text ?? '', /badc0ffe\.json.*left in place/);
    } finally {
      await own.dispose();
    }
  });

  it('shows a session another process writes in the tree and as fdref: files, and its new refs, without a reload', async () => {
    const api = await fdref();
    const other = await startOtherProcess(api.registry.storeFolder);
    try {
      const name = uniqueId('Agent session');
      const { session: id } = (await other.send({ op: 'create', name })) as { session: string };
      await other.send({ op: 'ref', id: 'agent_first', text: 'first = 1' });

      const roots = await eventually(async () => {
        const nodes = await api.tree.getChildren();
        return nodes.some((n) => n.sessionId === id) ? nodes : undefined;
      }, "the other process's session in the tree");
      assert.ok(roots.length > 0);
      const folder = vscode.Uri.from({ scheme: 'fdref', path: `/${name} (${id})` });
      const rootListing = await vscode.workspace.fs.readDirectory(vscode.Uri.parse('fdref:/'));
      assert.ok(
        rootListing.some(([entry]) => entry === `${name} (${id})`),
        'listed as an fdref: folder',
      );
      const refs = vscode.Uri.joinPath(folder, 'refs');
      assert.deepEqual(
        (await vscode.workspace.fs.readDirectory(refs)).map(([n]) => n),
        ['agent_first.txt'],
      );
      const changedFiles: string[] = [];
      const watching = api.fileSystem.onDidChangeFile((events) => changedFiles.push(...events.map((e) => e.uri.path)));
      try {
        await other.send({ op: 'ref', id: 'agent_second', text: 'second = 2' });
        await other.send({ op: 'fd', text: 'out\n'.repeat(5000) });
        const children = await eventually(async () => {
          const nodes = await api.tree.getChildren({ kind: 'session', sessionId: id });
          return nodes.length === 3 ? nodes : undefined;
        }, 'the new ref and descriptor in the tree');
        assert.deepEqual(
          children.map((c) => (c.kind === 'descriptor' ? c.descriptorId : c.kind)),
          ['ref:agent_first', 'ref:agent_second', 'fd:1'],
        );
        const second = vscode.Uri.joinPath(refs, 'agent_second.txt');
        assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(second)), 'second = 2');
        await eventually(
          () => (changedFiles.some((p) => p.endsWith('/refs/agent_second.txt')) ? true : undefined),
          'a change event for the new ref file',
        );
        const fd = await api.tree.getTreeItem({ kind: 'descriptor', sessionId: id, descriptorId: 'fd:1' });
        assert.equal(fd.description, 'tool_output (run_command) · 19.5 KB');
      } finally {
        watching.dispose();
      }
      const held = await api.registry.get(id);
      assert.match(
        held?.readOnly ?? '',
        /another window or agent/,
        'opened read-only while the other process writes it',
      );
      await assert.rejects(api.registry.ingest(id, '<ref id="mine">x</ref>'), /cannot add refs/);
      await assert.rejects(
        api.registry.delete(id),
        /being written by another window, MCP server or agent/,
        'not deleted under its writer',
      );
      assert.ok(await api.registry.meta(id), 'still there');
      await api.registry.release(id);
    } finally {
      await other.exit();
    }
  });

  it('removes the sessions past the days limit, oldest first, never a pinned one', async () => {
    const own = await ownRegistry();
    try {
      const make = async (name: string): Promise<string> => {
        const entry = await own.registry.create(name, { kind: 'chat' });
        await own.registry.ingest(entry.metadata.id, `<ref id="${name}">${name}</ref>`);
        await own.registry.release(entry.metadata.id);
        return entry.metadata.id;
      };
      const old = await make('old');
      const pinned = await make('pinned');
      const recent = await make('recent');
      await own.registry.setPinned(pinned, true);
      await age(own.root, old, 40);
      await age(own.root, pinned, 50);
      own.limits.current = { maxDays: 30 };

      assert.deepEqual(await own.registry.applyRetention(), [old]);
      assert.deepEqual((await own.registry.list()).map((m) => m.id).sort(), [pinned, recent].sort());
      await assert.rejects(fs.stat(path.join(own.root, 'sessions', old)), 'its folder is gone');
    } finally {
      await own.dispose();
    }
  });

  it('removes the sessions unchanged longest while the store is over its size limit, never one held open', async () => {
    const own = await ownRegistry();
    try {
      const make = async (name: string, release = true): Promise<string> => {
        const entry = await own.registry.create(name, { kind: 'chat' });
        entry.session.wrapToolOutput('run', `${name.padEnd(8)}\n`.repeat(40_000));
        await own.registry.changed(entry.metadata.id, { descriptors: true });
        if (release) await own.registry.release(entry.metadata.id);
        return entry.metadata.id;
      };
      const oldest = await make('oldest');
      const open = await make('open', false);
      const older = await make('older');
      const newest = await make('newest');
      await age(own.root, oldest, 5);
      await age(own.root, open, 4);
      await age(own.root, older, 3);
      const total = (await own.registry.usage()).totalBytes;
      const each = (await own.registry.usage()).sessions.find((s) => s.id === newest)?.bytes ?? 0;
      own.limits.current = { maxBytes: Math.round(total - 1.5 * each) };

      // Two must go; the one held open is skipped, so the next oldest goes in its place.
      assert.deepEqual(await own.registry.applyRetention(), [oldest, older]);
      assert.deepEqual((await own.registry.list()).map((m) => m.id).sort(), [open, newest].sort());
    } finally {
      await own.dispose();
    }
  });

  it("applies the size limit when another process's output grows the store, without a restart or a settings change", async () => {
    // A short interval between the runs the store's growth starts (a minute by default) keeps the test short.
    const own = await ownRegistry({}, { intervalMs: 200 });
    const other = await startOtherProcess(own.root);
    try {
      const old = await own.registry.create('old output', { kind: 'chat' });
      old.session.wrapToolOutput('run', 'old line\n'.repeat(20_000));
      await own.registry.changed(old.metadata.id, { descriptors: true });
      await own.registry.release(old.metadata.id);
      await age(own.root, old.metadata.id, 5);
      const before = (await own.registry.usage()).totalBytes;
      // Room for half of what the agent is about to write: the session unchanged longest must go.
      own.limits.current = { maxBytes: before + 100_000 };
      const { session: agent } = (await other.send({ op: 'create', name: 'agent' })) as { session: string };
      await other.send({ op: 'fd', text: 'agent line\n'.repeat(20_000) });
      const left = await eventually(
        async () => {
          const ids = (await own.registry.list()).map((m) => m.id);
          return ids.includes(old.metadata.id) || !ids.includes(agent) ? undefined : ids;
        },
        'the old session removed by retention',
        10_000,
      );
      assert.deepEqual(left, [agent], "the agent's session, being written, stays");
    } finally {
      await other.exit();
      await own.dispose();
    }
  });

  it('pins and unpins through the commands; the tree shows a pinned session', async () => {
    const api = await fdref();
    const entry = await sessionWith(`<ref id="${uniqueId('pin')}">x</ref>`, 'Pin me');
    const node = { kind: 'session' as const, sessionId: entry.metadata.id };
    assert.equal(await vscode.commands.executeCommand('fdref.pinSession', node), true);
    const item = await api.tree.getTreeItem(node);
    assert.equal(item.contextValue, 'fdref.session.pinned');
    assert.match(String(item.description), /^pinned · /);
    assert.equal((await api.registry.meta(entry.metadata.id))?.pinned, true);
    const onDisk = JSON.parse(
      await fs.readFile(path.join(api.registry.storeFolder, 'sessions', entry.metadata.id, 'meta.json'), 'utf8'),
    );
    assert.equal(onDisk.pinned, true);
    assert.equal(await vscode.commands.executeCommand('fdref.unpinSession', node), false);
    assert.equal((await api.tree.getTreeItem(node)).contextValue, 'fdref.session');
  });

  it('lists sessions by size in Show Store Usage and removes the ones picked', async () => {
    const api = await fdref();
    const kept = await sessionWith(`<ref id="${uniqueId('kept')}">kept</ref>`, 'Kept');
    const doomed = await sessionWith(`<ref id="${uniqueId('doomed')}">doomed</ref>`, 'Doomed');
    const removed = await vscode.commands.executeCommand('fdref.showStoreUsage', {
      sessionIds: [doomed.metadata.id],
      confirmed: true,
    });
    assert.deepEqual(removed, [doomed.metadata.id]);
    assert.equal(await api.registry.meta(doomed.metadata.id), undefined);
    assert.ok(await api.registry.meta(kept.metadata.id));
    await assert.rejects(fs.stat(path.join(api.registry.storeFolder, 'sessions', doomed.metadata.id)));
    await api.tree.storeSize?.measure();
    assert.ok((api.tree.storeSize?.bytes ?? 0) > 0, 'the view shows the store size');
    assert.match(api.tree.storeSize?.message ?? '', /^Session store: [\d.]+ (B|KB|MB|GB)$/);
  });

  it("clears one agent's sessions in Show Store Usage, keeping a pinned one and one open here, and says so", async () => {
    const api = await fdref();
    const agent = uniqueId('agent');
    const origin = { kind: 'agentShell', agent, conversation: 'c' } as const;
    const make = async (name: string, release = true): Promise<string> => {
      const entry = await api.registry.create(name, origin);
      await api.registry.ingest(entry.metadata.id, `<ref id="${uniqueId(name)}">${name}</ref>`);
      if (release) await api.registry.release(entry.metadata.id);
      return entry.metadata.id;
    };
    const doomed = await make('doomed');
    const alsoDoomed = await make('also doomed');
    const pinned = await make('pinned');
    await api.registry.setPinned(pinned, true);
    const open = await make('open', false);
    const other = await sessionWith(`<ref id="${uniqueId('other')}">other</ref>`, 'Other source');
    const mark = await messageMark();
    try {
      const removed = await vscode.commands.executeCommand('fdref.showStoreUsage', {
        group: `agent:${agent}`,
        confirmed: true,
      });
      assert.deepEqual(removed && [...(removed as string[])].sort(), [doomed, alsoDoomed].sort());
      for (const id of [doomed, alsoDoomed]) {
        assert.equal(await api.registry.meta(id), undefined);
        await assert.rejects(fs.stat(path.join(api.registry.storeFolder, 'sessions', id)));
      }
      for (const id of [pinned, open, other.metadata.id]) assert.ok(await api.registry.meta(id), `${id} is kept`);
      const said = (await messagesSince(mark)).map((m) => m.text);
      assert.ok(
        said.some((text) =>
          new RegExp(`Removed 2 ${agent} sessions \\(.+\\)\\. Kept 2: 1 pinned, 1 open in this window\\.$`).test(text),
        ),
        said.join('\n'),
      );
      const before = await messageMark();
      const none = await vscode.commands.executeCommand('fdref.showStoreUsage', {
        group: 'agent:nobody-here',
        confirmed: true,
      });
      assert.equal(none, undefined, 'nothing removed');
      assert.ok((await messagesSince(before)).some((m) => /holds no sessions of agent:nobody-here/.test(m.text)));
    } finally {
      await api.registry.release(open);
      await api.registry.setPinned(pinned, false);
      for (const id of [pinned, open]) await api.registry.delete(id).catch(() => undefined);
    }
  });

  it('saves a session holding a large descriptor by writing only the change', async () => {
    const api = await fdref();
    const entry = await api.registry.create('Large', { kind: 'chat' }, undefined, { messages: [] });
    entry.session.wrapToolOutput('run', 'l'.repeat(20 * 1024 * 1024));
    await api.registry.changed(entry.metadata.id, { descriptors: true });
    const sizeOf = async (): Promise<number> =>
      (await api.registry.usage()).sessions.find((s) => s.id === entry.metadata.id)?.bytes ?? 0;
    const before = await sizeOf();
    assert.ok(before > 20 * 1024 * 1024, `the descriptor is on disk (${before} bytes)`);

    entry.session.registerRef({ id: 'small', content: 's'.repeat(1024), start: 0, end: 1 });
    let longest = 0;
    let last = performance.now();
    const probe = setInterval(() => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    await api.registry.changed(entry.metadata.id, { refIds: ['small'] });
    const took = performance.now() - started;
    clearInterval(probe);
    const written = (await sizeOf()) - before;
    console.log(
      `    adding a 1 KB ref to a 20 MB session: ${written} bytes written, ${took.toFixed(1)} ms, longest pause ${longest.toFixed(1)} ms`,
    );
    assert.ok(written > 1024 && written < 4096, `${written} bytes written`);
    const stored = await Store.open(api.registry.storeFolder);
    assert.equal(await (await stored.read(entry.metadata.id))?.lookup('ref:small')?.content.text(), 's'.repeat(1024));
    await api.registry.delete(entry.metadata.id);
  });
});
