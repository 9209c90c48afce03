// Bundles the extension (dist/extension.js) and the pure core as CommonJS (dist/core.js); with --tests,
// also the integration suite that runs inside VS Code (out/test/integration/*.js).
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
];

if (tests) {
  const dir = 'test/integration';
  const entries = fs.readdirSync(dir).filter((f) => f === 'index.ts' || f.endsWith('.test.ts')).map((f) => path.join(dir, f));
  fs.rmSync('out/test/integration', { recursive: true, force: true });
  builds.push({ ...common, minify: false, entryPoints: entries, outdir: 'out/test/integration', external: ['vscode', 'mocha'] });
}

async function main() {
  if (watch) {
    const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
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
