// The chat webview's real page in Chromium, for the webview tests (test/webview) and the benchmark
// (bench/webview.mjs): the page from src/core/presentation/chatHtml.ts (same CSP) served from 127.0.0.1, its script and
// the core bundled from src/ on the fly (never a stale dist/), a theme's --vscode-* variables, and a stub
// `acquireVsCodeApi` that records what the webview posts.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import esbuild from 'esbuild';
import { chromium } from 'playwright-core';
import { CHROMIUM, CHROMIUM_ARGS } from '../../../scripts/vscode-host/host.mjs';

/** @typedef {import('playwright-core').Browser} Browser */
/** @typedef {import('playwright-core').Page} Page */

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * Bundles the TypeScript module `entry` (relative to the repository) for Node and loads it.
 * @param {string} entry
 */
export function requireTs(entry) {
  const dir = mkdtempSync(path.join(tmpdir(), 'fdref-webview-'));
  const outfile = path.join(dir, 'bundle.cjs');
  try {
    esbuild.buildSync({
      entryPoints: [path.join(root, entry)],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'cjs',
      target: 'node20',
      logLevel: 'silent',
    });
    return createRequire(import.meta.url)(outfile);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Bundles browser code as one script, as esbuild.js bundles the webview: from `entry`, or from `contents` (resolved from the repository).
 * @param {{ entry?: string, contents?: string, globalName?: string }} options
 */
export async function browserBundle({ entry, contents, globalName }) {
  /** @type {import('esbuild').BuildOptions} */
  const input = entry
    ? { entryPoints: [path.join(root, entry)] }
    : {
        stdin: { contents: /** @type {string} */ (contents), resolveDir: root, loader: 'ts', sourcefile: 'harness.ts' },
      };
  const out = await esbuild.build({
    ...input,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
    ...(globalName ? { globalName } : {}),
  });
  return out.outputFiles[0].text;
}

/** Launches Chromium as the VS Code host scripts do (FDREF_CHROMIUM names another binary). */
export function launchChromium() {
  return chromium.launch({ executablePath: process.env.FDREF_CHROMIUM ?? CHROMIUM, args: CHROMIUM_ARGS });
}

/** @type {Record<string, { bodyClass: string, vars: Record<string, string> }>} */
export const THEMES = {
  dark: {
    bodyClass: 'vscode-dark',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif',
      'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
      'editor-font-size': '13px',
      foreground: '#cccccc',
      descriptionForeground: '#9d9d9d',
      'editor-background': '#1f1f1f',
      'editor-foreground': '#cccccc',
      'textLink-foreground': '#4daafc',
      'textLink-activeForeground': '#4daafc',
      'button-background': '#0078d4',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#026ec1',
      'button-border': '#ffffff12',
      'button-secondaryBackground': '#313131',
      'button-secondaryForeground': '#cccccc',
      'button-secondaryHoverBackground': '#3c3c3c',
      'input-background': '#313131',
      'input-foreground': '#cccccc',
      'input-border': '#3c3c3c',
      'input-placeholderForeground': '#989898',
      focusBorder: '#0078d4',
      'textCodeBlock-background': '#2b2b2b',
      'editorWarning-foreground': '#cca700',
      errorForeground: '#f85149',
      'widget-border': '#313131',
      'panel-border': '#2b2b2b',
      'editorWidget-background': '#202020',
      'badge-background': '#616161',
      'badge-foreground': '#f8f8f8',
      'icon-foreground': '#cccccc',
      'toolbar-hoverBackground': '#5a5d5e50',
      'dropdown-background': '#313131',
      'dropdown-foreground': '#cccccc',
      'dropdown-border': '#3c3c3c',
      'inputValidation-errorBackground': '#5a1d1d',
      'inputValidation-errorBorder': '#be1100',
      'editorHoverWidget-background': '#202020',
      'editorHoverWidget-border': '#454545',
      'editorHoverWidget-foreground': '#cccccc',
      'widget-shadow': '#0000005c',
      'debugTokenExpression-name': '#c586c0',
      'debugTokenExpression-string': '#ce9178',
      'debugTokenExpression-number': '#b5cea8',
      'debugTokenExpression-boolean': '#4e94ce',
      'symbolIcon-functionForeground': '#b180d7',
      'symbolIcon-classForeground': '#ee9d28',
      'symbolIcon-variableForeground': '#75beff',
      'symbolIcon-constantForeground': '#cccccc',
      'testing-iconPassed': '#73c991',
      'textBlockQuote-background': '#2b2b2b',
      'textBlockQuote-border': '#616161',
      'menu-background': '#1f1f1f',
      'menu-foreground': '#cccccc',
      'menu-selectionBackground': '#0078d4',
      'menu-selectionForeground': '#ffffff',
      'menu-border': '#454545',
      'editor-hoverHighlightBackground': '#264f7840',
      disabledForeground: '#cccccc80',
      'textPreformat-foreground': '#d0d0d0',
      'textPreformat-background': '#3c3c3c',
    },
  },
  light: {
    bodyClass: 'vscode-light',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif',
      'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
      'editor-font-size': '13px',
      foreground: '#3b3b3b',
      descriptionForeground: '#717171',
      'editor-background': '#ffffff',
      'editor-foreground': '#3b3b3b',
      'textLink-foreground': '#005fb8',
      'textLink-activeForeground': '#005fb8',
      'button-background': '#005fb8',
      'button-foreground': '#ffffff',
      'button-hoverBackground': '#0258a8',
      'button-border': '#0000001a',
      'button-secondaryBackground': '#e5e5e5',
      'button-secondaryForeground': '#3b3b3b',
      'button-secondaryHoverBackground': '#cccccc',
      'input-background': '#ffffff',
      'input-foreground': '#3b3b3b',
      'input-border': '#cecece',
      'input-placeholderForeground': '#767676',
      focusBorder: '#005fb8',
      'textCodeBlock-background': '#f3f3f3',
      'editorWarning-foreground': '#bf8803',
      errorForeground: '#f85149',
      'widget-border': '#e5e5e5',
      'panel-border': '#e5e5e5',
      'editorWidget-background': '#f8f8f8',
      'badge-background': '#cccccc',
      'badge-foreground': '#3b3b3b',
      'icon-foreground': '#3b3b3b',
      'toolbar-hoverBackground': '#b8b8b850',
      'dropdown-background': '#ffffff',
      'dropdown-foreground': '#3b3b3b',
      'dropdown-border': '#cecece',
      'inputValidation-errorBackground': '#f2dede',
      'inputValidation-errorBorder': '#be1100',
      'editorHoverWidget-background': '#f8f8f8',
      'editorHoverWidget-border': '#c8c8c8',
      'editorHoverWidget-foreground': '#3b3b3b',
      'widget-shadow': '#00000029',
      'debugTokenExpression-name': '#9b46b0',
      'debugTokenExpression-string': '#a31515',
      'debugTokenExpression-number': '#098658',
      'debugTokenExpression-boolean': '#0000ff',
      'symbolIcon-functionForeground': '#652d90',
      'symbolIcon-classForeground': '#d67e00',
      'symbolIcon-variableForeground': '#007acc',
      'symbolIcon-constantForeground': '#3b3b3b',
      'testing-iconPassed': '#388a34',
      'textBlockQuote-background': '#f8f8f8',
      'textBlockQuote-border': '#e5e5e5',
      'menu-background': '#ffffff',
      'menu-foreground': '#3b3b3b',
      'menu-selectionBackground': '#005fb8',
      'menu-selectionForeground': '#ffffff',
      'menu-border': '#cecece',
      'editor-hoverHighlightBackground': '#add6ff26',
      disabledForeground: '#61616180',
      'textPreformat-foreground': '#3b3b3b',
      'textPreformat-background': '#0000001f',
    },
  },
  'high-contrast': {
    bodyClass: 'vscode-high-contrast',
    vars: {
      'font-family': 'system-ui, "Segoe UI", Ubuntu, "Droid Sans", sans-serif',
      'font-size': '13px',
      'editor-font-family': '"Droid Sans Mono", "DejaVu Sans Mono", monospace',
      'editor-font-size': '13px',
      foreground: '#ffffff',
      descriptionForeground: '#ffffffb3',
      'editor-background': '#000000',
      'editor-foreground': '#ffffff',
      'textLink-foreground': '#21a6ff',
      'textLink-activeForeground': '#21a6ff',
      'button-background': '#000000',
      'button-foreground': '#ffffff',
      'button-border': '#6fc3df',
      'button-secondaryBackground': '#000000',
      'button-secondaryForeground': '#ffffff',
      'input-background': '#000000',
      'input-foreground': '#ffffff',
      'input-border': '#6fc3df',
      focusBorder: '#f38518',
      'textCodeBlock-background': '#000000',
      'editorWarning-foreground': '#ff0000',
      errorForeground: '#f48771',
      contrastBorder: '#6fc3df',
      'widget-border': '#6fc3df',
      'panel-border': '#6fc3df',
      'editorWidget-background': '#0c141f',
      'badge-background': '#000000',
      'badge-foreground': '#ffffff',
      'icon-foreground': '#ffffff',
      'toolbar-hoverOutline': '#f38518',
      'dropdown-background': '#000000',
      'dropdown-foreground': '#ffffff',
      'dropdown-border': '#6fc3df',
      'inputValidation-errorBackground': '#000000',
      'inputValidation-errorBorder': '#6fc3df',
      'editorHoverWidget-background': '#0c141f',
      'editorHoverWidget-border': '#6fc3df',
      'debugTokenExpression-name': '#ffffff',
      'debugTokenExpression-string': '#f48771',
      'debugTokenExpression-number': '#75bdfe',
      'debugTokenExpression-boolean': '#75bdfe',
      'symbolIcon-functionForeground': '#b180d7',
      'symbolIcon-classForeground': '#ee9d28',
      'symbolIcon-variableForeground': '#75beff',
      'testing-iconPassed': '#73c991',
      'menu-background': '#000000',
      'menu-foreground': '#ffffff',
      'menu-selectionBorder': '#f38518',
      'textPreformat-foreground': '#ffffff',
      'textPreformat-background': '#ffffff1a',
    },
  },
};

/** What VS Code puts in front of a webview's own styles (its `_defaultStyles`, abridged). */
const VSCODE_DEFAULT_CSS = `
body { background-color: transparent; color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family);
  font-weight: var(--vscode-font-weight); font-size: var(--vscode-font-size); margin: 0; padding: 0 20px; }
img, video { max-width: 100%; max-height: 100%; }
a, a code { color: var(--vscode-textLink-foreground); }
a:hover { color: var(--vscode-textLink-activeForeground); }
a:focus, input:focus, select:focus, textarea:focus { outline: 1px solid -webkit-focus-ring-color; outline-offset: -1px; }
code { color: var(--vscode-textPreformat-foreground); background-color: var(--vscode-textPreformat-background); padding: 1px 3px; border-radius: 4px; }
pre code { padding: 0; }
blockquote { background: var(--vscode-textBlockQuote-background); border-color: var(--vscode-textBlockQuote-border); }
`;

/** @param {string} name */
function themeCss(name) {
  const vars = Object.entries(THEMES[name].vars)
    .map(([k, v]) => `  --vscode-${k}: ${v};`)
    .join('\n');
  return `html {\n${vars}\n}\n${VSCODE_DEFAULT_CSS}`;
}

/** Runs in the page before its script: records posts, CSP violations and long tasks; turns on the webview's timings. */
export const STUB = `
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

/** Serves the chat page on a free loopback port; `?theme=light|dark|high-contrast` picks the theme. */
export async function startChatServer() {
  /** @type {typeof import('../../../src/core/presentation/chatHtml.js')} */
  const { chatHtml, createNonce } = requireTs('src/core/presentation/chatHtml.ts');
  const script = await browserBundle({ entry: 'src/webview/main.ts' });
  const codicons = path.join(root, 'node_modules/@vscode/codicons/dist');
  /** @type {Record<string, [file: string, type: string]>} */
  const files = {
    '/dist/webview/codicon.css': [path.join(codicons, 'codicon.css'), 'text/css'],
    '/dist/webview/codicon.ttf': [path.join(codicons, 'codicon.ttf'), 'font/ttf'],
    '/media/chat.css': [path.join(root, 'media/chat.css'), 'text/css'],
  };
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
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
      html = html.replace(
        `<script nonce="${nonce}"`,
        `<script nonce="${nonce}">${STUB}</script>\n    <script nonce="${nonce}"`,
      );
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    } else if (url.pathname === '/dist/webview/chat.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else if (url.pathname === '/favicon.ico') {
      res.writeHead(204).end();
    } else if (url.pathname.startsWith('/theme/')) {
      res.writeHead(200, { 'content-type': 'text/css' }).end(themeCss(path.basename(url.pathname, '.css')));
    } else if (files[url.pathname]) {
      const [file, type] = files[url.pathname];
      res.writeHead(200, { 'content-type': type }).end(readFileSync(file));
    } else {
      res.writeHead(404).end();
    }
  });
  /** @type {Promise<void>} */
  const listening = new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  await listening;
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address()); // listening on a TCP port
  return { server, origin: `http://127.0.0.1:${port}` };
}

/**
 * A new page with the chat loaded and `ready` posted; `errors` collects page errors and console errors.
 * @param {Browser} browser
 * @param {string} origin
 */
export async function openPage(browser, origin, theme = 'dark', viewport = { width: 1000, height: 800 }) {
  const page = await browser.newPage({ viewport });
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  await page.goto(`${origin}/?theme=${theme}`);
  await page.waitForFunction(() => window.__posted.some((m) => m.type === 'ready'));
  return { page, errors };
}

/**
 * Delivers `messages` to the page as the extension's postMessage would.
 * @param {Page} page
 * @param {unknown[]} messages
 */
export const post = (page, messages) =>
  page.evaluate((ms) => {
    for (const m of ms) window.postMessage(m, '*');
  }, messages);

/**
 * Waits until no rendering work is pending.
 * @param {Page} page
 */
export const waitIdle = (page) =>
  page.waitForFunction(() => window.__fdrefPerf.isIdle(), null, { polling: 50, timeout: 120_000 });

/** Mocha hooks: the chat server and Chromium for the current suite, as `{ browser, origin }` once `before` ran. */
export function useChatPage() {
  const shared = /** @type {{ browser: Browser, origin: string }} */ ({});
  /** @type {import('node:http').Server | undefined} */
  let server;
  before(async () => {
    ({ server, origin: shared.origin } = await startChatServer());
    shared.browser = await launchChromium();
  });
  after(async () => {
    await shared.browser?.close();
    server?.close();
  });
  return shared;
}
