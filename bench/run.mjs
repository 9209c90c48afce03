// Benchmarks of the core, run against the built bundle (dist/core.js): `npm run bench`.
// Each case prints its time and, measured in the same run on the same string, the ratio to a plain
// newline scan (an indexOf('\n') loop), the physical floor for anything that must look at every line.
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';

const require = createRequire(import.meta.url);
const { Session, extractRefs, RefStreamParser } = require('../dist/core.js');

const MB = 1024 * 1024;
let failures = 0;

function newlineScan(text) {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/** Median wall time of `runs` calls after `warmUps` calls that let the JIT settle, in milliseconds. */
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

function report(name, ms, floorMs, target, extra = '') {
  const ratio = floorMs === undefined ? undefined : ms / floorMs;
  const ok = target.check(ms, ratio);
  if (!ok) failures++;
  const vs = ratio === undefined ? '' : ` = ${ratio.toFixed(2)}x newline scan (${floorMs.toFixed(2)} ms)`;
  console.log(`${name.padEnd(44)} ${formatMs(ms)}${vs}  target ${target.text}  ${ok ? 'ok' : 'MISSED'}${extra}`);
}

function formatMs(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(2)} µs` : `${ms.toFixed(2)} ms`;
}

const atMost = (x) => ({ text: `<= ${x}x`, check: (_ms, ratio) => ratio <= x });
const under = (ms) => ({ text: `< ${formatMs(ms)}`, check: (t) => t < ms });

/** Seeded pseudo-random numbers, so every run measures the same text. */
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
 */
function markdown(size, refs, stress = false) {
  const rnd = random(42);
  const words = ['the', 'model', 'writes', 'code', 'descriptor', 'page', 'reference', 'output', 'and', 'with', 'a', 'file'];
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
      for (let i = 0; i < count; i++) line += (rnd() < (stress ? 0.08 : 0.04) ? '`inline code`' : words[Math.floor(rnd() * words.length)]) + ' ';
      block = line + '\n';
    }
    parts.push(block);
    length += block.length;
  }
  return parts.join('');
}

/** About `size` characters of log-like lines of 30 to 130 characters. */
function logText(size) {
  const rnd = random(7);
  const parts = [];
  let length = 0;
  while (length < size) {
    const line = `2026-11-22T00:00:${String(Math.floor(rnd() * 60)).padStart(2, '0')} INFO worker ${Math.floor(rnd() * 1e6)} ` + 'x'.repeat(Math.floor(rnd() * 100)) + '\n';
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
/** Feeds `text` to a stream parser in `size`-character chunks (cut beforehand: cutting is not parsing). */
function streamer(text, size) {
  const chunks = [];
  for (let i = 0; i < text.length; i += size) chunks.push(text.slice(i, i + size));
  return () => {
    const parser = new RefStreamParser();
    for (const chunk of chunks) parser.push(chunk);
    return parser.end();
  };
}

for (const [refs, target] of [[10, atMost(3)], [10000, atMost(8)]]) {
  const text = markdown(10 * MB, refs);
  const found = extractRefs(text).refs.length;
  if (found !== refs) throw new Error(`expected ${refs} refs, found ${found}`);
  const floor = time(() => newlineScan(text));
  report(`extractRefs, 10 MB, ${refs} refs`, time(() => extractRefs(text)), floor, target);
  if (refs === 10) {
    const stream = streamer(text, 64);
    if (JSON.stringify(stream()) !== JSON.stringify(extractRefs(text))) throw new Error('stream and batch results differ');
    report('RefStreamParser, 10 MB in 64-char chunks', time(stream, 5), floor, atMost(6));
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
const pathological = [
  ['100k unclosed <ref id="a">', (n) => '<ref id="a">'.repeat(n)],
  ['lone backticks', (n) => 'a` '.repeat(n)],
  ['backtick runs of growing length', (n) => Array.from({ length: Math.sqrt(n * 10) | 0 }, (_, k) => '`'.repeat(k + 1) + ' x ').join('')],
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
const table = descriptor.content.pageTable(4000);
const pages = table.length - 1;
const rnd = random(1);
const picks = Array.from({ length: 2000 }, () => 1 + Math.floor(rnd() * pages));
gcNow(); // collect what the setup left behind, so the reads below are not charged for it
const readPage = (page) => descriptor.content.text.slice(table[page - 1], table[page]);
{
  for (const page of picks) readPage(page);
  const start = performance.now();
  for (const page of picks) readPage(page);
  report('read one page (core), mean of 2000 random', (performance.now() - start) / picks.length, undefined, under(0.05));
}
{
  for (let i = 0; i < 3; i++) for (const page of picks) await session.callTool('read_fd', { fd: 'fd:1', start: page });
  const start = performance.now();
  for (const page of picks) await session.callTool('read_fd', { fd: 'fd:1', start: page });
  report('read one page (read_fd, XML), mean of 2000', (performance.now() - start) / picks.length, undefined, under(0.05));
}
const readAll = () => {
  let total = 0;
  for (let page = 1; page <= pages; page++) total += readPage(page).length;
  if (total !== big.length) throw new Error('pages do not add up to the content');
};
report(`read all ${pages} pages in order (core)`, time(readAll, 3), floor, atMost(3));
{
  const start = performance.now();
  for (let page = 1; page <= pages; page++) await session.callTool('read_fd', { fd: 'fd:1', start: page });
  const ms = performance.now() - start;
  console.log(`${'read all pages in order (read_fd, XML)'.padEnd(44)} ${formatMs(ms)} = ${(ms / floor).toFixed(2)}x newline scan  (informative: argument validation and XML checks per call)`);
}
report('fork() of it', time(() => session.fork(), 20), undefined, under(1));

console.log(failures === 0 ? 'all targets met' : `${failures} target(s) missed`);
process.exitCode = failures === 0 ? 0 : 1;
