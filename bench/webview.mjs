// The chat webview in headless Chromium: a benchmark of streaming and of opening a long chat, with targets
// (exits 0 even when one is missed). Its checks (safety, interactions, streaming against a fresh render, themes)
// are tests: `npm run test:webview`.
//   node bench/webview.mjs                 # figures
//   node bench/webview.mjs --profile       # and a CPU profile of the page (--trace: a trace by event name)
// The page is the real one (test/webview/support/chatPage.mjs), its script bundled from src/.
import path from 'node:path';
import {
  answer,
  answerText,
  codeBlock,
  evenPieces,
  initMessage,
  paragraph,
  random,
  round,
  streamMessages,
  userMessage,
} from '../test/webview/support/chatMessages.mjs';
import { launchChromium, openPage, post, startChatServer, waitIdle } from '../test/webview/support/chatPage.mjs';

// ---- benchmark -------------------------------------------------------------------------------------

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').CDPSession} CDPSession */
/** @typedef {import('playwright-core').Page} Page */
/** @typedef {'trace' | boolean} Profile What to record: a trace, a CPU profile (true) or nothing. */

const fmt = (/** @type {number} */ n, digits = 2) =>
  n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percentile = (/** @type {number[]} */ values, /** @type {number} */ p) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};

/**
 * Starts a CPU profile or a trace of the page when `profile` asks for one; returns the function that ends and prints it.
 * @param {Page} page
 * @param {Profile} profile
 */
async function startProfile(page, profile) {
  if (!profile) return async () => {};
  const cdp = await page.context().newCDPSession(page);
  if (profile === 'trace') {
    await cdp.send('Tracing.start', {
      categories: 'devtools.timeline,blink,disabled-by-default-devtools.timeline',
      transferMode: 'ReturnAsStream',
    });
    return () => printTrace(cdp);
  }
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
  await cdp.send('Profiler.start');
  return async () => printProfile((await cdp.send('Profiler.stop')).profile);
}

/**
 * @param {Browser} browser
 * @param {string} origin
 * @param {Profile} profile
 */
async function benchStreaming(browser, origin, profile, kb = 500, chunks = 10_000, quiet = false) {
  const text = answerText(kb * 1024, Math.round(kb / 10));
  const { messages, deltas, refs } = streamMessages('a1', evenPieces(text, chunks));
  const topLevel = refs.filter((r) => !r.nested).length;
  const { page, errors } = await openPage(browser, origin);
  await post(page, [initMessage([userMessage('u1', 'Write the plan.')], { busy: true })]);
  await post(page, [{ type: 'messageAdded', message: answer('a1', [], { status: 'streaming' }) }]);
  await waitIdle(page);
  await page.evaluate(() => {
    window.__fdrefPerf.handler.length = 0;
    window.__fdrefPerf.frames.length = 0;
    window.__longTasks.length = 0;
  });
  const endProfile = await startProfile(page, profile);
  const finalMessages = [
    { type: 'messageUpdated', message: answer('a1', [round(text, { refs, diagnostics: [] })]) },
    { type: 'busy', busy: false },
  ];
  const result = await page.evaluate(
    async ({ messages, finalMessages, batch, topLevel }) => {
      const start = performance.now();
      for (let i = 0; i < messages.length; i += batch) {
        for (let j = i; j < Math.min(i + batch, messages.length); j++) window.postMessage(messages[j], '*');
        await new Promise((resolve) => setTimeout(resolve, 0));
      }
      for (const m of finalMessages) window.postMessage(m, '*');
      const posted = performance.now() - start;
      /** @type {Promise<void>} */
      const rendered = new Promise((resolve) => {
        const check = () => {
          const article = document.querySelector('[data-message-id="a1"]');
          const done =
            window.__fdrefPerf.isIdle() &&
            article &&
            !article.classList.contains('is-streaming') &&
            article.querySelectorAll('.ref-frame').length === topLevel &&
            !article.querySelector('.is-writing, .md-tail') &&
            article.textContent.includes('END-OF-ANSWER 7f3a');
          if (done) resolve();
          else setTimeout(check, 20);
        };
        check();
      });
      await rendered;
      const total = performance.now() - start;
      const article = /** @type {Element} */ (document.querySelector('[data-message-id="a1"]'));
      return {
        posted,
        total,
        handler: window.__fdrefPerf.handler,
        frames: window.__fdrefPerf.frames,
        longTasks: window.__longTasks,
        blocks: article.querySelectorAll('.md-block').length,
        frameCount: article.querySelectorAll('.ref-frame').length,
        codeBlocks: article.querySelectorAll('.code-block').length,
        entities: article.querySelectorAll('.fdref-entity').length,
        rebuilds: window.__fdrefPerf.rebuilds ?? 0,
      };
    },
    { messages, finalMessages, batch: 100, topLevel },
  );
  await endProfile();
  await page.close();
  const handlerSum = result.handler.reduce((a, b) => a + b, 0);
  const frameSum = result.frames.reduce((a, b) => a + b, 0);
  const perChunk = (handlerSum + frameSum) / deltas;
  const longest = Math.max(0, ...result.longTasks);
  if (quiet) return { perChunk, total: result.total, longest };
  const size = Math.round(text.length / 1024);
  console.log(
    `webview: ${deltas.toLocaleString('en-US')} chunks (${size} KB, ${refs.length} refs, ${messages.length.toLocaleString('en-US')} messages): ` +
      `${fmt(handlerSum / deltas, 3)} ms/chunk handler (p99 ${fmt(percentile(result.handler, 0.99), 3)} ms per message), ` +
      `${fmt(frameSum / deltas, 3)} ms/chunk rendering (${result.frames.length} frames, p99 ${fmt(percentile(result.frames, 0.99))} ms, max ${fmt(Math.max(0, ...result.frames))} ms), ` +
      `${fmt(result.total, 0)} ms total (all posted after ${fmt(result.posted, 0)} ms), longest task ${fmt(longest, 0)} ms (${result.longTasks.length} over 50 ms)`,
  );
  console.log(
    `  rendered: ${result.blocks} Markdown blocks, ${result.frameCount} ref frames, ${result.codeBlocks} code blocks, ${result.entities} entity ids; ${result.rebuilds} rounds or frames rendered again at the end`,
  );
  const met = perChunk <= 0.5 && longest <= 200;
  console.log(
    `  target: webview time <= 0.5 ms per chunk (handler + rendering: ${fmt(perChunk, 3)} ms) and no task over 200 ms (${fmt(longest, 0)} ms): ${met ? 'ok' : 'MISSED'}`,
  );
  if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
  return { met, perChunk, total: result.total };
}

/**
 * The same answer at a quarter and twice the size: the cost per chunk should stay about the same.
 * @param {Browser} browser
 * @param {string} origin
 * @param {{ perChunk: number, total: number }} full
 */
async function benchScaling(browser, origin, full) {
  const quarter = await benchStreaming(browser, origin, false, 125, 2_500, true);
  const double = await benchStreaming(browser, origin, false, 1000, 20_000, true);
  const line = (/** @type {string} */ label, /** @type {{ perChunk: number, total: number }} */ r) =>
    `${label} ${fmt(r.perChunk, 3)} ms/chunk (${fmt(r.total, 0)} ms total)`;
  console.log(
    `webview scaling: ${line('125 KB in 2,500 chunks', quarter)}, ${line('500 KB in 10,000', full)}, ${line('1 MB in 20,000', double)}: ` +
      `1 MB costs ${fmt(double.perChunk / quarter.perChunk, 2)}x per chunk what 125 KB does`,
  );
}

/** @param {number} count */
function longChat(count) {
  const rnd = random(11);
  /** @type {(ReturnType<typeof userMessage> | ReturnType<typeof answer>)[]} */
  const messages = [];
  for (let i = 0; i < count / 2; i++) {
    messages.push(userMessage(`u${i}`, `Question ${i}: ${paragraph(rnd)}`));
    const text = `Answer ${i}.\n\n${paragraph(rnd)}\n<ref id="r${i}">\n${codeBlock(rnd, 8)}</ref>\n\n${paragraph(rnd)}`;
    const start = text.indexOf('<ref');
    const end = text.indexOf('</ref>') + 6;
    const refs = [{ id: `r${i}`, version: 1, start, end, language: 'ts', lines: 10, chars: 400, nested: false }];
    const toolCalls =
      i % 5 === 0
        ? [
            {
              callId: `c${i}`,
              name: 'read_fd',
              arguments: '{"fd":"fd:1","start":2}',
              status: 'done',
              result: '<fd_content fd="fd:1" page="2">...</fd_content>',
            },
          ]
        : [];
    messages.push(answer(`a${i}`, [round(text, { refs, toolCalls })]));
  }
  return messages;
}

/**
 * @param {Browser} browser
 * @param {string} origin
 * @param {Profile} profile
 */
async function benchLongChat(browser, origin, profile) {
  const messages = longChat(2000);
  const chars = messages.reduce((n, m) => n + (m.role === 'user' ? m.text.length : m.rounds[0].text.length), 0);
  const { page, errors } = await openPage(browser, origin);
  // Handing the message to the page is the harness's cost, not the webview's: done first, then forgotten.
  await page.evaluate((init) => {
    window.__init = init;
  }, initMessage(messages));
  await page.waitForTimeout(100);
  await page.evaluate(() => (window.__longTasks.length = 0));
  const endProfile = await startProfile(page, profile);
  const result = await page.evaluate(
    () =>
      new Promise((resolve) => {
        const init = window.__init;
        const perf = window.__fdrefPerf;
        const before = perf.handler.length;
        const start = performance.now();
        window.addEventListener('message', function once() {
          window.removeEventListener('message', once);
          const handled = performance.now() - start;
          requestAnimationFrame(() =>
            setTimeout(() => {
              const firstPaint = performance.now() - start;
              const materializedAtPaint = document.querySelectorAll('.message:not(.is-placeholder)').length;
              const check = () => {
                if (!perf.isIdle()) return setTimeout(check, 20);
                resolve({
                  handler: perf.handler[before],
                  handled,
                  firstPaint,
                  idle: performance.now() - start,
                  materializedAtPaint,
                  materialized: document.querySelectorAll('.message:not(.is-placeholder)').length,
                  longTasks: window.__longTasks.slice(),
                });
              };
              check();
            }),
          );
        });
        window.postMessage(init, '*');
      }),
  );
  // Scrolling to the top renders the first messages as they come into view.
  const top = await page.evaluate(async () => {
    const list = /** @type {Element} */ (document.querySelector('.messages'));
    const start = performance.now();
    list.scrollTop = 0;
    /** @type {Promise<void>} */
    const rendered = new Promise((resolve) => {
      const check = () =>
        document.querySelector('[data-message-id="u0"]:not(.is-placeholder)') && window.__fdrefPerf.isIdle()
          ? resolve()
          : setTimeout(check, 20);
      check();
    });
    await rendered;
    return {
      ms: performance.now() - start,
      materialized: document.querySelectorAll('.message:not(.is-placeholder)').length,
    };
  });
  await endProfile();
  await page.close();
  const longest = Math.max(0, ...result.longTasks);
  console.log(
    `webview: chat of ${messages.length.toLocaleString('en-US')} messages (${Math.round(chars / 1024)} KB) by init: handler ${fmt(result.handler)} ms, ` +
      `first paint ${fmt(result.firstPaint)} ms (${result.materializedAtPaint} messages rendered), idle after ${fmt(result.idle)} ms, longest task ${fmt(longest, 0)} ms; ` +
      `scrolling to the top rendered it in ${fmt(top.ms, 0)} ms (${top.materialized} messages rendered in all)`,
  );
  const met = result.firstPaint <= 200 && longest <= 200;
  console.log(`  target: first paint <= 200 ms and no task over 200 ms: ${met ? 'ok' : 'MISSED'}`);
  if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
  return met;
}

/**
 * Time by trace event name on the page's main thread (complete events, nested ones counted in their parents too).
 * @param {CDPSession} cdp
 */
async function printTrace(cdp) {
  /** @type {Promise<{ stream?: string }>} */
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  if (!stream) throw new Error('the trace came without a stream to read it from');
  let data = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    data += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  /** @type {{ name: string, ph: string, ts: number, dur: number, pid: number, tid: number, args?: { name?: string } }[]} */
  const events = JSON.parse(data).traceEvents ?? JSON.parse(data);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // Self time: an event's duration less that of the events nested in it.
  const own = events
    .filter((e) => e.ph === 'X' && main && e.tid === main.tid && e.pid === main.pid)
    .sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  /** @type {Map<string, number>} */
  const byName = new Map();
  /** @type {typeof events} */
  const stack = [];
  for (const e of own) {
    let parent = stack.at(-1);
    while (parent && parent.ts + parent.dur <= e.ts) {
      stack.pop();
      parent = stack.at(-1);
    }
    if (parent) byName.set(parent.name, (byName.get(parent.name) ?? 0) - e.dur);
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${fmt(us / 1000, 1).padStart(9)} ms  ${name}`);
}

/**
 * Self time by function (top 25), from a V8 CPU profile; `(program)` is the browser's own work (style, layout, paint).
 * @param {{ nodes: { id: number, callFrame: { functionName: string, url: string, lineNumber: number } }[], samples?: number[], timeDeltas?: number[] }} profile
 */
function printProfile(profile) {
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<number, number>} */
  const dt = new Map();
  if (!profile.samples || !profile.timeDeltas) throw new Error('the CPU profile holds no samples');
  for (let i = 0; i < profile.samples.length; i++)
    dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  let total = 0;
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    total += us;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  console.log(`  profile: ${fmt(total / 1000, 0)} ms sampled`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
    console.log(`    ${fmt(us / 1000, 1).padStart(8)} ms  ${key}`);
}

// ---- main ------------------------------------------------------------------------------------------

const { server, origin } = await startChatServer();
const browser = await launchChromium();
try {
  console.log(`fdref webview benchmarks in ${await browser.version()}, ${new Date().toISOString()}`);
  const profile = process.argv.includes('--trace') ? 'trace' : process.argv.includes('--profile');
  const full = await benchStreaming(browser, origin, profile);
  if (!profile) await benchScaling(browser, origin, full);
  await benchLongChat(browser, origin, profile);
} finally {
  await browser.close();
  server.close();
}
