import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core/files/fileSystemPort';
import { Session } from '../../../../src/core/session/session';
import type { Store } from '../../../../src/core/store';
import type { SearchQuery } from '../../../../src/core/search/search';
import { search as searchIndex } from '../../../../src/core/search/search';
import { INDEX_FILE, INDEX_FOLDER, SearchIndex } from '../../../../src/core/search/searchIndex';
import { loadDriver } from '../../../../src/core/search/sqlite';
import { StoreSearch, StoreSearchRefusal } from '../../../../src/core/search/storeSearch';
import { tempStoreFolder } from '../../../support/store/tempStore';

const SEARCH_DIR = path.resolve(__dirname, '../../../../src/core/search');
const INDEX_PROCESS = path.resolve(__dirname, '../../../support/search/indexProcess.ts');
const started = '2026-11-01T10:00:00.000Z';

/** A log of `lines` lines like a test run's, with `inserted` at line `at` (1-based). */
function log(lines: number, inserted: Record<number, string> = {}): string {
  const out: string[] = [];
  for (let i = 1; i <= lines; i++)
    out.push(inserted[i] ?? `  ✓ suite ${i % 37} case ${i} passes in ${(i * 7) % 90}ms worker-${i % 4}`);
  return out.join('\n') + '\n';
}

async function keep(
  store: Store,
  session: { name: string; origin: Parameters<Store['create']>[0]['origin'] },
  outputs: { text: string; command?: string; createdAt?: string }[],
): Promise<string> {
  const writer = await store.create(session);
  for (const output of outputs) {
    const content = await writer.putContent(output.text);
    const createdAt = output.createdAt ?? started;
    await writer.addDescriptor(
      {
        source: 'tool_output',
        toolName: 'run_command',
        ...(output.command === undefined
          ? {}
          : {
              command: {
                commandLine: output.command,
                startedAt: createdAt,
                outputChars: output.text.length,
                cut: false,
              },
            }),
        createdAt,
      },
      content,
    );
  }
  await writer.close();
  return writer.id;
}

const query = (pattern: string, more: Partial<SearchQuery> = {}): SearchQuery => ({
  pattern,
  caseSensitive: false,
  offset: 0,
  limit: 20,
  context: 1,
  ...more,
});

describe('search across the store (index in a worker thread)', function () {
  this.timeout(120_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  let search: StoreSearch | undefined;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(async () => {
    await search?.dispose();
    search = undefined;
    await folder.dispose();
  });

  const open = (store: Store): StoreSearch => (search = new StoreSearch({ root: store.root }, SEARCH_DIR));

  it('finds a failure in the middle of a long log in any session, with handle, command, line and context', async () => {
    const store = await folder.open();
    const failure = '  1) parser rejects trailing commas: AssertionError: expected 3 to equal 4';
    const agent = await keep(store, { name: 'claude build', origin: { kind: 'agentShell', agent: 'claude-code' } }, [
      { text: log(20_000, { 12_345: failure }), command: 'npm test' },
    ]);
    await keep(store, { name: 'terminal', origin: { kind: 'terminal' } }, [
      { text: log(3000), command: 'npm run lint' },
    ]);
    const page = await open(store).search(query('AssertionError: expected'));
    assert.equal(page.matches, 1);
    assert.equal(page.exact, true);
    const [hit] = page.hits;
    assert.equal(hit?.session, agent);
    assert.equal(hit?.sessionName, 'claude build');
    assert.equal(hit?.handle, 'fd:1');
    assert.equal(hit?.command, 'npm test');
    assert.equal(hit?.origin, 'agent:claude-code');
    assert.equal(hit?.line, 12_345);
    assert.equal(hit?.text, failure);
    assert.deepEqual(
      hit?.before.map((l) => l.line),
      [12_344],
    );
    assert.match(hit?.before[0]?.text ?? '', /case 12344 passes/);
    assert.deepEqual(
      hit?.after.map((l) => l.line),
      [12_346],
    );
  });

  it('counts every match, ranks, pages, and filters by session, origin, command and time', async () => {
    const store = await folder.open();
    const lines: Record<number, string> = {};
    for (let i = 100; i <= 5000; i += 100) lines[i] = `npm ERR! code ELIFECYCLE at step ${i}`;
    const a = await keep(store, { name: 'a', origin: { kind: 'agentShell', agent: 'codex' } }, [
      { text: log(6000, lines), command: 'npm run build', createdAt: '2026-11-01T10:00:00.000Z' },
    ]);
    const b = await keep(store, { name: 'b', origin: { kind: 'terminal' } }, [
      {
        text: log(500, { 7: 'npm ERR! code ELIFECYCLE once' }),
        command: 'make all',
        createdAt: '2026-11-03T10:00:00.000Z',
      },
    ]);
    const s = open(store);
    const all = await s.search(query('elifecycle', { limit: 10 }));
    assert.equal(all.matches, 51);
    assert.equal(all.exact, true);
    assert.equal(all.hits.length, 10);
    assert.equal(all.more, true);
    const second = await s.search(query('elifecycle', { limit: 10, offset: 10 }));
    const key = (h: { session: string; line: number }): string => `${h.session}:${h.line}`;
    assert.equal(new Set([...all.hits, ...second.hits].map(key)).size, 20, 'the second page goes on');
    const last = await s.search(query('elifecycle', { limit: 10, offset: 50 }));
    assert.equal(last.hits.length, 1);
    assert.equal(last.more, false);
    assert.deepEqual((await s.search(query('ELIFECYCLE', { sessions: [b] }))).hits.map(key), [`${b}:7`]);
    assert.equal((await s.search(query('ELIFECYCLE', { origin: 'codex' }))).matches, 50);
    assert.equal((await s.search(query('ELIFECYCLE', { origin: 'terminal' }))).matches, 1);
    assert.equal((await s.search(query('ELIFECYCLE', { command: 'RUN BUILD' }))).matches, 50);
    assert.equal((await s.search(query('ELIFECYCLE', { command: '100%_' }))).matches, 0, 'LIKE wildcards are text');
    assert.equal((await s.search(query('ELIFECYCLE', { sinceMs: Date.parse('2026-11-02T00:00:00Z') }))).matches, 1);
    assert.equal((await s.search(query('ELIFECYCLE', { untilMs: Date.parse('2026-11-02T00:00:00Z') }))).matches, 50);
    assert.equal((await s.search(query('elifecycle', { caseSensitive: true }))).matches, 0);
    assert.equal((await s.search(query('ELIFEC'))).matches, 51, 'the last word is a prefix');
    assert.equal((await s.search(query('code ELIFECYCLE at step 4200'))).hits[0]?.line, 4200);
    assert.equal((await s.search(query('no such words here'))).matches, 0);
    assert.ok(a);
  });

  it('indexes only what is new: another output later, a growing output as it grows, a removed session forgotten', async () => {
    const store = await folder.open();
    const s = open(store);
    const first = await keep(store, { name: 'one', origin: { kind: 'terminal' } }, [{ text: log(2000) }]);
    const before = await s.catchUp();
    assert.equal(before.pendingBytes, 0);
    assert.equal(before.contents, 1);
    await keep(store, { name: 'two', origin: { kind: 'terminal' } }, [{ text: log(10, { 5: 'zebracorn here' }) }]);
    const after = await s.catchUp();
    assert.equal(after.contents, 2);
    assert.equal(after.indexedBytes, before.indexedBytes + Buffer.byteLength(log(10, { 5: 'zebracorn here' })));
    assert.equal((await s.search(query('zebracorn'))).hits[0]?.line, 5);

    // A command still running: its lines are found as they arrive.
    const writer = await store.create({ name: 'running', origin: { kind: 'agentShell', agent: 'gemini' } });
    const sink = writer.createSink();
    await sink.write('starting\nfirst unicornfish line\n');
    const n = await writer.startGrowing(
      {
        source: 'tool_output',
        createdAt: started,
        command: { commandLine: 'make', startedAt: started, outputChars: 0, cut: false, unfinished: true },
      },
      sink,
    );
    await writer.grew(n, await sink.flushNow());
    assert.equal((await s.search(query('unicornfish'))).hits[0]?.handle, `fd:${n}`);
    await sink.write('more\nsecond unicornfish line, no end yet');
    await writer.grew(n, await sink.flushNow());
    const growing = await s.search(query('unicornfish'));
    assert.deepEqual(growing.hits.map((h) => h.line).sort(), [2, 4], 'the line being written is scanned');
    const { ref } = await sink.seal();
    await writer.addDescriptor({ n, source: 'tool_output', createdAt: started }, ref);
    await writer.close();
    await s.catchUp();
    const done = await s.search(query('unicornfish'));
    assert.deepEqual(
      done.hits.map((h) => `${h.handle}:${h.line}`),
      [`fd:${n}:2`, `fd:${n}:4`],
    );
    assert.equal(done.exact, true);

    await store.delete(first);
    const gone = await s.catchUp();
    assert.equal(gone.contents, 2);
    assert.equal(
      (await s.search(query('suite'))).hits.some((h) => h.session === first),
      false,
    );
  });

  it('is shared by several processes and set aside and rebuilt when damaged', async () => {
    const store = await folder.open();
    await keep(store, { name: 'x', origin: { kind: 'terminal' } }, [{ text: log(100, { 50: 'kraken alert' }) }]);
    const one = open(store);
    await one.catchUp();
    const two = new StoreSearch({ root: store.root }, SEARCH_DIR);
    try {
      assert.equal((await two.search(query('kraken'))).hits[0]?.line, 50, 'a second reader of the same file');
    } finally {
      await two.dispose();
    }
    await one.dispose();
    const file = path.join(store.root, INDEX_FOLDER, INDEX_FILE);
    await fs.writeFile(file, 'this is not a database, it was damaged\n'.repeat(200));
    await fs.rm(`${file}-wal`, { force: true });
    await fs.rm(`${file}-shm`, { force: true });
    const three = open(store);
    assert.equal((await three.search(query('kraken'))).hits[0]?.line, 50);
    const kept = (await fs.readdir(path.dirname(file))).filter((name) => name.includes('.broken-'));
    assert.ok(kept.length >= 1, 'the damaged file is kept aside');
  });

  it('is the chat\'s search_fd with fd="*": this session by default, every session with session="*"', async () => {
    const store = await folder.open();
    const kept = await keep(store, { name: 'agent run', origin: { kind: 'agentShell', agent: 'codex' } }, [
      { text: log(400, { 321: 'TypeError: cannot read properties of undefined' }), command: 'npm test' },
    ]);
    const s = open(store);
    const chat = new Session();
    const environment = (thisSession: string) => ({
      workspaceRoots: [],
      fileSystem: nodeFileSystem,
      storeSearch: { thisSession, search: (q: SearchQuery) => s.search(q) },
    });
    const own = await chat.callTool('search_fd', { fd: '*', pattern: 'TypeError' }, environment('chat-session'));
    assert.match(own, /matches="0"/);
    const all = await chat.callTool('search_fd', { fd: '*', session: '*', pattern: 'TypeError' }, environment('x'));
    assert.match(all, /matches="1" exact="true"/);
    assert.ok(
      all.includes(`<lines fd="fd:1" session="${kept}" session_name="agent run" source="Codex" command="npm test"`),
      all,
    );
    assert.match(all, /\n321: TypeError: cannot read properties of undefined\n/);
    const refused = await chat.callTool('search_fd', { fd: 'fd:1', session: kept, pattern: 'x' }, environment('x'));
    assert.match(refused, /here session works only with fd="\*"/);
  });

  it('finds the same lines, numbers and context in output not indexed yet (scanned) as once it is indexed', async () => {
    const store = await folder.open();
    // About 3 MB: lines of several lengths, multi-byte characters, CRLF, a line longer than a piece read.
    const lines: string[] = [];
    for (let i = 1; i <= 40_000; i++)
      lines.push(
        i % 997 === 0
          ? `ünïcode målformed needle ${i} ✓\r`
          : i === 20_000
            ? `needle in a long line ${'é'.repeat(1_200_000)}`
            : `line ${i} ${'x'.repeat(i % 120)}`,
      );
    await keep(store, { name: 'big', origin: { kind: 'terminal' } }, [{ text: lines.join('\n') }]);
    const driver = loadDriver();
    assert.ok(!('error' in driver), 'a SQLite driver loads here');
    const index = SearchIndex.open(store.root, driver);
    try {
      await index.catchUpJournals();
      const q = query('needle', { limit: 100, context: 2 });
      const scanned = await searchIndex(index, q);
      assert.equal(index.stats().pendingBytes > 0, true, 'nothing was indexed yet');
      while (await index.indexUntil(Date.now() + 1000));
      assert.equal(index.stats().pendingBytes, 0);
      const indexed = await searchIndex(index, q);
      const shape = (page: typeof scanned) =>
        page.hits
          .map((h) => ({ line: h.line, text: h.text, before: h.before, after: h.after }))
          .sort((a, b) => a.line - b.line);
      assert.equal(scanned.matches, 41);
      assert.equal(indexed.matches, 41);
      // Context beside a line longer than the index's piece (1 MB) is read from around its block only: the lines
      // after it are more than a margin away. Everything else is the same.
      const withoutContext = (page: typeof scanned) =>
        shape(page).map((h) => (h.line === 20_000 ? { ...h, before: [], after: [] } : h));
      assert.deepEqual(withoutContext(scanned), withoutContext(indexed));
      const long = shape(indexed).find((h) => h.line === 20_000);
      assert.match(long?.text ?? '', /^needle in a long line é+…$/);
      assert.deepEqual(
        long?.before.map((l) => l.line),
        [19_998, 19_999],
      );
      assert.deepEqual(
        shape(indexed).find((h) => h.line === 997),
        {
          line: 997,
          text: 'ünïcode målformed needle 997 ✓',
          before: [
            { line: 995, text: `line 995 ${'x'.repeat(995 % 120)}` },
            { line: 996, text: `line 996 ${'x'.repeat(996 % 120)}` },
          ],
          after: [
            { line: 998, text: `line 998 ${'x'.repeat(998 % 120)}` },
            { line: 999, text: `line 999 ${'x'.repeat(999 % 120)}` },
          ],
        },
      );
    } finally {
      index.close();
    }
  });

  it('goes on after a process indexing the store is killed mid-work: no block lost or indexed twice', async () => {
    const store = await folder.open();
    const text = log(250_000, { 200_000: 'the phoenix line' }); // about 14 MB: many steps
    await keep(store, { name: 'long', origin: { kind: 'terminal' } }, [{ text }]);
    const child = spawn(process.execPath, ['--require', 'tsx/cjs', INDEX_PROCESS, store.root], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const killed = new Promise<void>((resolve) => {
      let steps = 0;
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
        steps += chunk.split('\n').filter((line) => line.startsWith('{"indexed"')).length;
        if (steps >= 3 && child.exitCode === null) child.kill('SIGKILL');
      });
      child.once('exit', () => resolve());
    });
    await killed;
    const driver = loadDriver();
    assert.ok(!('error' in driver));
    const index = SearchIndex.open(store.root, driver);
    try {
      const partial = index.stats();
      assert.ok(partial.indexedBytes > 0 && partial.pendingBytes > 0, `killed mid-work: ${JSON.stringify(partial)}`);
      // The resume point is exactly the blocks committed with it.
      const [row] = index.query(
        'SELECT c.indexed_bytes AS at, (SELECT coalesce(sum(byte_len), 0) FROM blocks b WHERE b.content_id = c.id) AS blocks FROM contents c',
      );
      assert.equal(row?.['at'], row?.['blocks']);
      while (await index.indexUntil(Date.now() + 1000));
      const [done] = index.query(
        'SELECT c.indexed_bytes AS at, c.indexed_lines AS lines, (SELECT coalesce(sum(byte_len), 0) FROM blocks b WHERE b.content_id = c.id) AS blocks FROM contents c',
      );
      assert.equal(done?.['at'], Buffer.byteLength(text));
      assert.equal(done?.['blocks'], Buffer.byteLength(text));
      assert.equal(done?.['lines'], 250_000);
      const page = await searchIndex(index, query('phoenix'));
      assert.deepEqual(
        page.hits.map((h) => h.line),
        [200_000],
      );
    } finally {
      index.close();
    }
  });

  it('finds a phrase older than the newest blocks that hold its words apart', async () => {
    const store = await folder.open();
    // The phrase once, then 700 blocks' worth of lines holding both words, never side by side.
    const old = log(200, { 100: 'a cache miss in the old run' });
    const apart = Array.from({ length: 700 * 150 }, (_, i) => `miss ${i} then cache line ${'y'.repeat(60)}`).join('\n');
    await keep(store, { name: 'old', origin: { kind: 'terminal' } }, [{ text: old }]);
    await keep(store, { name: 'new', origin: { kind: 'terminal' } }, [{ text: apart }]);
    const driver = loadDriver();
    assert.ok(!('error' in driver));
    const index = SearchIndex.open(store.root, driver);
    try {
      await index.catchUpJournals();
      while (await index.indexUntil(Date.now() + 1000));
      const page = await searchIndex(index, query('cache miss'));
      assert.deepEqual(
        page.hits.map((h) => `${h.sessionName}:${h.line}`),
        ['old:100'],
      );
      assert.equal(page.hits[0]?.text, 'a cache miss in the old run');
    } finally {
      index.close();
    }
  });

  it('refuses a pattern without words, with a reason', async () => {
    const store = await folder.open();
    await assert.rejects(open(store).search(query('==> !!')), (error: Error) => {
      assert.ok(error instanceof StoreSearchRefusal);
      assert.match(error.message, /at least one word/);
      return true;
    });
  });

  for (const driver of ['libsql', 'node:sqlite'] as const) {
    it(`runs on ${driver} where it loads, and says why where it does not`, async () => {
      const store = await folder.open();
      await keep(store, { name: 'x', origin: { kind: 'terminal' } }, [
        { text: log(300, { 150: 'naïve Übung façade' }) },
      ]);
      search = new StoreSearch({ root: store.root, driver }, SEARCH_DIR);
      const loaded = loadDriver(driver);
      if ('error' in loaded) {
        // Node 20 has no node:sqlite: the search refuses with the reason (the extension then offers libsql).
        assert.equal(driver, 'node:sqlite');
        assert.match(loaded.error, /node:sqlite is not in this Node\.js \(it needs 22\.13 or later\)/);
        await assert.rejects(search.search(query('naïve')), (error: Error) => {
          assert.ok(error instanceof StoreSearchRefusal);
          assert.match(error.message, /the search index is not available here: node:sqlite is not in this Node/);
          return true;
        });
        return;
      }
      assert.equal((await search.search(query('naïve Übung'))).hits[0]?.line, 150);
      assert.equal((await search.stats()).driver, driver);
    });
  }
});
