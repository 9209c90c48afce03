// Starts VS Code's own server (from code-server) and Debian's Chromium on loopback, for the integration tests,
// the UI test and `npm start`. Everything started here is stopped by `stop()`, and on exit or a signal.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { chromium } from 'playwright-core';
import { freePort } from '../../test/support/freePort.mjs';
import { ensureCodeServer, ensureDebianPackages } from './install.mjs';

export const CHROMIUM = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

/** @typedef {import('./versions.mjs').VsCodeBuild} VsCodeBuild */

/** @type {Set<() => unknown>} */
const cleanups = new Set();
let exiting = false;

/** Runs every registered cleanup once (processes killed, temp folders removed). */
export async function cleanupAll() {
  for (const cleanup of [...cleanups].reverse()) {
    cleanups.delete(cleanup);
    try {
      await cleanup();
    } catch (error) {
      console.error(`[vscode-host] cleanup failed: ${error instanceof Error ? error.message : error}`);
    }
  }
}

/** @param {NodeJS.Signals} signal */
function onExit(signal) {
  if (exiting) return;
  exiting = true;
  cleanupAll().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
}
process.once('SIGINT', () => onExit('SIGINT'));
process.once('SIGTERM', () => onExit('SIGTERM'));

/**
 * @template {() => unknown} T
 * @param {T} cleanup
 * @returns {T}
 */
function register(cleanup) {
  cleanups.add(cleanup);
  return cleanup;
}

/**
 * A temporary folder removed at cleanup.
 * @param {string} prefix
 */
export function tempFolder(prefix) {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  register(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/**
 * Polls `url` until it answers, or throws after `timeoutMs`.
 * @param {string} url
 * @param {number} timeoutMs
 * @param {import('node:child_process').ChildProcess} child
 */
async function waitForHttp(url, timeoutMs, child) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server at ${url} exited early with code ${child.exitCode}`);
    try {
      const response = await fetch(url);
      if (response.status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`nothing answered at ${url} within ${timeoutMs / 1000} s`);
}

/**
 * Starts the VS Code server of `build` with fresh data folders and `workspace` copied from `workspaceTemplate`.
 * `log(line)` receives the server's output. Returns where it listens and how to stop it.
 *
 * Two ways to load an extension under development:
 * - the extension tests pass it in the URL's smoke-test `payload`, which the workbench honours only with
 *   `--enable-smoke-test-driver` (`smokeTestDriver`, the default);
 * - a person's window (`npm start`, the UI test) must not run that driver: with it, VS Code 1.139 shows no
 *   notification toasts and skips dialogs. There `installed` names extension folders that are linked into the
 *   extensions folder, which the server scans at start as it does for extensions a user installed.
 * `vsix` names packaged extensions that the server installs (`--install-extension`) before it starts, as a user would.
 * @param {object} options
 * @param {VsCodeBuild} options.build
 * @param {string} [options.workspaceTemplate]
 * @param {Record<string, unknown>} [options.settings]
 * @param {(line: string) => void} [options.log]
 * @param {boolean} [options.smokeTestDriver]
 * @param {string[]} [options.installed]
 * @param {string[]} [options.vsix]
 * @param {number} [options.port]
 * @param {NodeJS.ProcessEnv | ((root: string) => NodeJS.ProcessEnv)} [options.env] variables for VS Code, or what
 *   gives them from the run's temporary folder (for a path inside it)
 */
export async function startServer({
  build,
  workspaceTemplate,
  settings = {},
  log = () => {},
  smokeTestDriver = true,
  installed = [],
  vsix = [],
  port: wantedPort,
  env = {},
}) {
  ensureDebianPackages();
  const layout = ensureCodeServer(build);
  const root = tempFolder(`fdref-vscode-${build.vscode}-`);
  const dirs = Object.fromEntries(
    ['server-data', 'user-data', 'extensions', 'tmp', 'config', 'data', 'workspace'].map((name) => {
      const dir = path.join(root, name);
      mkdirSync(dir, { recursive: true });
      return [name, dir];
    }),
  );
  if (workspaceTemplate) cpSync(workspaceTemplate, dirs.workspace, { recursive: true });
  const userSettings = {
    'workbench.startupEditor': 'none',
    'security.workspace.trust.enabled': false,
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'telemetry.telemetryLevel': 'off',
    'update.mode': 'none',
    'workbench.enableExperiments': false,
    'workbench.tips.enabled': false,
    ...settings,
  };
  for (const base of [path.join(dirs['server-data'], 'data', 'User'), path.join(dirs['user-data'], 'User')]) {
    mkdirSync(base, { recursive: true });
    writeFileSync(path.join(base, 'settings.json'), JSON.stringify(userSettings, null, 2));
  }
  for (const folder of installed) linkExtension(folder, dirs.extensions);
  const serverEnv = {
    ...process.env,
    TMPDIR: dirs.tmp,
    XDG_CONFIG_HOME: dirs.config,
    XDG_DATA_HOME: dirs.data,
    VSCODE_AGENT_FOLDER: dirs['server-data'],
    ...(typeof env === 'function' ? env(root) : env),
  };
  for (const file of vsix) {
    const installArgs = [
      '--install-extension',
      file,
      '--extensions-dir',
      dirs.extensions,
      '--server-data-dir',
      dirs['server-data'],
      '--accept-server-license-terms',
    ];
    execFileSync(layout.node, [layout.serverMain, ...installArgs], {
      env: serverEnv,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
  }
  const port = wantedPort ?? (await freePort());
  const args = [
    layout.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--accept-server-license-terms',
    '--server-data-dir',
    dirs['server-data'],
    '--user-data-dir',
    dirs['user-data'],
    '--extensions-dir',
    dirs.extensions,
  ];
  if (smokeTestDriver) args.push('--enable-smoke-test-driver');
  const child = spawn(layout.node, args, {
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: serverEnv,
  });
  const stopServer = register(async () => {
    const pid = child.pid;
    if (child.exitCode === null && pid) {
      try {
        process.kill(-pid, 'SIGTERM');
      } catch {
        // already gone
      }
      /** @type {Promise<void>} */
      const stopped = new Promise((r) => {
        const timer = setTimeout(() => {
          try {
            process.kill(-pid, 'SIGKILL');
          } catch {
            // already gone
          }
          r();
        }, 3000);
        child.once('exit', () => {
          clearTimeout(timer);
          r();
        });
      });
      await stopped;
    }
  });
  for (const stream of [child.stdout, child.stderr]) {
    let pending = '';
    stream.setEncoding('utf8');
    stream.on('data', (data) => {
      pending += data;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) log(line);
    });
  }
  const origin = `http://127.0.0.1:${port}`;
  await waitForHttp(origin, 60_000, child);
  return {
    origin,
    port,
    workspace: dirs.workspace,
    dirs,
    /**
     * The workbench URL for `folder`, with an optional smoke-test payload.
     * @param {string} folder
     * @param {unknown} [payload]
     */
    url(folder, payload) {
      const query = new URLSearchParams({ folder });
      if (payload) query.set('payload', JSON.stringify(payload));
      return `${origin}/?${query.toString()}`;
    },
    /**
     * A `vscode-remote:` URI the workbench resolves on this server.
     * @param {string} absolutePath
     */
    remote(absolutePath) {
      return `vscode-remote://127.0.0.1:${port}${absolutePath}`;
    },
    stop: async () => {
      cleanups.delete(stopServer);
      await stopServer();
    },
  };
}

/**
 * Links an extension folder into an extensions folder under the name VS Code gives an installed extension
 * (`publisher.name-version`); the server adds it to its `extensions.json` when it scans at start.
 * @param {string} folder
 * @param {string} extensionsDir
 */
export function linkExtension(folder, extensionsDir) {
  const manifest = JSON.parse(readFileSync(path.join(folder, 'package.json'), 'utf8'));
  symlinkSync(folder, path.join(extensionsDir, `${manifest.publisher}.${manifest.name}-${manifest.version}`), 'dir');
}

/**
 * Starts the Structs API emulator (`npm run structs-api`) on a free loopback port in its own process, for the
 * demo and the UI test. Returns its base URL; it is stopped at cleanup.
 * @param {{ repo: string }} options
 */
export async function startStructsApi({ repo }) {
  const { url, child } = await startTsxScript(repo, 'structs-api.ts');
  await waitForHttp(`${url}/structs/player?pagination.limit=1`, 30_000, child);
  return url;
}

/**
 * Runs `scripts/<script> --port <free port>` with tsx in its own process group, stopped at cleanup.
 * @param {string} repo
 * @param {string} script
 */
async function startTsxScript(repo, script) {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [
      path.join(repo, 'node_modules', 'tsx', 'dist', 'cli.mjs'),
      path.join(repo, 'scripts', script),
      '--port',
      String(port),
    ],
    {
      cwd: repo,
      detached: true,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  register(async () => {
    if (child.exitCode === null && child.pid) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }
  });
  return { url: `http://127.0.0.1:${port}`, child };
}

/**
 * Starts the loopback model endpoint (scripts/model-endpoint.ts) in its own process; returns its base URLs.
 * @param {{ repo: string }} options
 */
export async function startModelEndpoint({ repo }) {
  const { url, child } = await startTsxScript(repo, 'model-endpoint.ts');
  await waitForHttp(`${url}/openai/v1/models`, 30_000, child);
  return { url, anthropicBaseUrl: `${url}/anthropic`, openaiBaseUrl: `${url}/openai/v1` };
}

/** Launches Debian's Chromium, headless unless `headed`. */
export async function launchBrowser({ headed = false } = {}) {
  const profile = tempFolder('fdref-chromium-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: !headed,
    args: CHROMIUM_ARGS,
    viewport: { width: 1400, height: 900 },
  });
  register(() => context.close().catch(() => {}));
  return context;
}
