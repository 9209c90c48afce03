// Benchmarks of the core, run against the built bundle (dist/core.js): `npm run bench`.
// Each case prints its time and, measured in the same run on the same string, the ratio to a plain
// newline scan (an indexOf('\n') loop), the physical floor for anything that must look at every line.
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';

const require = createRequire(import.meta.url);
/**
 * The built core, typed from its source. The path is a constant because TypeScript follows `require('<literal>')`
 * and would type-check the bundle instead.
 */
const CORE_BUNDLE = '../dist/core.js';
/** @type {typeof import('../src/core/index.js')} */
const core = require(CORE_BUNDLE);
const { Session, extractRefs, RefStreamParser } = core;

const MB = 1024 * 1024;
let failures = 0;

/** @param {string} text */
function newlineScan(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Median wall time of `runs` calls after `warmUps` calls that let the JIT settle, in milliseconds.
 * @param {() => unknown} fn
 */
function time(fn, runs = 5, warmUps = 3) {
  for (let i = 0; i < warmUps; i++) fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/**
 * Like `time`, for a function that returns a promise.
 * @param {() => Promise<unknown>} fn
 */
async function timeAsync(fn, runs = 5, warmUps = 3) {
  for (let i = 0; i < warmUps; i++) await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

/** @typedef {{ text: string, check: (ms: number, ratio: number | undefined) => boolean }} Target */

/**
 * @param {string} name
 * @param {number} ms
 * @param {number | undefined} floorMs
 * @param {Target} target
 */
function report(name, ms, floorMs, target, extra = '') {
  const ratio = floorMs === undefined ? undefined : ms / floorMs;
  const ok = target.check(ms, ratio);
  if (!ok) failures++;
  const vs =
    ratio === undefined || floorMs === undefined
      ? ''
      : ` = ${ratio.toFixed(2)}x newline scan (${floorMs.toFixed(2)} ms)`;
  console.log(`${name.padEnd(44)} ${formatMs(ms)}${vs}  target ${target.text}  ${ok ? 'ok' : 'MISSED'}${extra}`);
}

/** @param {number} ms */
function formatMs(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`;
}

/** @type {(x: number) => Target} */
const atMost = (x) => ({ text: `<= ${x}x`, check: (_ms, ratio) => ratio !== undefined && ratio <= x });
/** @type {(ms: number) => Target} */
const under = (ms) => ({ text: `< ${formatMs(ms)}`, check: (t) => t < ms });

/**
 * Seeded pseudo-random numbers, so every run measures the same text.
 * @param {number} seed
 */
function random(seed) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

/**
 * About `size` characters of chat-like Markdown with `refs` refs spread evenly: prose lines with inline
 * code in 4% of the words, and a fenced code block (with `<` comparisons and template literals) every
 * ten blocks or so, one in twenty of them quoting a literal `<ref>` tag. `stress` makes it harsher:
 * inline code in 8% of the words and a literal `<ref>` tag in every code block.
 * @param {number} size
 * @param {number} refs
 */
function markdown(size, refs, stress = false) {
  const rnd = random(42);
  const words = [
    'the',
    'model',
    'writes',
    'code',
    'descriptor',
    'page',
    'reference',
    'output',
    'and',
    'with',
    'a',
    'file',
  ];
  const parts = [];
  let length = 0;
  let nextRef = 0;
  let blocks = 0;
  const refEvery = refs > 0 ? Math.floor(size / refs) : Infinity;
  while (length < size) {
    let block;
    if (length >= nextRef * refEvery && nextRef < refs) {
      block = `<ref id="snippet_${nextRef}">\n\`\`\`ts\nexport const value${nextRef} = ${nextRef};\n\`\`\`\n</ref>\n`;
      nextRef++;
    } else if (rnd() < 0.1) {
      blocks++;
      block =
        stress || blocks % 20 === 0
          ? '```js\nfor (let i = 0; i < n; i++) { total += values[i]; }\nconsole.log(`done <ref id="not_a_ref">`);\n```\n'
          : '```js\nfor (let i = 0; i < n; i++) { total += values[i]; }\nconsole.log(`total: ${total}`);\n```\n';
    } else {
      let line = '';
      const count = 6 + Math.floor(rnd() * 12);
      for (let i = 0; i < count; i++)
        line += (rnd() < (stress ? 0.08 : 0.04) ? '`inline code`' : words[Math.floor(rnd() * words.length)]) + ' ';
      block = line + '\n';
    }
    parts.push(block);
    length += block.length;
  }
  return parts.join('');
}

/**
 * About `size` characters of log-like lines of 30 to 130 characters.
 * @param {number} size
 */
function logText(size) {
  const rnd = random(7);
  const parts = [];
  let length = 0;
  while (length < size) {
    const line =
      `2026-11-22T00:00:${String(Math.floor(rnd() * 60)).padStart(2, '0')} INFO worker ${Math.floor(rnd() * 1e6)} ` +
      'x'.repeat(Math.floor(rnd() * 100)) +
      '\n';
    parts.push(line);
    length += line.length;
  }
  return parts.join('').slice(0, size);
}

function gcNow() {
  if (global.gc) {
    global.gc();
    global.gc();
  }
}

function heapBytes() {
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers + m.external;
}

console.log(`fdref core benchmarks on Node ${process.version}, ${new Date().toISOString()}`);

// --- <ref> extraction ---------------------------------------------------------------------------
/**
 * Feeds `text` to a stream parser in `size`-character chunks (cut beforehand: cutting is not parsing).
 * @param {string} text
 * @param {number} size
 */
function streamer(text, size) {
  /** @type {string[]} */
  const chunks = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return () => {
    const parser = new RefStreamParser();
    for (const chunk of chunks) parser.push(chunk);
    return parser.end();
  };
}

for (const [refs, target] of /** @type {[refs: number, target: Target][]} */ ([
  [10, atMost(3)],
  [10000, atMost(8)],
])) {
  const text = markdown(10 * MB, refs);
  const found = extractRefs(text).refs.length;
  if (found !== refs) throw new Error(`expected ${refs} refs, found ${found}`);
  // Medians of many runs: single runs of a few milliseconds vary by half on this machine.
  const floor = time(() => newlineScan(text), 15);
  report(
    `extractRefs, 10 MB, ${refs} refs`,
    time(() => extractRefs(text), 9),
    floor,
    target,
  );
  if (refs === 10) {
    const stream = streamer(text, 64);
    if (JSON.stringify(stream()) !== JSON.stringify(extractRefs(text)))
      throw new Error('stream and batch results differ');
    report('RefStreamParser, 10 MB in 64-char chunks', time(stream, 9), floor, atMost(6));
  }
}
{
  const text = markdown(10 * MB, 10, true);
  const floor = time(() => newlineScan(text));
  const batch = time(() => extractRefs(text));
  const stream = time(streamer(text, 64), 5);
  console.log(
    `${'harsher text (stress), 10 MB, 10 refs'.padEnd(44)} extractRefs ${(batch / floor).toFixed(2)}x, ` +
      `RefStreamParser 64-char chunks ${(stream / floor).toFixed(2)}x newline scan (${floor.toFixed(2)} ms)  (informative)`,
  );
}

// Linearity: pathological inputs at two sizes; time should grow about tenfold, never a hundredfold.
/** @type {[name: string, make: (n: number) => string][]} */
const pathological = [
  ['100k unclosed <ref id="a">', (n) => '<ref id="a">'.repeat(n)],
  ['lone backticks', (n) => 'a` '.repeat(n)],
  [
    'backtick runs of growing length',
    (n) => Array.from({ length: Math.sqrt(n * 10) | 0 }, (_, k) => '`'.repeat(k + 1) + ' x ').join(''),
  ],
  ['``` lines', (n) => '```\n'.repeat(n)],
  ['<ref without >', (n) => '<ref '.repeat(n)],
  ['one open backtick, then tags', (n) => '`' + 'x <ref id="a">y</ref> '.repeat(n / 5)],
];
for (const [name, make] of pathological) {
  const figures = [20_000, 200_000].map((n) => {
    const text = make(n);
    const batch = time(() => extractRefs(text), 3);
    const stream = time(streamer(text, 64), 3);
    return `${(text.length / 1e6).toFixed(2)}M chars: batch ${batch.toFixed(1)} ms, stream ${stream.toFixed(1)} ms`;
  });
  console.log(`${('linearity: ' + name).padEnd(44)} ${figures.join(' | ')}`);
}

// Nested refs: 100,000 refs, each inside the one before, would each hold the text of all those inside it
// (5 billion characters for this 1.9 MB message). Floor: the same tags side by side, a message of the same
// length with as many refs and no nesting. Memory: what a session holds after ingesting it, after a full
// collection, as a multiple of the message (the refs of a message may hold at most 4 times its length).
{
  const n = 100_000;
  const nested = '<ref id="a">x'.repeat(n) + '</ref>'.repeat(n);
  const flat = '<ref id="a">x</ref>'.repeat(n);
  if (nested.length !== flat.length) throw new Error('the nested and flat messages differ in length');
  /** @type {[name: string, run: (text: string) => unknown, target: Target][]} */
  const runs = [
    ['extractRefs', (text) => extractRefs(text), atMost(3)],
    ['stream, 64-char chunks', (text) => streamer(text, 64)(), atMost(3)],
    ['ingested by a Session', (text) => new Session().ingestAssistantMessage(text), atMost(3)],
  ];
  for (const [name, run, target] of runs) {
    const floor = time(() => run(flat), 5, 2);
    const ms = time(() => run(nested), 5, 2);
    const ratio = ms / floor;
    const ok = target.check(ms, ratio);
    if (!ok) failures++;
    console.log(
      `${`nested refs 100k deep: ${name}`.padEnd(44)} ${formatMs(ms)} = ${ratio.toFixed(2)}x the same refs side by side ` +
        `(${formatMs(floor)})  target ${target.text}  ${ok ? 'ok' : 'MISSED'}`,
    );
  }
  gcNow();
  const before = heapBytes();
  const held = new Session();
  held.ingestAssistantMessage(nested);
  gcNow();
  const ratio = (heapBytes() - before) / nested.length;
  const ok = ratio <= 6 && held.refs().length === 1;
  if (!ok) failures++;
  console.log(
    `${'nested refs 100k deep: held by a Session'.padEnd(44)} ${((heapBytes() - before) / MB).toFixed(1)} MB = ${ratio.toFixed(2)}x the message ` +
      `(${(nested.length / MB).toFixed(1)} MB)  target <= 6x  ${ok ? 'ok' : 'MISSED'}`,
  );
}

// --- a 100 MB descriptor ------------------------------------------------------------------------
// Memory: heap growth from holding the content alone, then from holding it in a descriptor (with its
// line index and page table), both measured after a full collection.
gcNow();
const m0 = heapBytes();
const big = logText(100 * MB);
gcNow();
const m1 = heapBytes();
let session = new Session({ maxDirectOutputChars: 8000 });
session.wrapToolOutput('shell', big);
gcNow();
const m2 = heapBytes();
{
  const ratio = (m2 - m0) / (m1 - m0);
  const ok = ratio <= 1.15;
  if (!ok) failures++;
  console.log(
    `${'memory held by a 100 MB descriptor'.padEnd(44)} ${((m2 - m0) / MB).toFixed(1)} MB = ${ratio.toFixed(3)}x its content ` +
      `(${((m1 - m0) / MB).toFixed(1)} MB)  target <= 1.15x  ${ok ? 'ok' : 'MISSED'}`,
  );
}

const floor = time(() => newlineScan(big), 3);
const createMs = time(() => {
  session = new Session({ maxDirectOutputChars: 8000 });
  session.wrapToolOutput('shell', big);
}, 3);
report('create a 100 MB descriptor', createMs, floor, atMost(3), '  (line index + page table)');

const descriptor = session.getDescriptor('fd:1');
if (!descriptor) throw new Error('the session holds no fd:1');
// A descriptor made in memory holds a `Content` (one read from the store would hold a `StoredContent`).
const content = /** @type {import('../src/core/index.js').Content} */ (descriptor.content);
const table = content.pageTable(4000);
const pages = table.length - 1;
const rnd = random(1);
const picks = Array.from({ length: 2000 }, () => 1 + Math.floor(rnd() * pages));
gcNow(); // collect what the setup left behind, so the reads below are not charged for it
const readPage = (/** @type {number} */ page) => content.text.slice(table[page - 1], table[page]);
{
  for (const page of picks) readPage(page);
  const start = performance.now();
  for (const page of picks) readPage(page);
  report(
    'read one page (core), mean of 2000 random',
    (performance.now() - start) / picks.length,
    undefined,
    under(0.05),
  );
}
{
  for (let i = 0; i < 3; i++) for (const page of picks) await session.callTool('read_fd', { fd: 'fd:1', start: page });
  const start = performance.now();
  for (const page of picks) await session.callTool('read_fd', { fd: 'fd:1', start: page });
  report(
    'read one page (read_fd, XML), mean of 2000',
    (performance.now() - start) / picks.length,
    undefined,
    under(0.05),
  );
}
const readAll = () => {
  let total = 0;
  for (let page = 1; page <= pages; page++) total += readPage(page).length;
  if (total !== big.length) throw new Error('pages do not add up to the content');
};
report(`read all ${pages} pages in order (core)`, time(readAll, 3), floor, atMost(3));
// Each call validates its arguments, finds the page and its lines in tables and checks the page for characters XML
// must escape: a regular expression over every character, several times the newline scan's cost on its own.
report(
  'read all pages in order (read_fd, XML)',
  await timeAsync(
    async () => {
      for (let page = 1; page <= pages; page++) await session.callTool('read_fd', { fd: 'fd:1', start: page });
    },
    5,
    1,
  ),
  floor,
  atMost(12),
);
report(
  'fork() of it',
  time(() => session.fork(), 20),
  undefined,
  under(1),
);

// --- terminal output ----------------------------------------------------------------------------
// The host hands a terminal's output over in chunks of up to megabytes; CommandOutput filters each in slices and
// yields between them. The longest time the thread is held while a 16 MB chunk goes through must stay under a
// frame, and the whole chunk a small multiple of reading each character once.
{
  const { monitorEventLoopDelay } = await import('node:perf_hooks');
  const { CommandOutput, TailOutput } = core;
  const line = '\x1b[32mok\x1b[0m 0123456789 output line\r\n';
  const raw = line.repeat((16 * MB) / line.length);
  const push = async () => {
    const output = new CommandOutput(new TailOutput(Number.POSITIVE_INFINITY), 64 * MB);
    await output.push(raw);
    await output.end();
  };
  await push(); // warm-up
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const start = performance.now();
  await push();
  const ms = performance.now() - start;
  histogram.disable();
  // The floor of a filter that must look at every character: a charCodeAt loop over the same text.
  const charScan = () => {
    let sum = 0;
    for (let i = 0; i < raw.length; i++) sum += raw.charCodeAt(i);
    return sum;
  };
  const floor = time(charScan, 5, 2);
  const ratio = ms / floor;
  const ok = ratio <= 12;
  if (!ok) failures++;
  console.log(
    `${'terminal: filter a 16 MB chunk'.padEnd(44)} ${formatMs(ms)} = ${ratio.toFixed(2)}x a charCodeAt loop (${formatMs(floor)})  target <= 12x  ${ok ? 'ok' : 'MISSED'}`,
  );
  report('terminal: longest block while filtering it', histogram.max / 1e6, undefined, under(16));
}

// --- Ctrl+T ---------------------------------------------------------------------------------------
// One keystroke filters the symbols the first query built: the most it looks at is every symbol of the sessions it
// searches (20 sessions of 2,000 refs), for a query that matches few. The floor is a plain `includes` over the same
// names; the target is a frame, whatever the store holds beyond those sessions.
{
  const { matchingSymbols, SYMBOL_SESSIONS, SYMBOLS_PER_SESSION } = core;
  const groups = Array.from({ length: SYMBOL_SESSIONS }, (_, s) =>
    Array.from({ length: SYMBOLS_PER_SESSION }, (_, r) => ({ lowerName: `ref:parse_config_${s}_${r}` })),
  );
  const query = 'parse_config_7_1999';
  const matchMs = time(() => matchingSymbols(groups, query), 9, 5);
  const floorMs = time(
    () => {
      let n = 0;
      for (const group of groups) for (const item of group) if (item.lowerName.includes(query)) n++;
      return n;
    },
    9,
    5,
  );
  const ok = matchMs < 16;
  if (!ok) failures++;
  console.log(
    `${`Ctrl+T keystroke, ${SYMBOL_SESSIONS} x ${SYMBOLS_PER_SESSION} symbols`.padEnd(44)} ${formatMs(matchMs)} = ` +
      `${(matchMs / floorMs).toFixed(2)}x a plain includes scan (${formatMs(floorMs)})  target < 16 ms  ${ok ? 'ok' : 'MISSED'}`,
  );
}

// --- entity references ----------------------------------------------------------------------------
// The Structs API emulator is TypeScript under test/support; bundle it for plain node first.
{
  const { buildSync } = require('esbuild');
  const emulatorBundle = new URL('../out/bench/structsApi.js', import.meta.url).pathname;
  buildSync({
    entryPoints: [new URL('../test/support/structsApi/index.ts', import.meta.url).pathname],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: emulatorBundle,
    logLevel: 'warning',
  });
  const { extractEntityIds, EntityResolver } = core;

  // A list response of 10,000 structs with 10 string values each: IDs, empty references, numbers as
  // strings, words; 100,000 string values in all.
  const structs = Array.from({ length: 10_000 }, (_, i) => ({
    id: `5-${i + 1}`,
    type: String(1 + (i % 22)),
    creator: `structs1${String(i).padStart(38, 'q')}`,
    owner: `1-${1 + (i % 640)}`,
    locationType: 'planet',
    locationId: `2-${1 + (i % 640)}`,
    operatingAmbit: i % 2 ? 'land' : 'water',
    slot: String(i % 4),
    destinationId: i % 3 ? '' : `9-${1 + (i % 640)}`,
    blockStartBuild: String(100_000 + i),
  }));
  const text = JSON.stringify({ Struct: structs, pagination: { next_key: null, total: '10000' } });
  const payload = JSON.parse(text);
  const parseMs = time(() => JSON.parse(text), 9, 5);
  const extractMs = time(() => extractEntityIds(payload), 9, 5);
  const ratio = extractMs / parseMs;
  const extractOk = ratio <= 2;
  if (!extractOk) failures++;
  console.log(
    `${'extractEntityIds, 100,000 string values'.padEnd(44)} ${formatMs(extractMs)} = ${ratio.toFixed(2)}x JSON.parse (${formatMs(parseMs)}, ` +
      `${(text.length / MB).toFixed(1)} MB)  target <= 2x  ${extractOk ? 'ok' : 'MISSED'}`,
  );

  const worker = new Worker(new URL('./structsApiWorker.mjs', import.meta.url), {
    workerData: { bundle: emulatorBundle, options: { players: 640, latencyMs: 20 } },
  });
  /**
   * @param {string} message
   * @param {string} answer the type of the reply to wait for
   */
  const ask = async (message, answer) => {
    worker.postMessage(message);
    for (;;) {
      const [reply] = await once(worker, 'message');
      if (reply.type === answer) return reply;
    }
  };
  /** @type {{ baseUrl: string, ids: Record<string, string[]> }[]} */
  const [{ baseUrl, ids: idsOf }] = await once(worker, 'message');
  try {
    // Warm up connections and the JIT on other ids, then measure on 500 distinct players.
    await Promise.all(idsOf.planet.slice(0, 100).map((id) => new EntityResolver({ baseUrl }).resolve(id)));
    await ask('resetStats', 'reset');
    const ids = idsOf.player.slice(0, 500);
    const resolver = new EntityResolver({ baseUrl, maxParallel: 5 });
    const start = performance.now();
    const results = await Promise.all(ids.map((id) => resolver.resolve(id)));
    const ms = performance.now() - start;
    const failed = results.filter((entity) => entity.reference_status !== 'resolved').length;
    if (failed > 0) throw new Error(`${failed} of 500 entities failed to resolve`);
    const stats = await ask('stats', 'stats');
    const ideal = (ids.length / 5) * 20;
    const ok = ms <= ideal * 1.15 && stats.maxInFlight <= 5 && stats.total === 500;
    if (!ok) failures++;
    console.log(
      `${'resolve 500 ids, 20 ms latency, 5 parallel'.padEnd(44)} ${formatMs(ms)} = ${(ms / ideal).toFixed(3)}x ideal (${formatMs(ideal)}), ` +
        `${stats.total} requests, at most ${stats.maxInFlight} in flight  target <= 1.15x  ${ok ? 'ok' : 'MISSED'}  (emulator on its own thread)`,
    );
  } finally {
    worker.postMessage('close');
    await once(worker, 'exit');
  }
}

console.log(failures === 0 ? 'all targets met' : `${failures} target(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
