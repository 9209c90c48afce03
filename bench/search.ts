// Search across the store benchmark (issue 25 item 1), run by `npm run bench` (tsx bench/search.ts). Over a
// generated store (FDREF_BENCH_SEARCH_GB, default 2 GB: the default retention cap, in 2,000 descriptors of log-like
// text over ~100 sessions of several origins, written through the Store API), it measures a query's first page of
// results warm and cold (a new process, the index and content files evicted from the page cache), against a plain
// scan of the same bytes for the same query in the same run; the cost of indexing while a 100 MB output is stored;
// the memory of a process that only searches; and the index's size on disk. The generated store is kept under the
// system's temporary folder, keyed by the generator's version and size, so the next run reuses it.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, promises as fs, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { build } from 'esbuild';
import { errorMessage } from '../src/core/errors';
import { Store } from '../src/core/store';
import type { SessionOrigin } from '../src/core/session/sessionRecord';
import type { SearchPage, SearchQuery } from '../src/core/search/search';
import { StoreSearch } from '../src/core/search/storeSearch';

/** Bumped whenever the generated store changes: a store of another version is not reused. */
const GENERATOR_VERSION = 2;
const MB = 1024 * 1024;
const GIB = 1024 * MB;
const DESCRIPTORS_PER_GB = 1000;
const DESCRIPTORS_PER_SESSION = 20;
const RARE_WORD = 'quokkafrost';
/** Every this many descriptors, one holds the rare word once. */
const RARE_EVERY = 400;
const RARE_AT = 7;
/** The worker as `npm run bench` builds it (dist/searchWorker.js), else the source through tsx. */
const WORKER_DIR =
  process.env['FDREF_BENCH_SEARCH_WORKER_DIR'] ??
  (existsSync(path.resolve(__dirname, '../dist/searchWorker.js'))
    ? path.resolve(__dirname, '../dist')
    : path.resolve(__dirname, '../src/core/search'));
/** A warm query slower than this is not repeated (a median of one). */
const REPEAT_UNDER_MS = 2000;

let failures = 0;

interface Target {
  readonly text: string;
  readonly check: (value: number) => boolean;
}
const under = (limit: number, unit: string): Target => ({ text: `< ${limit} ${unit}`, check: (v) => v < limit });
const atLeast = (ratio: number): Target => ({ text: `>= ${ratio}x`, check: (v) => v >= ratio });
const atMost = (ratio: number): Target => ({ text: `<= ${ratio}x`, check: (v) => v <= ratio });

/** One line of the table: the figure, its ratio to a floor where there is one, and PASS or MISS for its target. */
function report(name: string, value: string, target?: Target, checked?: number): void {
  let verdict = '';
  if (target !== undefined) {
    const ok = checked !== undefined && Number.isFinite(checked) && target.check(checked);
    if (!ok) failures++;
    verdict = `  target ${target.text}  ${ok ? 'PASS' : 'MISS'}`;
  }
  console.log(`${name.padEnd(58)} ${value}${verdict}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

const ms = (value: number): string => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

// ---- The generated store ----

/** A small fast seeded generator (mulberry32): the same store for the same version and size. */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const RESOURCES = ['users', 'orders', 'invoices', 'carts', 'sessions', 'products', 'payments', 'shipments'];
const DIRS = ['handlers', 'services', 'models', 'routes', 'middleware', 'utils', 'jobs', 'adapters'];
const FILES = ['orders', 'billing', 'auth', 'inventory', 'mailer', 'scheduler', 'cache', 'queue', 'reports'];
const CLASSES = ['Object', 'OrderService', 'Router', 'Pool', 'Scheduler', 'CacheClient', 'Queue', 'Mailer'];
const FUNCTIONS = ['handleRequest', 'process', 'dispatch', 'runJob', 'query', 'connect', 'flush', 'render'];
const SUITES = ['orders', 'billing', 'auth flow', 'inventory sync', 'mailer', 'scheduler', 'reports export'];
const CASES = ['creates an item', 'rejects bad input', 'retries on failure', 'keeps order', 'paginates', 'rounds'];

function pick<T>(r: () => number, list: readonly T[]): T {
  return list[Math.floor(r() * list.length)] as T;
}

function hex(r: () => number, digits: number): string {
  let out = '';
  while (out.length < digits)
    out += Math.floor(r() * 0x100000000)
      .toString(16)
      .padStart(8, '0');
  return out.slice(0, digits);
}

/** About `bytes` bytes (ASCII) of log-like text: timestamps, levels, paths, stack frames, test lines, hashes. */
function logText(seed: number, bytes: number, rare: boolean): string {
  const r = random(seed);
  const lines: string[] = [];
  let size = 0;
  let clock = Date.UTC(2026, 10, 1) + seed * 60_000;
  let rareAt = rare ? Math.floor(bytes / 2) : -1;
  while (size < bytes) {
    clock += Math.floor(r() * 50);
    const ts = new Date(clock).toISOString();
    const k = r();
    let line: string;
    if (k < 0.3)
      line = `${ts} INFO  [worker-${Math.floor(r() * 8)}] GET /api/v2/${pick(r, RESOURCES)}/${Math.floor(r() * 100_000)} 200 ${Math.floor(r() * 400)}ms req=${hex(r, 8)}`;
    else if (k < 0.35)
      line = `${ts} DEBUG [cache] cache miss key=${pick(r, RESOURCES)}:${Math.floor(r() * 100_000)} ttl=300`;
    else if (k < 0.47)
      line = `${ts} DEBUG [cache] hit key=${pick(r, RESOURCES)}:${Math.floor(r() * 100_000)} age=${Math.floor(r() * 900)}s`;
    else if (k < 0.503)
      line = `${ts} WARN  [scheduler] job ${hex(r, 8)} retry ${1 + Math.floor(r() * 5)}/5: timeout after ${Math.floor(r() * 30_000)}ms`;
    else if (k < 0.5033)
      line = `${ts} ERROR [db] connection reset by peer (host db-${Math.floor(r() * 9)}.internal:5432)`;
    else if (k < 0.65)
      line = `    at ${pick(r, CLASSES)}.${pick(r, FUNCTIONS)} (/srv/app/src/${pick(r, DIRS)}/${pick(r, FILES)}.ts:${1 + Math.floor(r() * 400)}:${1 + Math.floor(r() * 60)})`;
    else if (k < 0.8)
      line = `${r() < 0.97 ? 'ok' : 'not ok'} ${Math.floor(r() * 2000)} - ${pick(r, SUITES)} > ${pick(r, CASES)} (${Math.floor(r() * 300)} ms)`;
    else if (k < 0.85)
      line =
        r() < 0.5
          ? `commit ${hex(r, 40)} Merge branch 'feature/${pick(r, FILES)}'`
          : `${ts} INFO  [deploy] image sha256:${hex(r, 64)} build ${hex(r, 8)}-${hex(r, 4)}-${hex(r, 4)}-${hex(r, 12)}`;
    else
      line = `${ts} INFO  [build] compiling src/${pick(r, DIRS)}/${pick(r, FILES)}.ts -> dist/${pick(r, DIRS)}/${pick(r, FILES)}.js (${Math.floor(r() * 300)} KB)`;
    if (rareAt >= 0 && size >= rareAt) {
      line = `${ts} ERROR [auth] token ${hex(r, 8)} rejected by the ${RARE_WORD} gateway`;
      rareAt = -1;
    }
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join('\n') + '\n';
}

const ORIGINS: readonly { origin: SessionOrigin; label: string; chat?: boolean }[] = [
  { origin: { kind: 'terminal' }, label: 'terminal' },
  { origin: { kind: 'agentShell', agent: 'claude-code' }, label: 'claude-code' },
  { origin: { kind: 'agentShell', agent: 'codex' }, label: 'codex' },
  { origin: { kind: 'chat' }, label: 'chat', chat: true },
];
const COMMANDS = ['npm test', 'npm run build', 'make all', 'cargo test', 'pytest -x', 'docker compose logs'];

interface Generated {
  readonly version: number;
  readonly gb: number;
  readonly descriptors: number;
  readonly contentBytes: number;
  readonly rareCount: number;
  readonly sessions: { readonly id: string; readonly label: string }[];
  readonly writeMs: number;
  readonly indexMs: number;
}

function storeFolder(gb: number): string {
  return path.join(tmpdir(), `fdref-bench-search-v${GENERATOR_VERSION}-${gb}gb`);
}

/** The bench store of `gb`, generated and indexed if it is not there from an earlier run. */
async function benchStore(gb: number): Promise<{ root: string; generated: Generated; reused: boolean }> {
  const root = storeFolder(gb);
  const readyFile = path.join(root, 'bench-ready.json');
  if (existsSync(readyFile))
    return { root, generated: JSON.parse(readFileSync(readyFile, 'utf8')) as Generated, reused: true };
  const partial = `${root}.partial`;
  rmSync(root, { recursive: true, force: true });
  rmSync(partial, { recursive: true, force: true });
  const descriptors = Math.max(4, Math.round(gb * DESCRIPTORS_PER_GB));
  const each = Math.floor((gb * GIB) / descriptors);
  const sessionCount = Math.max(4, Math.ceil(descriptors / DESCRIPTORS_PER_SESSION));
  console.log(
    `Generating ${descriptors} descriptors of ${(each / MB).toFixed(2)} MB in ${sessionCount} sessions into ${root}`,
  );
  const writeStart = performance.now();
  const store = await Store.open(partial, { durability: 'process' });
  const sessions: { id: string; label: string }[] = [];
  let contentBytes = 0;
  let rareCount = 0;
  let d = 0;
  for (let s = 0; s < sessionCount; s++) {
    const kind = ORIGINS[s % ORIGINS.length] as (typeof ORIGINS)[number];
    const writer = await store.create({
      name: `${kind.label} session ${s}`,
      origin: kind.origin,
      createdAt: new Date(Date.UTC(2026, 10, 1) + s * 3_600_000).toISOString(),
      ...(kind.chat ? { chat: true } : {}),
    });
    const here = Math.ceil((descriptors - d) / (sessionCount - s));
    for (let i = 0; i < here; i++, d++) {
      const rare = d % RARE_EVERY === RARE_AT;
      if (rare) rareCount++;
      const text = logText(d + 1, each, rare);
      contentBytes += Buffer.byteLength(text);
      const createdAt = new Date(Date.UTC(2026, 10, 1) + s * 3_600_000 + i * 60_000).toISOString();
      const commandLine = COMMANDS[d % COMMANDS.length] as string;
      await writer.addDescriptor(
        {
          source: 'tool_output',
          toolName: kind.chat ? 'read_file' : 'run_command',
          ...(kind.chat
            ? {}
            : { command: { commandLine, startedAt: createdAt, outputChars: text.length, cut: false } }),
          createdAt,
        },
        await writer.putContent(text),
      );
    }
    await writer.close();
    sessions.push({ id: writer.id, label: kind.label });
  }
  await store.close();
  const writeMs = performance.now() - writeStart;
  console.log(`  written in ${(writeMs / 1000).toFixed(1)} s; indexing it (a StoreSearch worker, poked once)...`);
  const indexMs = await indexAll(partial, contentBytes);
  console.log(
    `  indexed in ${(indexMs / 1000).toFixed(1)} s = ${(contentBytes / MB / (indexMs / 1000)).toFixed(1)} MB/s`,
  );
  const generated: Generated = {
    version: GENERATOR_VERSION,
    gb,
    descriptors,
    contentBytes,
    rareCount,
    sessions,
    writeMs,
    indexMs,
  };
  await fs.writeFile(path.join(partial, 'bench-ready.json'), JSON.stringify(generated));
  await fs.rename(partial, root);
  return { root, generated, reused: false };
}

/** Indexes the whole store at `root` in the background, as the extension does (poked), until nothing is pending. */
async function indexAll(root: string, contentBytes: number): Promise<number> {
  const search = new StoreSearch({ root }, WORKER_DIR);
  const start = performance.now();
  let lastReport = start;
  try {
    search.poke();
    for (;;) {
      // stats() waits its turn behind the worker's current slice of indexing: no fixed sleep needed.
      const stats = await search.stats();
      if (stats.pendingBytes === 0 && stats.indexedBytes >= contentBytes) return performance.now() - start;
      if (performance.now() - lastReport > 30_000) {
        lastReport = performance.now();
        console.log(`  ... ${(stats.indexedBytes / MB).toFixed(0)} of ${(contentBytes / MB).toFixed(0)} MB indexed`);
      }
      search.poke();
      await new Promise((resolve) => setTimeout(resolve, 200)); // a progress poll, not a wait for a result
    }
  } finally {
    await search.dispose();
  }
}

/** The content files (`.txt`) of the sessions given, or of every session. */
function contentFiles(root: string, sessions?: readonly string[]): string[] {
  const files: string[] = [];
  for (const id of sessions ?? readdirSync(path.join(root, 'sessions'))) {
    const folder = path.join(root, 'sessions', id, 'content');
    if (!existsSync(folder)) continue;
    for (const name of readdirSync(folder)) if (name.endsWith('.txt')) files.push(path.join(folder, name));
  }
  return files;
}

/** Every file under `root`. */
function allFiles(root: string): string[] {
  return readdirSync(root, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/** Drops the files under `root` from the page cache (flushed first: dirty pages are not dropped). */
function evict(root: string): void {
  const script = [
    'import os, sys',
    'for base, _, names in os.walk(sys.argv[1]):',
    '  for name in names:',
    '    fd = os.open(os.path.join(base, name), os.O_RDONLY)',
    '    try:',
    '      os.fdatasync(fd)',
    '      os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)',
    '    finally:',
    '      os.close(fd)',
  ].join('\n');
  const done = spawnSync('python3', ['-c', script, root], { encoding: 'utf8' });
  if (done.status !== 0) throw new Error(`could not evict the store from the page cache: ${done.stderr}`);
}

/** Bytes of the files under `root` in the page cache now (fincore), or undefined where fincore is missing. */
function cachedBytes(root: string): number | undefined {
  const files = allFiles(root);
  const done = spawnSync('fincore', ['--bytes', '--noheadings', '--raw', '--output', 'RES', ...files], {
    encoding: 'utf8',
    maxBuffer: 16 * MB,
  });
  if (done.status !== 0) return undefined;
  return done.stdout
    .split('\n')
    .filter(Boolean)
    .reduce((sum, line) => sum + Number(line), 0);
}

// ---- The queries ----

interface BenchQuery {
  readonly name: string;
  readonly query: SearchQuery;
  /** The sessions the query may look in (a plain scan reads only their files); undefined: all. */
  readonly sessions?: readonly string[];
}

function benchQueries(generated: Generated): BenchQuery[] {
  const base = { caseSensitive: false, offset: 0, limit: 20, context: 1 };
  const codex = generated.sessions.filter((s) => s.label === 'codex').map((s) => s.id);
  const one = generated.sessions.find((s) => s.label === 'terminal')?.id as string;
  return [
    { name: `rare word (${RARE_WORD})`, query: { ...base, pattern: RARE_WORD } },
    { name: 'common word (timeout)', query: { ...base, pattern: 'timeout' } },
    { name: 'two words (cache miss)', query: { ...base, pattern: 'cache miss' } },
    { name: 'phrase (connection reset by peer)', query: { ...base, pattern: 'connection reset by peer' } },
    {
      name: 'common word, origin codex',
      query: { ...base, pattern: 'timeout', origin: 'codex' },
      sessions: codex,
    },
    {
      name: 'two words, one session',
      query: { ...base, pattern: 'cache miss', sessions: [one] },
      sessions: [one],
    },
  ];
}

/**
 * The floor: a plain scan of every content file the query may look in, counting the lines that hold the pattern
 * (case-insensitive), as a search without an index must to rank and count.
 */
function plainScan(root: string, bench: BenchQuery): { ms: number; matches: number; bytes: number } {
  const pattern = new RegExp(bench.query.pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi');
  const start = performance.now();
  let matches = 0;
  let bytes = 0;
  for (const file of contentFiles(root, bench.sessions)) {
    const data = readFileSync(file);
    bytes += data.length;
    const text = data.toString('utf8');
    pattern.lastIndex = 0;
    for (let found = pattern.exec(text); found !== null; found = pattern.exec(text)) {
      matches++;
      const end = text.indexOf('\n', found.index);
      if (end < 0) break;
      pattern.lastIndex = end + 1; // one match per line
    }
  }
  return { ms: performance.now() - start, matches, bytes };
}

// ---- The measures ----

async function warmAndScan(root: string, queries: BenchQuery[]): Promise<void> {
  const search = new StoreSearch({ root }, WORKER_DIR);
  try {
    for (const bench of queries) {
      let page: SearchPage;
      const times: number[] = [];
      try {
        page = await search.search(bench.query); // the first: the worker started, the index's pages read
        for (let i = 0; i < 7; i++) {
          const start = performance.now();
          page = await search.search(bench.query);
          times.push(performance.now() - start);
          if ((times[0] as number) > REPEAT_UNDER_MS) break;
        }
      } catch (error) {
        report(`${bench.name}: first page, warm`, `no answer: ${errorMessage(error)}`, under(150, 'ms'), NaN);
        continue;
      }
      const warm = median(times);
      const scan = plainScan(root, bench);
      const runs = times.length === 1 ? ' (1 run)' : '';
      const found = `${page.hits.length} hits, ${page.matches}${page.exact ? '' : '+'} matches (scan: ${scan.matches})`;
      report(`${bench.name}: first page, warm`, `${ms(warm)}${runs}; ${found}`, under(150, 'ms'), warm);
      if (page.hits.length === 0 || (page.exact && page.matches !== scan.matches)) {
        failures++;
        console.log(`  MISS: the search's matches differ from the scan's for ${bench.name}`);
      }
      report(
        `${bench.name}: vs plain scan of ${(scan.bytes / MB).toFixed(0)} MB`,
        `scan ${ms(scan.ms)} = ${(scan.ms / warm).toFixed(1)}x the search`,
        atLeast(20),
        scan.ms / warm,
      );
    }
  } finally {
    await search.dispose();
  }
}

async function cold(root: string, queries: BenchQuery[]): Promise<void> {
  for (const [i, bench] of queries.entries()) {
    evict(root);
    const left = cachedBytes(root);
    let measured: { ms: number; hits: number };
    try {
      measured = JSON.parse(await runChild(['cold', root, JSON.stringify(bench.query)])) as typeof measured;
    } catch (error) {
      report(`${bench.name}: first page, cold`, `no answer: ${errorMessage(error)}`, under(1000, 'ms'), NaN);
      continue;
    }
    const note = left === undefined ? '' : `; ${(left / MB).toFixed(1)} MB of the store cached at start`;
    report(
      `${bench.name}: first page, cold`,
      `${ms(measured.ms)}; ${measured.hits} hits${i === 0 ? note : ''}`,
      under(1000, 'ms'),
      measured.ms,
    );
  }
}

/** In a new process, on an evicted store: the time from opening the search to the first page of one query. */
async function childCold(root: string, query: string): Promise<void> {
  const start = performance.now();
  const search = new StoreSearch({ root }, WORKER_DIR);
  const page = await search.search(JSON.parse(query) as SearchQuery);
  const elapsed = performance.now() - start;
  await search.dispose();
  process.stdout.write(JSON.stringify({ ms: elapsed, hits: page.hits.length }));
}

async function memory(root: string): Promise<void> {
  const m = JSON.parse(await runChild(['memory', root])) as Record<
    'baseMb' | 'openedMb' | 'peakMb' | 'queries',
    number
  >;
  report(
    `peak memory of a process that only searches (${m.queries} queries)`,
    `${m.peakMb.toFixed(1)} MB resident (VmHWM; ${m.baseMb.toFixed(1)} MB before the search opened, ${m.openedMb.toFixed(1)} MB once its worker had opened the index)`,
    under(100, 'MB'),
    m.peakMb,
  );
}

function status(field: string): number {
  const found = new RegExp(`^${field}:\\s+(\\d+) kB$`, 'm').exec(readFileSync('/proc/self/status', 'utf8'));
  return Number(found?.[1] ?? NaN) / 1024;
}

/** In a new process: every bench query three times, then the process's peak resident memory. */
async function childMemory(root: string): Promise<void> {
  const generated = JSON.parse(readFileSync(path.join(root, 'bench-ready.json'), 'utf8')) as Generated;
  const baseMb = status('VmRSS');
  const search = new StoreSearch({ root }, WORKER_DIR);
  await search.stats();
  const openedMb = status('VmHWM'); // the worker started and the index opened
  let queries = 0;
  for (const bench of benchQueries(generated))
    for (const offset of [0, 20]) {
      // A query the search gives up on (its time limit) still used the memory measured.
      await search.search({ ...bench.query, offset }).catch(() => undefined);
      queries++;
    }
  const peakMb = status('VmHWM');
  await search.dispose();
  process.stdout.write(JSON.stringify({ baseMb, openedMb, peakMb, queries }));
}

/** 100 MB of output in 1 MB pieces, as a command writes it. */
function hundredMb(): string[] {
  return Array.from({ length: 100 }, (_, i) => logText(1_000_000 + i, MB, false));
}

/** Stores `pieces` as one growing command output (as the terminal capture does), poking `search` after each. */
async function storeOutput(root: string, pieces: string[], search?: StoreSearch): Promise<number> {
  const store = await Store.open(root, { durability: 'process' });
  const start = performance.now();
  const writer = await store.create({ name: 'big output', origin: { kind: 'terminal' } });
  const createdAt = new Date().toISOString();
  const command = { commandLine: 'npm test', startedAt: createdAt, cut: false };
  const sink = writer.createSink();
  await sink.write(pieces[0] as string);
  const n = await writer.startGrowing(
    { source: 'tool_output', createdAt, command: { ...command, outputChars: 0, unfinished: true } },
    sink,
  );
  let chars = 0;
  for (const piece of pieces.slice(1)) {
    await sink.write(piece);
    const size = await sink.flushNow();
    chars = size.chars;
    await writer.grew(n, size);
    search?.poke();
  }
  const { ref } = await sink.seal();
  await writer.addDescriptor({ n, source: 'tool_output', createdAt, command: { ...command, outputChars: chars } }, ref);
  await writer.close();
  search?.poke();
  const elapsed = performance.now() - start;
  await store.close();
  return elapsed;
}

async function indexingCost(): Promise<void> {
  const pieces = hundredMb();
  const bytes = pieces.reduce((sum, piece) => sum + piece.length, 0);
  const plain: number[] = [];
  const indexed: number[] = [];
  const caughtUp: number[] = [];
  const rates: number[] = [];
  for (let run = 0; run < 5; run++) {
    const without = mkdtempSync(path.join(tmpdir(), 'fdref-bench-search-plain-'));
    try {
      plain.push(await storeOutput(without, pieces));
    } finally {
      rmSync(without, { recursive: true, force: true });
    }
    const withIndex = mkdtempSync(path.join(tmpdir(), 'fdref-bench-search-indexed-'));
    const search = new StoreSearch({ root: withIndex }, WORKER_DIR);
    try {
      await search.stats(); // the worker started and the index created, as in a running extension
      const start = performance.now();
      indexed.push(await storeOutput(withIndex, pieces, search));
      const stored = performance.now();
      const stats = await search.catchUp();
      const done = performance.now();
      if (stats.pendingBytes !== 0) throw new Error(`the index did not catch up: ${stats.pendingBytes} B pending`);
      caughtUp.push(done - stored);
      rates.push(bytes / MB / ((done - start) / 1000));
    } finally {
      await search.dispose();
      rmSync(withIndex, { recursive: true, force: true });
    }
  }
  const without = median(plain);
  const withIndex = median(indexed);
  report('store a 100 MB output, no index', ms(without));
  report(
    'store a 100 MB output, index catching up (poked)',
    `${ms(withIndex)} = ${(withIndex / without).toFixed(2)}x without`,
    atMost(1.3),
    withIndex / without,
  );
  report('  then the index caught up (catchUp()) after', ms(median(caughtUp)));
  report('  indexing rate (from the store start until caught up)', `${median(rates).toFixed(1)} MB/s`);
}

let childBundle: string | undefined;

/**
 * Runs this file in a new process, bundled by esbuild and run by plain Node, as the extension and the MCP server
 * run (tsx's compiler in the process would weigh on its memory and start).
 */
async function runChild(args: string[]): Promise<string> {
  if (childBundle === undefined) {
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'fdref-bench-search-child-')), 'search.js');
    await build({ entryPoints: [__filename], bundle: true, platform: 'node', outfile: file, logLevel: 'error' });
    childBundle = file;
  }
  const child = spawn(process.execPath, [childBundle, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, FDREF_BENCH_SEARCH_WORKER_DIR: WORKER_DIR },
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench child exited with ${code}`)))),
  );
}

function sizeGb(): number {
  const text = process.env['FDREF_BENCH_SEARCH_GB'] ?? '2';
  const gb = Number(text);
  if (!Number.isFinite(gb) || gb <= 0 || gb > 64)
    throw new Error(`FDREF_BENCH_SEARCH_GB must be a number of gigabytes above 0 and at most 64, not "${text}".`);
  return gb;
}

async function main(): Promise<void> {
  const [mode, root, query] = process.argv.slice(2);
  if (mode === 'cold') return childCold(root as string, query as string);
  if (mode === 'memory') return childMemory(root as string);
  const gb = sizeGb();
  console.log(`Search across the store (${gb} GB generated store; the worker from ${path.relative('.', WORKER_DIR)})`);
  const bench = await benchStore(gb);
  const { generated } = bench;
  const contentBytes = contentFiles(bench.root).reduce((sum, file) => sum + statSync(file).size, 0);
  console.log(
    bench.reused
      ? `Reusing the store generated by an earlier run (generator v${GENERATOR_VERSION}): ${bench.root}` +
          ` (it was indexed in ${(generated.indexMs / 1000).toFixed(1)} s = ${(generated.contentBytes / MB / (generated.indexMs / 1000)).toFixed(1)} MB/s)`
      : `Generated and indexed now; kept for the next run: ${bench.root}`,
  );
  const probe = new StoreSearch({ root: bench.root }, WORKER_DIR);
  const stats = await probe.stats();
  await probe.dispose();
  report(
    `store: ${generated.descriptors} descriptors in ${generated.sessions.length} sessions (${stats.driver})`,
    `${(contentBytes / MB).toFixed(0)} MB of content; index ${(stats.diskBytes / MB).toFixed(0)} MB on disk = ${((100 * stats.diskBytes) / contentBytes).toFixed(1)}% of the content`,
  );
  if (stats.pendingBytes > 0) console.log(`  (${(stats.pendingBytes / MB).toFixed(1)} MB not indexed yet)`);
  const queries = benchQueries(generated);
  await warmAndScan(bench.root, queries);
  await cold(bench.root, queries);
  await memory(bench.root);
  await indexingCost();
  if (childBundle !== undefined) rmSync(path.dirname(childBundle), { recursive: true, force: true });
  if (failures > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
