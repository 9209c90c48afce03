// The chat webview (dist/webview/chat.js) in headless Chromium: a benchmark of streaming and of opening a
// long chat, and with --screenshots DIR a visual and safety check. Run after `npm run build`:
//   node bench/webview.mjs                       # figures, with targets (exits 0 even when one is missed)
//   node bench/webview.mjs --screenshots DIR     # PNGs in light, dark and high contrast, plus script-injection checks
// The page is the real one from src/chat/chatHtml.ts (same CSP), served from 127.0.0.1 with a stub
// `acquireVsCodeApi` that records what the webview posts.
import { createServer } from 'node:http';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const { RefStreamParser } = require(path.join(root, 'dist/core.js'));
const CHROMIUM = process.env.FDREF_CHROMIUM ?? '/usr/bin/chromium';

// ---- the page --------------------------------------------------------------------------------------

/** chatHtml is TypeScript: bundle it for Node on the fly and import it. */
async function loadChatHtml() {
  const out = await esbuild.build({ entryPoints: [path.join(root, 'src/chat/chatHtml.ts')], bundle: true, platform: 'node', format: 'esm', write: false, logLevel: 'silent' });
  return import(`data:text/javascript;base64,${Buffer.from(out.outputFiles[0].text).toString('base64')}`);
}

const THEMES = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif', 'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace', 'editor-font-size': '13px',
      foreground: '#cccccc', descriptionForeground: '#9d9d9d', 'editor-background': '#1f1f1f', 'editor-foreground': '#cccccc',
      'textLink-foreground': '#4daafc', 'textLink-activeForeground': '#4daafc', 'button-background': '#0078d4',
      'button-foreground': '#ffffff', 'button-hoverBackground': '#026ec1', 'button-border': '#ffffff12',
      'button-secondaryBackground': '#313131', 'button-secondaryForeground': '#cccccc', 'button-secondaryHoverBackground': '#3c3c3c',
      'input-background': '#313131', 'input-foreground': '#cccccc', 'input-border': '#3c3c3c', 'input-placeholderForeground': '#989898',
      focusBorder: '#0078d4', 'textCodeBlock-background': '#2b2b2b', 'editorWarning-foreground': '#cca700', errorForeground: '#f85149',
      'widget-border': '#313131', 'panel-border': '#2b2b2b', 'editorWidget-background': '#202020', 'badge-background': '#616161',
      'badge-foreground': '#f8f8f8', 'icon-foreground': '#cccccc', 'toolbar-hoverBackground': '#5a5d5e50',
      'dropdown-background': '#313131', 'dropdown-foreground': '#cccccc', 'dropdown-border': '#3c3c3c',
      'inputValidation-errorBackground': '#5a1d1d', 'inputValidation-errorBorder': '#be1100',
      'editorHoverWidget-background': '#202020', 'editorHoverWidget-border': '#454545', 'editorHoverWidget-foreground': '#cccccc',
      'widget-shadow': '#0000005c', 'debugTokenExpression-name': '#c586c0', 'debugTokenExpression-string': '#ce9178',
      'debugTokenExpression-number': '#b5cea8', 'debugTokenExpression-boolean': '#4e94ce', 'symbolIcon-functionForeground': '#b180d7',
      'symbolIcon-classForeground': '#ee9d28', 'symbolIcon-variableForeground': '#75beff', 'symbolIcon-constantForeground': '#cccccc',
      'testing-iconPassed': '#73c991', 'textBlockQuote-background': '#2b2b2b', 'textBlockQuote-border': '#616161',
      'menu-background': '#1f1f1f', 'menu-foreground': '#cccccc', 'menu-selectionBackground': '#0078d4', 'menu-selectionForeground': '#ffffff',
      'menu-border': '#454545', 'editor-hoverHighlightBackground': '#264f7840', disabledForeground: '#cccccc80',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif', 'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace', 'editor-font-size': '13px',
      foreground: '#3b3b3b', descriptionForeground: '#717171', 'editor-background': '#ffffff', 'editor-foreground': '#3b3b3b',
      'textLink-foreground': '#005fb8', 'textLink-activeForeground': '#005fb8', 'button-background': '#005fb8',
      'button-foreground': '#ffffff', 'button-hoverBackground': '#0258a8', 'button-border': '#0000001a',
      'button-secondaryBackground': '#e5e5e5', 'button-secondaryForeground': '#3b3b3b', 'button-secondaryHoverBackground': '#cccccc',
      'input-background': '#ffffff', 'input-foreground': '#3b3b3b', 'input-border': '#cecece', 'input-placeholderForeground': '#767676',
      focusBorder: '#005fb8', 'textCodeBlock-background': '#f3f3f3', 'editorWarning-foreground': '#bf8803', errorForeground: '#f85149',
      'widget-border': '#e5e5e5', 'panel-border': '#e5e5e5', 'editorWidget-background': '#f8f8f8', 'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b', 'icon-foreground': '#3b3b3b', 'toolbar-hoverBackground': '#b8b8b850',
      'dropdown-background': '#ffffff', 'dropdown-foreground': '#3b3b3b', 'dropdown-border': '#cecece',
      'inputValidation-errorBackground': '#f2dede', 'inputValidation-errorBorder': '#be1100',
      'editorHoverWidget-background': '#f8f8f8', 'editorHoverWidget-border': '#c8c8c8', 'editorHoverWidget-foreground': '#3b3b3b',
      'widget-shadow': '#00000029', 'debugTokenExpression-name': '#9b46b0', 'debugTokenExpression-string': '#a31515',
      'debugTokenExpression-number': '#098658', 'debugTokenExpression-boolean': '#0000ff', 'symbolIcon-functionForeground': '#652d90',
      'symbolIcon-classForeground': '#d67e00', 'symbolIcon-variableForeground': '#007acc', 'symbolIcon-constantForeground': '#3b3b3b',
      'testing-iconPassed': '#388a34', 'textBlockQuote-background': '#f8f8f8', 'textBlockQuote-border': '#e5e5e5',
      'menu-background': '#ffffff', 'menu-foreground': '#3b3b3b', 'menu-selectionBackground': '#005fb8', 'menu-selectionForeground': '#ffffff',
      'menu-border': '#cecece', 'editor-hoverHighlightBackground': '#add6ff26', disabledForeground: '#61616180',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif', 'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace', 'editor-font-size': '13px',
      foreground: '#ffffff', descriptionForeground: '#ffffffb3', 'editor-background': '#000000', 'editor-foreground': '#ffffff',
      'textLink-foreground': '#21a6ff', 'textLink-activeForeground': '#21a6ff', 'button-background': '#000000',
      'button-foreground': '#ffffff', 'button-border': '#6fc3df', 'button-secondaryBackground': '#000000',
      'button-secondaryForeground': '#ffffff', 'input-background': '#000000', 'input-foreground': '#ffffff', 'input-border': '#6fc3df',
      focusBorder: '#f38518', 'textCodeBlock-background': '#000000', 'editorWarning-foreground': '#ff0000', errorForeground: '#f48771',
      contrastBorder: '#6fc3df', 'widget-border': '#6fc3df', 'panel-border': '#6fc3df', 'editorWidget-background': '#0c141f',
      'badge-background': '#000000', 'badge-foreground': '#ffffff', 'icon-foreground': '#ffffff', 'toolbar-hoverOutline': '#f38518',
      'dropdown-background': '#000000', 'dropdown-foreground': '#ffffff', 'dropdown-border': '#6fc3df',
      'inputValidation-errorBackground': '#000000', 'inputValidation-errorBorder': '#6fc3df',
      'editorHoverWidget-background': '#0c141f', 'editorHoverWidget-border': '#6fc3df', 'debugTokenExpression-name': '#ffffff',
      'debugTokenExpression-string': '#f48771', 'debugTokenExpression-number': '#75bdfe', 'debugTokenExpression-boolean': '#75bdfe',
      'symbolIcon-functionForeground': '#b180d7', 'symbolIcon-classForeground': '#ee9d28', 'symbolIcon-variableForeground': '#75beff',
      'testing-iconPassed': '#73c991', 'menu-background': '#000000', 'menu-foreground': '#ffffff', 'menu-selectionBorder': '#f38518',
    },
  },
};

function themeCss(name) {
  const vars = Object.entries(THEMES[name].vars).map(([k, v]) => `  --vscode-${k}: ${v};`).join('\n');
  return `html {\n${vars}\n}\n`;
}

async function startServer() {
  const { chatHtml, createNonce } = await loadChatHtml();
  const files = {
    '/dist/webview/chat.js': ['dist/webview/chat.js', 'text/javascript'],
    '/dist/webview/codicon.css': ['dist/webview/codicon.css', 'text/css'],
    '/dist/webview/codicon.ttf': ['dist/webview/codicon.ttf', 'font/ttf'],
    '/media/chat.css': ['media/chat.css', 'text/css'],
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const origin = `http://${req.headers.host}`;
    if (url.pathname === '/') {
      const theme = url.searchParams.get('theme') ?? 'dark';
      const nonce = createNonce();
      let html = chatHtml({
        cspSource: origin,
        nonce,
        scriptUri: `${origin}/dist/webview/chat.js`,
        styleUris: [`${origin}/theme/${theme}.css`, `${origin}/media/chat.css`],
        codiconUri: `${origin}/dist/webview/codicon.css`,
        title: 'Chat',
      });
      html = html.replace('<body>', `<body class="${THEMES[theme].bodyClass}">`);
      html = html.replace(`<script nonce="${nonce}"`, `<script nonce="${nonce}">${STUB}</script>\n    <script nonce="${nonce}"`);
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (url.pathname.startsWith('/theme/')) {
      res.writeHead(200, { 'content-type': 'text/css' }).end(themeCss(path.basename(url.pathname, '.css')));
    } else if (files[url.pathname]) {
      const [file, type] = files[url.pathname];
      res.writeHead(200, { 'content-type': type }).end(readFileSync(path.join(root, file)));
    } else {
      res.writeHead(404).end();
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${server.address().port}` };
}

/** Runs in the page before chat.js: records posts, CSP violations and long tasks; turns on the webview's timings. */
const STUB = `
window.__posted = [];
window.__violations = [];
window.__longTasks = [];
window.__fdrefPerf = { handler: [], frames: [] };
document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(e.violatedDirective + ' ' + e.blockedURI));
try {
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__longTasks.push(e.duration); }).observe({ type: 'longtask', buffered: true });
} catch {}
let state;
window.acquireVsCodeApi = () => ({ postMessage: (m) => window.__posted.push(m), getState: () => state, setState: (s) => (state = s) });
`;

async function openPage(browser, origin, theme = 'dark', viewport = { width: 1000, height: 800 }) {
  const page = await browser.newPage({ viewport });
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${origin}/?theme=${theme}`);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  return { page, errors };
}

const post = (page, messages) => page.evaluate((ms) => { for (const m of ms) window.postMessage(m, '*'); }, messages);
const waitIdle = (page) => page.waitForFunction(() => window.__fdrefPerf.isIdle(), null, { polling: 50, timeout: 120_000 });

// ---- content ---------------------------------------------------------------------------------------

function random(seed) {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}

const WORDS = ['the', 'model', 'writes', 'code', 'descriptor', 'page', 'reference', 'output', 'and', 'with', 'a', 'file', 'planet', 'fleet', 'stream', 'render'];

function paragraph(rnd) {
  let line = '';
  const count = 30 + Math.floor(rnd() * 60);
  for (let i = 0; i < count; i++) {
    const r = rnd();
    const word = WORDS[Math.floor(rnd() * WORDS.length)];
    line += r < 0.04 ? `\`${word}()\` ` : r < 0.06 ? `**${word}** ` : r < 0.07 ? `planet 2-${1 + Math.floor(rnd() * 50)} ` : r < 0.075 ? 'https://example.com/docs ' : `${word} `;
  }
  return `${line.trim()}.\n`;
}

function codeBlock(rnd, lines) {
  const body = [];
  for (let i = 0; i < lines; i++) body.push(`  const value${i} = compute(${i}, "${WORDS[i % WORDS.length]}") < ${Math.floor(rnd() * 100)}; // step ${i}`);
  return `\`\`\`ts\nexport function run() {\n${body.join('\n')}\n}\n\`\`\`\n`;
}

/** About `size` characters of answer: prose, lists, tables, code, and `refs` refs (some nested, some ids reused). */
function answerText(size, refs) {
  const rnd = random(7);
  const parts = ['# Plan\n\nHere is what changes, with the code in refs you can export.\n\n'];
  let length = parts[0].length;
  let made = 0;
  const every = Math.floor(size / refs);
  while (length < size - 200) {
    let block;
    if (made < refs && length >= made * every) {
      const k = made++;
      if (k % 10 === 5) {
        block = `<ref id="notes_${k}">\nA prose ref with **Markdown** and a nested one:\n\n<ref id="inner_${k}">\n${codeBlock(rnd, 6)}</ref>\n\nAnd a closing line.\n</ref>\n\n`;
      } else {
        const id = k % 7 === 3 ? 'snippet_0' : `snippet_${k}`; // a reused id makes version 2, 3...
        block = `<ref id="${id}">\n${codeBlock(rnd, 10 + Math.floor(rnd() * 30))}</ref>\n\n`;
      }
    } else {
      const r = rnd();
      if (r < 0.12) block = codeBlock(rnd, 5 + Math.floor(rnd() * 25)) + '\n';
      else if (r < 0.2) block = '- first item with `code`\n- second item\n  continued\n- third item\n\n';
      else if (r < 0.23) block = '| id | type | owner |\n|---|---|---|\n| 2-1 | planet | 1-1 |\n| 9-4 | fleet | 1-2 |\n\n';
      else if (r < 0.26) block = `## Step ${made}\n\n`;
      else block = paragraph(rnd) + '\n';
    }
    parts.push(block);
    length += block.length;
  }
  parts.push('END-OF-ANSWER 7f3a\n');
  return parts.join('');
}

/** The messages an extension sends while `text` streams in `chunks` pieces, computed with the real parser. */
function streamMessages(messageId, text, chunks) {
  const parser = new RefStreamParser();
  const messages = [];
  const versions = new Map();
  const views = new Map(); // start offset -> RefView
  const stack = [];
  const onEvents = (events) => {
    for (const e of events) {
      if (e.type === 'open') {
        stack.push(e.index);
        messages.push({ type: 'refOpened', messageId, round: 0, index: e.index, id: e.id, offset: e.offset });
      } else if (e.type === 'close') {
        stack.pop();
        let ref;
        if (e.ref) {
          const version = (versions.get(e.ref.id) ?? 0) + 1;
          versions.set(e.ref.id, version);
          ref = refView(e.ref, version, stack.length > 0);
          views.set(e.ref.start, ref);
        }
        messages.push({ type: 'refClosed', messageId, round: 0, index: e.index, offset: e.offset, ...(ref ? { ref } : {}) });
      }
    }
  };
  let deltas = 0;
  for (let k = 0; k < chunks; k++) {
    const chunk = text.slice(Math.floor((k * text.length) / chunks), Math.floor(((k + 1) * text.length) / chunks));
    messages.push({ type: 'textDelta', messageId, round: 0, text: chunk });
    deltas++;
    onEvents(parser.push(chunk));
  }
  const { result, events } = parser.endWithEvents();
  onEvents(events);
  const refs = result.refs.map((r) => views.get(r.start) ?? refView(r, 1, false));
  const diagnostics = result.diagnostics.map((d) => ({ message: d.message, offset: d.offset }));
  messages.push({ type: 'roundEnded', messageId, round: 0, refs, diagnostics });
  return { messages, deltas, refs, diagnostics };
}

function refView(ref, version, nested) {
  const lines = ref.content === '' ? 0 : ref.content.split('\n').length;
  return { id: ref.id, version, start: ref.start, end: ref.end, ...(ref.language ? { language: ref.language } : {}), lines, chars: ref.content.length, nested };
}

function initMessage(messages, extra = {}) {
  return {
    type: 'init', chatId: 'bench', title: 'Bench chat', messages,
    models: [{ key: 'endpoint:Ollama/llama3.1', label: 'llama3.1', provider: 'openai', detail: 'http://localhost:11434/v1' }],
    selectedModel: 'endpoint:Ollama/llama3.1', busy: false, welcome: false, trusted: true, ...extra,
  };
}

const userMessage = (id, text, extra = {}) => ({ role: 'user', id, text, createdAt: '2026-01-01T00:00:00Z', ...extra });
const answer = (id, rounds, extra = {}) => ({ role: 'assistant', id, rounds, status: 'complete', model: 'llama3.1 (Ollama)', createdAt: '2026-01-01T00:00:01Z', ...extra });
const round = (text, extra = {}) => ({ text, refs: [], diagnostics: [], toolCalls: [], ...extra });

// ---- benchmark -------------------------------------------------------------------------------------

const fmt = (n, digits = 2) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const percentile = (values, p) => {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p))];
};

async function benchStreaming(browser, origin, profile) {
  const text = answerText(500 * 1024, 50);
  const { messages, deltas, refs } = streamMessages('a1', text, 10_000);
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
  const cdp = profile ? await page.context().newCDPSession(page) : undefined;
  if (cdp && profile === 'trace') {
    await cdp.send('Tracing.start', { categories: 'devtools.timeline,blink,disabled-by-default-devtools.timeline', transferMode: 'ReturnAsStream' });
  } else if (cdp) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
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
      await new Promise((resolve) => {
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
      const total = performance.now() - start;
      const article = document.querySelector('[data-message-id="a1"]');
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
      };
    },
    { messages, finalMessages, batch: 100, topLevel },
  );
  if (cdp && profile === 'trace') await printTrace(cdp);
  else if (cdp) printProfile((await cdp.send('Profiler.stop')).profile);
  await page.close();
  const handlerSum = result.handler.reduce((a, b) => a + b, 0);
  const frameSum = result.frames.reduce((a, b) => a + b, 0);
  const perChunk = (handlerSum + frameSum) / deltas;
  const longest = Math.max(0, ...result.longTasks);
  const kb = Math.round(text.length / 1024);
  console.log(`webview: ${deltas.toLocaleString('en-US')} chunks (${kb} KB, ${refs.length} refs, ${messages.length.toLocaleString('en-US')} messages): ` +
    `${fmt(handlerSum / deltas, 3)} ms/chunk handler (p99 ${fmt(percentile(result.handler, 0.99), 3)} ms per message), ` +
    `${fmt(frameSum / deltas, 3)} ms/chunk rendering (${result.frames.length} frames, p99 ${fmt(percentile(result.frames, 0.99))} ms, max ${fmt(Math.max(0, ...result.frames))} ms), ` +
    `${fmt(result.total, 0)} ms total (all posted after ${fmt(result.posted, 0)} ms), longest task ${fmt(longest, 0)} ms (${result.longTasks.length} over 50 ms)`);
  console.log(`  rendered: ${result.blocks} Markdown blocks, ${result.frameCount} ref frames, ${result.codeBlocks} code blocks, ${result.entities} entity ids`);
  const met = perChunk <= 0.5 && longest <= 200;
  console.log(`  target: webview time <= 0.5 ms per chunk (handler + rendering: ${fmt(perChunk, 3)} ms) and no task over 200 ms (${fmt(longest, 0)} ms): ${met ? 'ok' : 'MISSED'}`);
  if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
  return met;
}

function longChat(count) {
  const rnd = random(11);
  const messages = [];
  for (let i = 0; i < count / 2; i++) {
    messages.push(userMessage(`u${i}`, `Question ${i}: ${paragraph(rnd)}`));
    const text = `Answer ${i}.\n\n${paragraph(rnd)}\n<ref id="r${i}">\n${codeBlock(rnd, 8)}</ref>\n\n${paragraph(rnd)}`;
    const start = text.indexOf('<ref');
    const end = text.indexOf('</ref>') + 6;
    const refs = [{ id: `r${i}`, version: 1, start, end, language: 'ts', lines: 10, chars: 400, nested: false }];
    const toolCalls = i % 5 === 0 ? [{ callId: `c${i}`, name: 'read_fd', arguments: '{"fd":"fd:1","start":2}', status: 'done', result: '<fd_content fd="fd:1" page="2">...</fd_content>' }] : [];
    messages.push(answer(`a${i}`, [round(text, { refs, toolCalls })]));
  }
  return messages;
}

async function benchLongChat(browser, origin) {
  const messages = longChat(2000);
  const chars = messages.reduce((n, m) => n + (m.role === 'user' ? m.text.length : m.rounds[0].text.length), 0);
  const { page, errors } = await openPage(browser, origin);
  const init = initMessage(messages);
  const result = await page.evaluate(
    (init) =>
      new Promise((resolve) => {
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
                resolve({ handler: perf.handler[before], handled, firstPaint, idle: performance.now() - start, materializedAtPaint, materialized: document.querySelectorAll('.message:not(.is-placeholder)').length, longTasks: window.__longTasks.slice() });
              };
              check();
            }),
          );
        });
        window.postMessage(init, '*');
      }),
    init,
  );
  // Scrolling to the top renders the first messages as they come into view.
  const top = await page.evaluate(async () => {
    const list = document.querySelector('.messages');
    const start = performance.now();
    list.scrollTop = 0;
    await new Promise((resolve) => {
      const check = () => (document.querySelector('[data-message-id="u0"]:not(.is-placeholder)') && window.__fdrefPerf.isIdle() ? resolve() : setTimeout(check, 20));
      check();
    });
    return { ms: performance.now() - start, materialized: document.querySelectorAll('.message:not(.is-placeholder)').length };
  });
  await page.close();
  const longest = Math.max(0, ...result.longTasks);
  console.log(`webview: chat of ${messages.length.toLocaleString('en-US')} messages (${Math.round(chars / 1024)} KB) by init: handler ${fmt(result.handler)} ms, ` +
    `first paint ${fmt(result.firstPaint)} ms (${result.materializedAtPaint} messages rendered), idle after ${fmt(result.idle)} ms, longest task ${fmt(longest, 0)} ms; ` +
    `scrolling to the top rendered it in ${fmt(top.ms, 0)} ms (${top.materialized} messages rendered in all)`);
  const met = result.firstPaint <= 200 && longest <= 200;
  console.log(`  target: first paint <= 200 ms and no task over 200 ms: ${met ? 'ok' : 'MISSED'}`);
  if (errors.length) console.log(`  page errors: ${errors.join(' | ')}`);
  return met;
}

/** Time by trace event name on the page's main thread (complete events, nested ones counted in their parents too). */
async function printTrace(cdp) {
  const done = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
  await cdp.send('Tracing.end');
  const { stream } = await done;
  let data = '';
  for (;;) {
    const chunk = await cdp.send('IO.read', { handle: stream });
    data += chunk.base64Encoded ? Buffer.from(chunk.data, 'base64').toString() : chunk.data;
    if (chunk.eof) break;
  }
  const events = JSON.parse(data).traceEvents ?? JSON.parse(data);
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // Self time: an event's duration less that of the events nested in it.
  const own = events.filter((e) => e.ph === 'X' && main && e.tid === main.tid && e.pid === main.pid).sort((a, b) => a.ts - b.ts || b.dur - a.dur);
  const byName = new Map();
  const stack = [];
  for (const e of own) {
    while (stack.length && stack.at(-1).ts + stack.at(-1).dur <= e.ts) stack.pop();
    const parent = stack.at(-1);
    if (parent) byName.set(parent.name, (byName.get(parent.name) ?? 0) - e.dur);
    byName.set(e.name, (byName.get(e.name) ?? 0) + e.dur);
    stack.push(e);
  }
  for (const [name, us] of [...byName].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${fmt(us / 1000, 1).padStart(9)} ms  ${name}`);
}

/** Self time by function (top 25), from a V8 CPU profile; `(program)` is the browser's own work (style, layout, paint). */
function printProfile(profile) {
  const self = new Map();
  const dt = new Map();
  for (let i = 0; i < profile.samples.length; i++) dt.set(profile.samples[i], (dt.get(profile.samples[i]) ?? 0) + (profile.timeDeltas[i] ?? 0));
  let total = 0;
  for (const node of profile.nodes) {
    const us = dt.get(node.id) ?? 0;
    total += us;
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url ? `${path.basename(f.url)}:${f.lineNumber}` : ''}`;
    self.set(key, (self.get(key) ?? 0) + us);
  }
  console.log(`  profile: ${fmt(total / 1000, 0)} ms sampled`);
  for (const [key, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25)) console.log(`    ${fmt(us / 1000, 1).padStart(8)} ms  ${key}`);
}

// ---- screenshots and safety ------------------------------------------------------------------------

function demoChat() {
  const answerText = [
    'Here is the parser, and the entity **planet 2-1** owned by player `1-3`.\n\n',
    '<ref id="parse_config">\n```python\nimport json\n\ndef parse_config(path: str) -> dict:\n    """Read the config; fleet 9-4 is the default."""\n    with open(path) as f:\n        return json.load(f)\n```\n</ref>\n\n',
    'A prose ref with a nested one:\n\n',
    '<ref id="notes">\nThe **notes** on the change, with a nested snippet:\n\n<ref id="helper">\n```ts\nexport const answer = 42;\n```\n</ref>\n\nSee [the docs](https://example.com/docs).\n</ref>\n\n',
    '| entity | type |\n|---|---|\n| 2-1 | planet |\n| 5-12 | struct |\n\n',
    '<ref id="bad id">this tag has an invalid id</ref>\n',
  ].join('');
  const refs = [];
  const find = (id, version, nested) => {
    const start = answerText.indexOf(`<ref id="${id}">`);
    let depth = 0;
    let end = -1;
    for (let i = start; i < answerText.length; i++) {
      if (answerText.startsWith('<ref id=', i)) depth++;
      if (answerText.startsWith('</ref>', i) && --depth === 0) {
        end = i + 6;
        break;
      }
    }
    return { id, version, start, end, nested };
  };
  refs.push({ ...find('parse_config', 2, false), language: 'python', lines: 6, chars: 180 });
  refs.push({ ...find('notes', 1, false), lines: 9, chars: 160 });
  refs.push({ ...find('helper', 1, true), language: 'ts', lines: 1, chars: 25 });
  const badAt = answerText.indexOf('<ref id="bad id">');
  const diagnostics = [{ message: 'Unquoted or invalid ref id "bad id" is not registered: an id must match ^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$', offset: badAt }];
  const toolCalls = [
    { callId: 'c1', name: 'read_fd', arguments: '{"fd":"fd:1","start":2,"mode":"page"}', status: 'done', result: '<fd_content fd="fd:1" page="2" pages="9">\nline 1: planet 2-7 ready\n</fd_content>', descriptor: 'fd:1' },
    { callId: 'c2', name: 'get_ref', arguments: '{"ref":"ref:nope"}', status: 'error', result: '<fd_error type="not_found">ref:nope does not exist</fd_error>' },
    { callId: 'c3', name: 'fd_to_file', arguments: '{"fd":"ref:notes","file_path":"docs/notes.md","mode":"write"}', status: 'denied', confirmation: { source: 'ref:notes', path: 'docs/notes.md', mode: 'write', chars: 160, bytes: 164, replacesFile: true, fileExists: true } },
    { callId: 'c4', name: 'fd_to_file', arguments: '{"fd":"ref:parse_config","file_path":"src/config.py","mode":"write"}', status: 'awaitingConfirmation', confirmation: { source: 'ref:parse_config@2', path: 'src/config.py', mode: 'write', chars: 180, bytes: 186, replacesFile: true, fileExists: true } },
  ];
  return [
    userMessage('u1', 'Parse the config, and tell me about planet 2-1.\nThe log is attached.', { descriptor: { id: 'fd:1', chars: 123456, lines: 3000 } }),
    answer('a1', [round(answerText, { refs, diagnostics, toolCalls })], { status: 'streaming' }),
    userMessage('u2', 'Try the other endpoint.'),
    answer('a2', [round('Calling the endpoint…')], { status: 'error', error: { message: 'The endpoint refused the API key (401).', detail: 'POST http://localhost:11434/v1/chat/completions: 401 Unauthorized', action: 'setApiKey' } }),
    userMessage('u3', 'Then just summarize.'),
    answer('a3', [round('The summary so far: the config loads, and')], { status: 'stopped' }),
  ];
}

async function screenshots(browser, origin, dir) {
  mkdirSync(dir, { recursive: true });
  const shots = [];
  for (const theme of ['light', 'dark', 'high-contrast']) {
    const { page, errors } = await openPage(browser, origin, theme, { width: 900, height: 1500 });
    await post(page, [initMessage(demoChat(), { busy: true, trusted: theme !== 'dark' })]);
    await waitIdle(page);
    await page.hover('[data-message-id="a1"] .message-header');
    const file = path.join(dir, `webview-chat-${theme}.png`);
    await page.screenshot({ path: file });
    shots.push(file);
    if (theme === 'dark') {
      // The entity tooltip, answered as the extension would.
      await page.hover('[data-message-id="a1"] .fdref-entity');
      await page.waitForFunction(() => window.__posted.some((m) => m.type === 'entityHover'));
      const hover = await page.evaluate(() => window.__posted.find((m) => m.type === 'entityHover'));
      await post(page, [{ type: 'entityDetails', requestId: hover.requestId, id: hover.id, markdown: `**Planet ${hover.id}**\n\n- owner: \`1-3\`\n- ore: 120\n\n[Open as JSON](command:fdref.openEntity?%5B%22${hover.id}%22%5D) · [Refresh](command:fdref.refreshEntity)` }]);
      await page.waitForSelector('.entity-tooltip:not([hidden]) a');
      const tip = path.join(dir, 'webview-entity-tooltip-dark.png');
      await page.screenshot({ path: tip, clip: { x: 0, y: 0, width: 900, height: 500 } });
      shots.push(tip);
      await page.click('.entity-tooltip a');
      const link = await page.evaluate(() => window.__posted.filter((m) => m.type === 'openLink').at(-1));
      console.log(`entity tooltip link click posts: ${JSON.stringify(link)}`);
    }
    const violations = await page.evaluate(() => window.__violations);
    console.log(`${theme}: ${file}${violations.length ? `; CSP violations: ${violations.join(', ')}` : '; no CSP violation'}${errors.length ? `; page errors: ${errors.join(' | ')}` : ''}`);
    await page.close();
  }
  const { page } = await openPage(browser, origin, 'dark', { width: 700, height: 600 });
  await post(page, [initMessage([], { welcome: true, models: [] })]);
  await waitIdle(page);
  const welcome = path.join(dir, 'webview-welcome-dark.png');
  await page.screenshot({ path: welcome });
  shots.push(welcome);
  console.log(`welcome: ${welcome}`);
  await page.close();
  return shots;
}

/** Model text that tries to run script or load remote content: none of it may. */
async function safety(browser, origin) {
  const { page, errors } = await openPage(browser, origin);
  const payloads = [
    '<script>window.__pwned = "script"</script>',
    '<img src=x onerror="window.__pwned = \'img\'">',
    '![remote](https://example.com/tracker.png) and ![alt text](javascript:window.__pwned="imgjs")',
    '[click me](javascript:window.__pwned="link") and [data](data:text/html,<script>window.__pwned=1</script>)',
    '<a href="javascript:window.__pwned=\'a\'">raw a</a> <iframe src="javascript:window.__pwned=\'iframe\'"></iframe>',
    '<svg onload="window.__pwned=\'svg\'"></svg> <style>body{display:none}</style> <form action="https://x"><input></form>',
    '```html\n<script>window.__pwned = "code"</script>\n```',
    '<ref id="evil">\n<img src=x onerror="window.__pwned=\'ref\'"> [x](javascript:window.__pwned="refl")\n</ref>',
  ].join('\n\n');
  const text = payloads;
  const start = text.indexOf('<ref id="evil">');
  const refs = [{ id: 'evil', version: 1, start, end: text.length, lines: 1, chars: 80, nested: false }];
  await post(page, [initMessage([userMessage('u1', '<img src=x onerror="window.__pwned=\'user\'"> <script>window.__pwned="user"</script>'), answer('a1', [round(text, { refs })])])]);
  await waitIdle(page);
  // Click every link: none may navigate or run anything; each must only post openLink.
  const links = await page.$$('[data-message-id="a1"] a');
  for (const link of links) await link.click({ force: true });
  await page.waitForTimeout(200);
  const report = await page.evaluate(() => ({
    pwned: window.__pwned,
    scripts: document.querySelectorAll('.messages script, .messages iframe, .messages svg, .messages form, .messages style, .messages [onerror], .messages [onload]').length,
    images: [...document.querySelectorAll('.messages img')].map((img) => img.getAttribute('src')),
    hrefs: [...document.querySelectorAll('.messages a')].map((a) => a.getAttribute('href')),
    openLinks: window.__posted.filter((m) => m.type === 'openLink').map((m) => m.href),
    url: location.href,
    violations: window.__violations,
  }));
  await page.close();
  const ok = report.pwned === undefined && report.scripts === 0 && report.images.length === 0 && report.hrefs.every((h) => h === null || /^(https?:|mailto:)/.test(h)) && !report.url.includes('#');
  console.log(`safety: window flag ${report.pwned === undefined ? 'never set' : `SET to ${report.pwned}`}, ${report.scripts} script-capable elements, ${report.images.length} images, ` +
    `links kept: ${JSON.stringify(report.hrefs)}, clicks posted openLink: ${JSON.stringify(report.openLinks)}, CSP violations: ${report.violations.length}${errors.length ? `, page errors: ${errors.join(' | ')}` : ''}: ${ok ? 'ok' : 'FAILED'}`);
  return ok;
}

// ---- main ------------------------------------------------------------------------------------------

const { server, origin } = await startServer();
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
try {
  const at = process.argv.indexOf('--screenshots');
  if (at !== -1) {
    await screenshots(browser, origin, path.resolve(process.argv[at + 1] ?? path.join(root, 'screenshots')));
    await safety(browser, origin);
  } else {
    console.log(`fdref webview benchmarks in ${(await browser.version())}, ${new Date().toISOString()}`);
    await benchStreaming(browser, origin, process.argv.includes('--trace') ? 'trace' : process.argv.includes('--profile'));
    await benchLongChat(browser, origin);
  }
} finally {
  await browser.close();
  server.close();
}
