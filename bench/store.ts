// Session store benchmark (issue 12 §1), run by `npm run bench` (tsx bench/store.ts). Each figure is also given
// as a ratio to its floor, measured in the same run on the same disk: writing the same bytes once to a new file
// (flushed, as the store flushes), or reading the same bytes once. "Cold" means a process that has read nothing
// from the store yet; the operating system's file cache is warm (the bench has just written the files).
import { spawn } from 'node:child_process';
import { promises as fs, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Store } from '../src/core/store';
import { runTool } from '../src/core/tools/toolTable';
import { nodeFileSystem } from '../src/core/files/fileSystemPort';
import type { ToolSession } from '../src/core/tools/toolContext';

const MB = 1024 * 1024;
let failures = 0;

interface Target {
  readonly text: string;
  readonly check: (value: number) => boolean;
}
const under = (limit: number, unit: string): Target => ({ text: `< ${limit} ${unit}`, check: (v) => v < limit });
const atMost = (ratio: number): Target => ({ text: `<= ${ratio}x`, check: (v) => v <= ratio });

function report(
  name: string,
  value: string,
  floor: string | undefined,
  ratio: number | undefined,
  target: Target | undefined,
  checked = ratio,
): void {
  const ok = target === undefined || checked === undefined || target.check(checked);
  if (!ok) failures++;
  const vs = ratio === undefined ? '' : ` = ${ratio.toFixed(2)}x floor (${floor})`;
  console.log(`${name.padEnd(52)} ${value}${vs}${target ? `  target ${target.text}  ${ok ? 'ok' : 'MISSED'}` : ''}`);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

/** Total bytes of the files under `folder`. */
function bytesUnder(folder: string): number {
  let total = 0;
  for (const entry of readdirSync(folder, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath, entry.name)).size;
  return total;
}

/** The longest time the event loop was held while `work` ran (a timer asks every millisecond). */
async function longestStep<T>(work: () => Promise<T>): Promise<{ result: T; longestMs: number }> {
  let longestMs = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    longestMs = Math.max(longestMs, now - last);
    last = now;
  }, 1);
  try {
    const result = await work();
    longestMs = Math.max(longestMs, performance.now() - last);
    return { result, longestMs };
  } finally {
    clearInterval(timer);
  }
}

/** The floor of writing `bytes` once: a new file, written, flushed, closed. */
async function writeFloorMs(folder: string, bytes: number, runs: number): Promise<number> {
  const data = Buffer.alloc(bytes, 0x61);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const handle = await fs.open(path.join(folder, `floor-${i}`), 'wx');
    await handle.write(data);
    await handle.datasync();
    await handle.close();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** The floor of reading `length` bytes at `position` of `file` once: open, read, close. */
async function readFloorMs(file: string, position: number, length: number, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    const handle = await fs.open(file, 'r');
    await handle.read(Buffer.alloc(length), 0, length, position);
    await handle.close();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function addRefTo100Mb(root: string): Promise<void> {
  const store = await Store.open(path.join(root, 'add'));
  const writer = await store.create({ name: 'big', origin: { kind: 'capture' } });
  // Built flat (String.prototype.repeat makes a tree of halves that the first read flattens, for 300 ms).
  const big = Buffer.alloc(100 * MB)
    .fill('a line of tool output, like a build log or a listing\n')
    .toString('latin1');
  const written = await longestStep(async () =>
    writer.addDescriptor({ source: 'tool_output', createdAt: new Date().toISOString() }, await writer.putContent(big)),
  );
  report(
    'write a 100 MB descriptor: longest main-thread step',
    `${written.longestMs.toFixed(1)} ms`,
    undefined,
    undefined,
    under(16, 'ms'),
    written.longestMs,
  );
  const folder = store.sessionFolder(writer.id);
  const runs = 21;
  const times: number[] = [];
  const bytes: number[] = [];
  let longest = 0;
  for (let i = 0; i < runs; i++) {
    const text = `${String(i).padStart(4, '0')} ${'k'.repeat(1019)}`; // 1 KB, different each time
    const before = bytesUnder(folder);
    const start = performance.now();
    const { longestMs } = await longestStep(async () =>
      writer.addRefVersion({ id: `ref${i}`, createdAt: new Date().toISOString() }, await writer.putContent(text)),
    );
    times.push(performance.now() - start);
    bytes.push(bytesUnder(folder) - before);
    longest = Math.max(longest, longestMs);
  }
  const floorMs = await writeFloorMs(root, 1024, runs);
  const addBytes = median(bytes);
  const addMs = median(times);
  report('add a 1 KB ref to a session holding 100 MB: bytes', `${addBytes} B`, '1024 B', addBytes / 1024, atMost(4));
  report(
    'add a 1 KB ref to a session holding 100 MB: time',
    `${addMs.toFixed(2)} ms`,
    `${floorMs.toFixed(2)} ms`,
    addMs / floorMs,
    atMost(6),
  );
  report(
    'add a 1 KB ref: longest main-thread step',
    `${longest.toFixed(2)} ms`,
    undefined,
    undefined,
    under(16, 'ms'),
    longest,
  );
  await writer.close();
}

async function listFiftySessions(root: string): Promise<void> {
  const storeRoot = path.join(root, 'list');
  const store = await Store.open(storeRoot, { durability: 'process' });
  for (let i = 0; i < 50; i++) {
    const writer = await store.create({ name: `Session ${i}`, origin: { kind: 'chat' }, chat: true });
    const text = `session ${i}\n${Buffer.alloc(10 * MB)
      .fill('some content of ten megabytes\n')
      .toString('latin1')}`;
    await writer.addDescriptor(
      { source: 'tool_output', createdAt: new Date().toISOString() },
      await writer.putContent(text),
    );
    await writer.close();
  }
  const measured = await runChild(['list', storeRoot]);
  const { listMs, floorMs, heapMb, rssMb, sessions } = JSON.parse(measured) as Record<string, number>;
  report(
    `first listing of ${sessions} sessions x 10 MB: time`,
    `${listMs?.toFixed(2)} ms`,
    `${floorMs?.toFixed(2)} ms`,
    (listMs as number) / (floorMs as number),
    under(100, 'ms'),
    listMs,
  );
  report(
    `first listing of ${sessions} sessions x 10 MB: memory`,
    `${heapMb?.toFixed(2)} MB heap, ${rssMb?.toFixed(2)} MB resident`,
    undefined,
    undefined,
    under(30, 'MB'),
    Math.max(heapMb as number, rssMb as number),
  );
}

/** In a fresh process: lists the store after reading the 50 metadata files raw (the floor), and measures both. */
async function childList(storeRoot: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  const metas = readdirSync(path.join(storeRoot, 'sessions')).map((id) =>
    path.join(storeRoot, 'sessions', id, 'meta.json'),
  );
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  const rssBefore = process.memoryUsage().rss;
  const listStart = performance.now();
  const store = await Store.open(storeRoot, { durability: 'process' });
  const { sessions } = await store.list();
  const listMs = performance.now() - listStart;
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / MB;
  const rssMb = (process.memoryUsage().rss - rssBefore) / MB;
  const floorStart = performance.now();
  await Promise.all(metas.map((file) => fs.readFile(file)));
  const floorMs = performance.now() - floorStart;
  process.stdout.write(JSON.stringify({ listMs, floorMs, heapMb, rssMb, sessions: sessions.length }));
}

async function pageOf100Mb(root: string): Promise<void> {
  const storeRoot = path.join(root, 'add');
  const measured = JSON.parse(await runChild(['page', storeRoot])) as Record<string, number>;
  const { coldMs, openMs, warmMs, otherMs, pageBytes, pageAt } = measured;
  const file = (measured as unknown as { file: string }).file;
  const floor = await readFloorMs(file, pageAt as number, pageBytes as number, 21);
  report(
    'one page of a 100 MB descriptor, cold: open store, list, read',
    `${openMs?.toFixed(2)} ms`,
    undefined,
    undefined,
    under(100, 'ms'),
    openMs,
  );
  report(
    'one page of a 100 MB descriptor, cold: the page',
    `${coldMs?.toFixed(2)} ms`,
    `${floor.toFixed(3)} ms`,
    (coldMs as number) / floor,
    under(100, 'ms'),
    coldMs,
  );
  report(
    'one page of a 100 MB descriptor, warm: the same page',
    `${warmMs?.toFixed(3)} ms`,
    `${floor.toFixed(3)} ms`,
    (warmMs as number) / floor,
    atMost(5),
  );
  report(
    'one page of a 100 MB descriptor, warm: another page',
    `${otherMs?.toFixed(3)} ms`,
    `${floor.toFixed(3)} ms`,
    (otherMs as number) / floor,
    atMost(5),
  );
}

/** In a fresh process: the first page read of the 100 MB descriptor, then the same page and another. */
async function childPage(storeRoot: string): Promise<void> {
  const openStart = performance.now();
  const store = await Store.open(storeRoot);
  const id = (await store.list()).sessions[0]?.id as string;
  const reader = await store.read(id);
  const content = reader?.lookup('fd:1')?.content;
  if (!content) throw new Error('no fd:1');
  const openMs = performance.now() - openStart;
  const page = 12_345;
  let start = performance.now();
  const text = await content.page(page, 4000);
  const coldMs = performance.now() - start;
  const times: number[] = [];
  for (let i = 0; i < 21; i++) {
    start = performance.now();
    await content.page(page, 4000);
    times.push(performance.now() - start);
  }
  const others: number[] = [];
  for (let i = 0; i < 21; i++) {
    start = performance.now();
    await content.page(20_000 + i, 4000);
    others.push(performance.now() - start);
  }
  const table = await content.pageTable(4000);
  const pageAt = table[page - 1] as number; // ASCII: characters are bytes
  process.stdout.write(
    JSON.stringify({
      openMs,
      coldMs,
      warmMs: median(times),
      otherMs: median(others),
      pageBytes: Buffer.byteLength(text),
      pageAt,
      file: content.file,
    }),
  );
}

/** Opening a chat on the session holding the 100 MB descriptor, in a fresh process, as the extension opens one. */
async function chatOf100Mb(root: string): Promise<void> {
  const m = JSON.parse(await runChild(['chat', path.join(root, 'add')])) as Record<string, number>;
  report(
    'open a chat on a session holding 100 MB: time',
    `${m['openMs']?.toFixed(2)} ms`,
    undefined,
    undefined,
    under(100, 'ms'),
    m['openMs'],
  );
  const readKb = (m['readBytes'] as number) / 1024;
  report(
    'open a chat on a session holding 100 MB: bytes read',
    `${readKb.toFixed(1)} KB`,
    undefined,
    undefined,
    under(1024, 'KB'),
    readKb,
  );
  report(
    'open a chat on a session holding 100 MB: heap',
    `${m['heapMb']?.toFixed(1)} MB`,
    undefined,
    undefined,
    under(30, 'MB'),
    m['heapMb'],
  );
  report(
    'then read_fd page 2 of fd:1',
    `${m['pageMs']?.toFixed(2)} ms`,
    undefined,
    undefined,
    under(100, 'ms'),
    m['pageMs'],
  );
}

/** Bytes this process has read through system calls so far (Linux; 0 elsewhere). */
async function bytesReadSoFar(): Promise<number> {
  const io = await fs.readFile('/proc/self/io', 'utf8').catch(() => '');
  return Number(/^rchar: (\d+)$/m.exec(io)?.[1] ?? 0);
}

async function childChat(storeRoot: string): Promise<void> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  const start = performance.now();
  const readBefore = await bytesReadSoFar();
  const store = await Store.open(storeRoot);
  const id = (await store.list()).sessions[0]?.id as string;
  const writer = await store.openWriter(id);
  const { session } = await (await store.read(id))!.materialize();
  const openMs = performance.now() - start;
  const readBytes = (await bytesReadSoFar()) - readBefore;
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / MB;
  const pageStart = performance.now();
  await session.callTool('read_fd', { fd: 'fd:1', start: 2 });
  const pageMs = performance.now() - pageStart;
  await writer.close();
  await store.close();
  process.stdout.write(JSON.stringify({ openMs, readBytes, heapMb, pageMs }));
}

/** search_fd over the 100 MB descriptor, in a fresh process: a pattern no line has and one every line has. */
async function searchOf100Mb(root: string): Promise<void> {
  const measured = JSON.parse(await runChild(['search', path.join(root, 'add')])) as Record<string, number>;
  for (const kind of ['none', 'every'] as const) {
    const ms = measured[`${kind}Ms`] as number;
    const label = kind === 'none' ? 'no line matches' : 'every line matches';
    report(
      `search_fd over 100 MB (${label}): time per MB`,
      `${(ms / 100).toFixed(2)} ms`,
      undefined,
      undefined,
      under(20, 'ms'),
      ms / 100,
    );
    report(
      `search_fd over 100 MB (${label}): longest step`,
      `${(measured[`${kind}StepMs`] as number).toFixed(1)} ms`,
      undefined,
      undefined,
      under(16, 'ms'),
      measured[`${kind}StepMs`],
    );
  }
  report(
    'search_fd over 100 MB: memory beyond the line index',
    `${(measured['heapMb'] as number).toFixed(1)} MB heap, ${(measured['extraMb'] as number).toFixed(1)} MB resident`,
    undefined,
    undefined,
    under(64, 'MB'),
    measured['heapMb'],
  );
}

/** In a fresh process: search the 100 MB descriptor twice, measuring time, the longest step and peak memory. */
async function childSearch(storeRoot: string): Promise<void> {
  const store = await Store.open(storeRoot);
  const id = (await store.list()).sessions[0]?.id as string;
  const reader = await store.read(id);
  if (!reader) throw new Error('no session');
  const session: ToolSession = {
    lookup: (fd) => reader.lookup(fd),
    knownIds: () => reader.descriptors().map((d) => d.id),
    refs: () => reader.refs(),
    fds: () => reader.descriptors().map((descriptor) => ({ descriptor })),
    createFd: () => Promise.reject(new Error('read-only bench session')),
  };
  const context = { session, pageSize: 4000, workspaceRoots: [], fileSystem: nodeFileSystem };
  await reader.lookup('fd:1')?.content.index(); // the line index is read by any range read; not counted here
  (globalThis as { gc?: () => void }).gc?.();
  const base = process.memoryUsage();
  let peakRss = base.rss;
  let peakHeap = base.heapUsed;
  const sampler = setInterval(() => {
    const now = process.memoryUsage();
    peakRss = Math.max(peakRss, now.rss);
    peakHeap = Math.max(peakHeap, now.heapUsed);
  }, 5);
  const out: Record<string, number> = {};
  try {
    for (const [kind, pattern] of [
      ['none', 'needle that is not there'],
      ['every', 'tool output'],
    ] as const) {
      const start = performance.now();
      const { result, longestMs } = await longestStep(() => runTool(context, 'search_fd', { fd: 'fd:1', pattern }));
      out[`${kind}Ms`] = performance.now() - start;
      out[`${kind}StepMs`] = longestMs;
      if (!result.ok) throw new Error(result.text);
    }
  } finally {
    clearInterval(sampler);
  }
  out['extraMb'] = (peakRss - base.rss) / MB;
  out['heapMb'] = (peakHeap - base.heapUsed) / MB;
  process.stdout.write(JSON.stringify(out));
}

function runChild(args: string[]): Promise<string> {
  const child = spawn(process.execPath, ['--expose-gc', '--require', require.resolve('tsx/cjs'), __filename, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
  return new Promise((resolve, reject) =>
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`bench child exited with ${code}`)))),
  );
}

async function main(): Promise<void> {
  const [mode, storeRoot] = process.argv.slice(2);
  if (mode === 'list') return childList(storeRoot as string);
  if (mode === 'page') return childPage(storeRoot as string);
  if (mode === 'search') return childSearch(storeRoot as string);
  if (mode === 'chat') return childChat(storeRoot as string);
  const root = mkdtempSync(path.join(tmpdir(), 'fdref-bench-store-'));
  try {
    console.log('Session store (fsync durability for writes; ratios to writing or reading the same bytes once)');
    await addRefTo100Mb(root);
    await pageOf100Mb(root);
    await searchOf100Mb(root);
    await chatOf100Mb(root);
    await listFiftySessions(root);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
  if (failures > 0) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
