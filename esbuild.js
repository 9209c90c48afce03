// Bundles what VS Code loads when the extension activates (dist/extension.js: every surface registered as a stand-in),
// what the window's first use of fdref loads (dist/window.js: the sessions, commands, providers, tools), the chat's
// code loaded when a chat is first shown (dist/chat.js),
// the provider SDKs a chat loads when it first needs one (dist/vendor/*.js), the pure core as CommonJS
// (dist/core.js), the MCP server other agents start (dist/mcp.js, with the MCP SDK, no vscode), the command-line tool
// (dist/cli.js: the wrapper agents' hooks run commands through, no vscode) and the chat panel's
// webview script for the browser (dist/webview/chat.js, with the codicon font beside it); with --tests, also the
// integration suite that runs inside VS Code (out/test/integration/*.js).
// Modes: default (development, sourcemaps), --production (minified), --watch. Required as a module (by the
// activation bundle test and the bench), it builds nothing and exports what they measure.
const fs = require('node:fs');
const path = require('node:path');
const esbuild = require('esbuild');

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
const tests = process.argv.includes('--tests');

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  logLevel: 'warning',
};

/**
 * Packages only some commands need, by package: each is bundled alone into dist/vendor/<name>.js. The provider
 * SDKs (a chat's first client) and jsonc-parser (Connect an Agent).
 * @type {Record<string, string>}
 */
const VENDOR = { '@anthropic-ai/sdk': 'anthropic', openai: 'openai', 'jsonc-parser': 'jsonc-parser' };

/**
 * What a vendor file is built from, where the package's default entry is not right: jsonc-parser's `main` is a UMD
 * build esbuild cannot follow, and it has no default export.
 * @type {Record<string, string>}
 */
const VENDOR_SOURCE = { 'jsonc-parser': "export * from 'jsonc-parser/lib/esm/main.js';\n" };

/**
 * Leaves the SDKs out of dist/extension.js: `require('openai')` (in src/core/chat/providers/sdks.ts, called when
 * a chat creates its first client) loads dist/vendor/openai.js instead. Each SDK then exists once, in its own file.
 * @type {import('esbuild').Plugin}
 */
const vendorPlugin = {
  name: 'vendor',
  setup(build) {
    const names = Object.keys(VENDOR).map((name) => name.replace(/[/.]/g, '\\$&'));
    build.onResolve({ filter: new RegExp(`^(${names.join('|')})$`) }, (args) => ({
      path: `./vendor/${VENDOR[args.path]}.js`,
      external: true,
    }));
  },
};

/**
 * The chat's code (src/chat/runtime/chatRuntime.ts) is bundled alone as dist/chat.js, loaded when a chat is first shown:
 * `require('./chatRuntime')` in src/chat/chatRuntimeLoader.ts becomes `require('./chat.js')`. Any other import of
 * chatRuntime.ts into the activation bundle is an error (it would load the chat at activation, or twice).
 * @type {import('esbuild').Plugin}
 */
const lazyChatPlugin = {
  name: 'lazy-chat',
  setup(build) {
    build.onResolve({ filter: /(^|\/)chatRuntime(\.ts)?$/ }, (args) => {
      if (args.importer.endsWith(path.join('src', 'chat', 'chatRuntimeLoader.ts')) && args.kind === 'require-call')
        return { path: './chat.js', external: true };
      return {
        errors: [
          { text: `${args.path} is loaded lazily: reach it through chatRuntime() in src/chat/chatRuntimeLoader.ts` },
        ],
      };
    });
  },
};

/**
 * fdref's objects for the window (src/window/fdrefWindow.ts) are bundled alone as dist/window.js, loaded when the
 * window first uses fdref: `require('../window/fdrefWindow')` in src/activation/windowLoader.ts becomes
 * `require('./window.js')`. Any other import of fdrefWindow.ts into the activation bundle is an error.
 * @type {import('esbuild').Plugin}
 */
const lazyWindowPlugin = {
  name: 'lazy-window',
  setup(build) {
    build.onResolve({ filter: /(^|\/)fdrefWindow(\.ts)?$/ }, (args) => {
      if (args.importer.endsWith(path.join('src', 'activation', 'windowLoader.ts')) && args.kind === 'require-call')
        return { path: './window.js', external: true };
      return {
        errors: [
          { text: `${args.path} is loaded lazily: reach it through windowModule() in src/activation/windowLoader.ts` },
        ],
      };
    });
  },
};

/** Most bytes the minified dist/extension.js, loaded when fdref activates, may have (`npm run bench`, the tests). */
const ACTIVATION_BUNDLE_LIMIT = 40_000;

/**
 * What VS Code loads when fdref activates.
 * @type {import('esbuild').BuildOptions}
 */
const extensionBuild = {
  ...common,
  entryPoints: ['src/extension.ts'],
  outfile: 'dist/extension.js',
  external: ['vscode'],
  plugins: [vendorPlugin, lazyChatPlugin, lazyWindowPlugin],
};

/**
 * What the window's first use of fdref loads (see lazyWindowPlugin).
 * @type {import('esbuild').BuildOptions}
 */
const windowBuild = {
  ...common,
  entryPoints: ['src/window/fdrefWindow.ts'],
  outfile: 'dist/window.js',
  external: ['vscode'],
  plugins: [vendorPlugin, lazyChatPlugin],
};

/**
 * What a chat loads when it is first shown (see lazyChatPlugin): the panel, the conversation, the model clients.
 * @type {import('esbuild').BuildOptions}
 */
const chatBuild = {
  ...common,
  entryPoints: ['src/chat/runtime/chatRuntime.ts'],
  outfile: 'dist/chat.js',
  external: ['vscode'],
  plugins: [vendorPlugin],
};

/**
 * `node dist/mcp.js --store ... --workspace ...`: the MCP server other agents start. Node 20, no VS Code;
 * everything it needs (the MCP SDK included) is in the one file. The MCP tests build it from here.
 * @type {import('esbuild').BuildOptions}
 */
const mcpBuild = {
  ...common,
  entryPoints: ['src/mcp/main.ts'],
  outfile: 'dist/mcp.js',
  banner: { js: '#!/usr/bin/env node' },
  define: { 'process.env.FDREF_VERSION': JSON.stringify(require('./package.json').version) },
};

/**
 * `node dist/cli.js <sub-command> ...`: fdref's command-line tool (the `run` wrapper agents' hooks put around a
 * shell command, and `read`/`search`/`tail`/`list`/`keep`). Plain Node, no VS Code, one file like dist/mcp.js.
 * @type {import('esbuild').BuildOptions}
 */
const cliBuild = {
  ...common,
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/cli.js',
  banner: { js: '#!/usr/bin/env node' },
};

/**
 * The worker thread query_fd runs jq on (src/core/tools/jqOffThread.ts), with jq's wasm inlined (about 1.4 MB):
 * started only when a query runs, from beside whichever bundle runs it (dist/window.js, dist/chat.js, dist/mcp.js).
 * @type {import('esbuild').BuildOptions}
 */
const jqWorkerBuild = { ...common, entryPoints: ['src/core/tools/jqWorker.ts'], outfile: 'dist/jqWorker.js' };

/**
 * The worker thread diff_fd diffs on (src/core/diff/diffOffThread.ts), jsdiff bundled in: started, as jq's, only
 * when a diff runs, from beside the bundle that runs it.
 * @type {import('esbuild').BuildOptions}
 */
const diffWorkerBuild = { ...common, entryPoints: ['src/core/diff/diffWorker.ts'], outfile: 'dist/diffWorker.js' };

/**
 * libsql's JavaScript looks for its native part as the package `@libsql/<target>`; bundled, it looks for
 * `native/libsql-<target>.node` beside the bundle instead, where `copyLibsqlNative` puts the binaries installed.
 * @type {import('esbuild').Plugin}
 */
const libsqlNativePlugin = {
  name: 'libsql-native',
  setup(build) {
    build.onLoad({ filter: /[\\/]node_modules[\\/]libsql[\\/]index\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, 'utf8');
      const call = 'return require(`@libsql/${target}`);';
      if (!source.includes(call)) throw new Error(`libsql's loader changed: ${args.path} no longer has ${call}`);
      const replaced = source.replace(
        call,
        "return require(require('node:path').join(__dirname, 'native', `libsql-${target}.node`));",
      );
      return { contents: replaced, loader: 'js' };
    });
  },
};

/**
 * The worker thread that holds a process's connection to the store's search index (src/core/search/storeSearch.ts):
 * SQLite through node:sqlite, or libsql bundled with its native part in dist/native/.
 * @type {import('esbuild').BuildOptions}
 */
const searchWorkerBuild = {
  ...common,
  entryPoints: ['src/core/search/searchWorker.ts'],
  outfile: 'dist/searchWorker.js',
  plugins: [libsqlNativePlugin],
};

/** The libsql binaries npm installed (this platform's), as dist/native/libsql-<target>.node. */
function copyLibsqlNative() {
  const scope = path.join(__dirname, 'node_modules', '@libsql');
  if (!fs.existsSync(scope)) return;
  fs.mkdirSync(path.join(__dirname, 'dist', 'native'), { recursive: true });
  for (const target of fs.readdirSync(scope)) {
    const binary = path.join(scope, target, 'index.node');
    if (fs.existsSync(binary)) fs.copyFileSync(binary, path.join(__dirname, 'dist', 'native', `libsql-${target}.node`));
  }
}

/** @type {import('esbuild').BuildOptions[]} */
const builds = [
  extensionBuild,
  windowBuild,
  chatBuild,
  // From the SDK's ES modules, which esbuild tree-shakes (their CommonJS build bundles 40% larger); the file exports
  // what `require(name)` would.
  ...Object.entries(VENDOR).map(([name, file]) => ({
    ...common,
    stdin: {
      contents: VENDOR_SOURCE[name] ?? `export * from '${name}';\nexport { default } from '${name}';\n`,
      resolveDir: __dirname,
      sourcefile: `vendor/${file}.js`,
    },
    outfile: `dist/vendor/${file}.js`,
  })),
  { ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core.js' },
  // The worker thread Connect an Agent merges a configuration on (src/core/agents/mergeOffThread.ts).
  {
    ...common,
    entryPoints: ['src/core/agents/mergeWorker.ts'],
    outfile: 'dist/agentConfigMerge.js',
    plugins: [vendorPlugin],
  },
  jqWorkerBuild,
  diffWorkerBuild,
  searchWorkerBuild,
  mcpBuild,
  cliBuild,
  // The webview runs in a browser frame: one self-contained script, no Node built-ins.
  {
    ...common,
    entryPoints: ['src/webview/main.ts'],
    outfile: 'dist/webview/chat.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
];

/** The webview loads codicons from its own folder (the CSP allows nothing remote). */
function copyCodicons() {
  const from = path.join('node_modules', '@vscode', 'codicons', 'dist');
  fs.mkdirSync('dist/webview', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf'])
    fs.copyFileSync(path.join(from, file), path.join('dist/webview', file));
}

if (tests) {
  const dir = 'test/integration';
  const entries = fs
    .readdirSync(dir)
    .filter((f) => f === 'index.ts' || f.endsWith('.test.ts'))
    .map((f) => path.join(dir, f));
  // A process of its own the tests start (another fdref writing the store), bundled beside them.
  entries.push(path.join(dir, 'support', 'storeProcess.ts'));
  fs.rmSync('out/test/integration', { recursive: true, force: true });
  builds.push({
    ...common,
    minify: false,
    entryPoints: entries,
    outdir: 'out/test/integration',
    external: ['vscode', 'mocha'],
  });
}

let building = 0; // builds running now: one started/finished pair spans all of them
/**
 * In watch mode, says when a build starts and ends and prints each error as `$esbuild-watch` (the problem matcher
 * of the recommended connor4312.esbuild-problem-matchers extension, used by .vscode/tasks.json) reads it.
 * @type {import('esbuild').Plugin}
 */
const problemMatcherPlugin = {
  name: 'problem-matcher',
  setup(build) {
    build.onStart(() => {
      if (building++ === 0) console.log('[watch] build started');
    });
    build.onEnd((result) => {
      for (const { text, location } of result.errors) {
        console.error(`✘ [ERROR] ${text}`);
        if (location) console.error(`    ${location.file}:${location.line}:${location.column}:`);
      }
      if (--building === 0) console.log('[watch] build finished');
    });
  },
};

async function main() {
  copyCodicons();
  copyLibsqlNative();
  if (watch) {
    const contexts = await Promise.all(
      builds.map((b) =>
        esbuild.context({ ...b, logLevel: 'silent', plugins: [...(b.plugins ?? []), problemMatcherPlugin] }),
      ),
    );
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching for changes');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

/**
 * A bundle as `npm run package` builds it (minified), measured in memory: its size, the bytes each package or source
 * folder adds, the source files it holds (`inputs`), and where the source loads a file of its own beside the bundle
 * (dist/vendor/*.js, dist/chat.js or dist/window.js: `from`, the syntax as `kind`).
 * @param {import('esbuild').BuildOptions} options
 */
async function measureBundle(options) {
  const result = await esbuild.build({
    ...options,
    minify: true,
    sourcemap: false,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.values(result.metafile.outputs)[0];
  /** @type {Map<string, number>} */
  const parts = new Map();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const match = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(input);
    const part = match ? match[1] : input.split('/').slice(0, 2).join('/');
    parts.set(part, (parts.get(part) ?? 0) + bytesInOutput);
  }
  const lazy = Object.entries(result.metafile.inputs).flatMap(([from, input]) =>
    input.imports
      .filter((i) => i.path.startsWith('./vendor/') || i.path === './chat.js' || i.path === './window.js')
      .map((i) => ({ from, path: i.path, kind: i.kind })),
  );
  return {
    bytes: output.bytes,
    parts: [...parts].sort((a, b) => b[1] - a[1]),
    inputs: Object.keys(output.inputs).filter((input) => input.startsWith('src/')),
    lazy,
    vendorPackages: Object.keys(VENDOR),
  };
}

/** dist/extension.js, what VS Code loads when fdref activates (see `measureBundle`). */
function measureActivationBundle() {
  return measureBundle(extensionBuild);
}

/** dist/window.js, what the window's first use of fdref loads (see `measureBundle`). */
function measureWindowBundle() {
  return measureBundle(windowBuild);
}

/** dist/chat.js, what the first chat shown loads (see `measureBundle`). */
function measureChatBundle() {
  return measureBundle(chatBuild);
}

module.exports = {
  ACTIVATION_BUNDLE_LIMIT,
  chatBuild,
  cliBuild,
  copyLibsqlNative,
  diffWorkerBuild,
  extensionBuild,
  jqWorkerBuild,
  mcpBuild,
  searchWorkerBuild,
  measureActivationBundle,
  measureChatBundle,
  measureWindowBundle,
  VENDOR,
  windowBuild,
};

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
