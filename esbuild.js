// Bundles the extension (dist/extension.js), the pure core as CommonJS (dist/core.js) and the chat
// panel's webview script for the browser (dist/webview/chat.js, with the codicon font beside it); with
// --tests, also the integration suite that runs inside VS Code (out/test/integration/*.js).
// Modes: default (development, sourcemaps), --production (minified), --watch.
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

const builds = [
  { ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'] },
  { ...common, entryPoints: ['src/core/index.ts'], outfile: 'dist/core.js' },
  // The webview runs in a browser frame: one self-contained script, no Node built-ins.
  { ...common, entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview/chat.js', platform: 'browser', format: 'iife', target: 'es2022' },
];

/** The webview loads codicons from its own folder (the CSP allows nothing remote). */
function copyCodicons() {
  const from = path.join('node_modules', '@vscode', 'codicons', 'dist');
  fs.mkdirSync('dist/webview', { recursive: true });
  for (const file of ['codicon.css', 'codicon.ttf']) fs.copyFileSync(path.join(from, file), path.join('dist/webview', file));
}

if (tests) {
  const dir = 'test/integration';
  const entries = fs.readdirSync(dir).filter((f) => f === 'index.ts' || f.endsWith('.test.ts')).map((f) => path.join(dir, f));
  fs.rmSync('out/test/integration', { recursive: true, force: true });
  builds.push({ ...common, minify: false, entryPoints: entries, outdir: 'out/test/integration', external: ['vscode', 'mocha'] });
}

/**
 * In watch mode, says when a build starts and ends and prints each error as `$esbuild-watch` (the problem matcher
 * of the recommended connor4312.esbuild-problem-matchers extension, used by .vscode/tasks.json) reads it.
 * @type {import('esbuild').Plugin}
 */
let building = 0; // builds running now: one started/finished pair spans all of them
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
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context({ ...b, logLevel: 'silent', plugins: [problemMatcherPlugin] })));
    await Promise.all(contexts.map((c) => c.watch()));
    console.log('esbuild: watching for changes');
    return;
  }
  await Promise.all(builds.map((b) => esbuild.build(b)));
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
