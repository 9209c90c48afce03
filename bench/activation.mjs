// Activation benchmark: what fdref costs a window that does not use it. Prints the bytes of the bundle VS Code loads
// at activation (and what it holds, and what loads later), then the activation time VS Code itself reports
// ("Developer: Show Running Extensions") for the installed VSIX, the median of several starts of the workbench,
// beside the same for an extension that does nothing (bench/activation-floor), started alone in turns with fdref
// (started together, the one activated second would wait for the other). The target (issue 23): at most 2x the
// empty extension, the medians of the starts compared. Run by `npm run bench`;
// FDREF_BENCH_VSCODE picks the VS Code version (default the newest), FDREF_BENCH_STARTS the starts of each.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupAll, launchBrowser, startServer } from '../scripts/vscode-host/host.mjs';
import { VSCODE_BUILDS } from '../scripts/vscode-host/versions.mjs';
import { packageVsix } from '../scripts/vscode-host/vsix.mjs';
import { Workbench } from '../test/ui/pages/workbench.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** @type {typeof import('../esbuild.js')} */
const { ACTIVATION_BUNDLE_LIMIT, measureActivationBundle } = createRequire(import.meta.url)('../esbuild.js');
/** fdref's median may be at most this many times the empty extension's. */
const TARGET_RATIO = 2;
const STARTS = Number(process.env.FDREF_BENCH_STARTS || 5);
const FLOOR = 'Activation Floor';

const wanted = process.env.FDREF_BENCH_VSCODE;
const build = wanted ? VSCODE_BUILDS.find((b) => b.vscode === wanted) : VSCODE_BUILDS[VSCODE_BUILDS.length - 1];
if (!build) throw new Error(`FDREF_BENCH_VSCODE=${wanted} names no known build`);

const kb = (/** @type {number} */ bytes) => `${(bytes / 1000).toFixed(0)} KB`;
const median = (/** @type {number[]} */ values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
let missed = 0;
/** @param {boolean} ok */
function verdict(ok) {
  if (!ok) missed++;
  return ok ? 'PASS' : 'MISSED';
}

console.log(`\nfdref activation benchmark, ${new Date().toISOString()}`);

/** @param {import('../scripts/vscode-host/versions.mjs').VsCodeBuild} build */
async function main(build) {
  const bundle = await measureActivationBundle();
  console.log(
    `${'activation bundle (dist/extension.js, minified)'.padEnd(52)} ${bundle.bytes} bytes = ${kb(bundle.bytes)}  target < ${kb(ACTIVATION_BUNDLE_LIMIT)}  ${verdict(bundle.bytes < ACTIVATION_BUNDLE_LIMIT)}`,
  );
  console.log(
    `  largest parts: ${bundle.parts
      .slice(0, 6)
      .map(([part, bytes]) => `${part} ${kb(bytes)}`)
      .join(', ')}`,
  );

  const vsix = packageVsix({ repo });
  const listing = execFileSync(
    'python3',
    [
      '-c',
      'import sys, zipfile; print("\\n".join(f"{i.filename}\\t{i.file_size}" for i in zipfile.ZipFile(sys.argv[1]).infolist()))',
      vsix,
    ],
    { encoding: 'utf8' },
  );
  const lazy = listing
    .split('\n')
    .map((line) => line.split('\t'))
    .filter(
      ([name]) =>
        name.startsWith('extension/dist/vendor/') ||
        ['chat.js', 'window.js'].some((file) => name === `extension/dist/${file}`),
    )
    .map(([name, size]) => `${name.slice('extension/'.length)} ${kb(Number(size))}`);
  console.log(
    `  loaded on first use (the window's objects when a command, view, hover over an id, tool or terminal command first needs them, the chat's code when a chat is first shown, the SDKs when a chat creates a client, jsonc-parser when Connect an Agent edits a file): ${lazy.join(', ')}`,
  );

  /**
   * Starts the workbench with one extension installed and returns the activation time VS Code reports for it.
   * @param {string} name
   * @param {{ vsix?: string[], installed?: string[] }} install
   */
  async function activationOnce(name, install) {
    const server = await startServer({
      build,
      workspaceTemplate: path.join(repo, 'demo'),
      smokeTestDriver: false,
      ...install,
    });
    const browser = await launchBrowser();
    try {
      const page = browser.pages()[0] ?? (await browser.newPage());
      await page.goto(server.url(server.workspace));
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      return (await new Workbench(page).runningExtensions.activationTimes([name]))[name];
    } finally {
      await browser.close();
      await server.stop();
    }
  }

  /** @type {number[]} */
  const fdref = [];
  /** @type {number[]} */
  const floor = [];
  for (let start = 1; start <= STARTS; start++) {
    fdref.push(await activationOnce('FD Refs', { vsix: [vsix] }));
    floor.push(await activationOnce(FLOOR, { installed: [path.join(repo, 'bench', 'activation-floor')] }));
    console.log(
      `  start ${start} of ${STARTS} on VS Code ${build.vscode}: fdref ${fdref.at(-1)} ms, the empty extension ${floor.at(-1)} ms`,
    );
  }
  await cleanupAll();
  const ms = median(fdref);
  const floorMs = median(floor);
  const ratio = ms / Math.max(floorMs, 1);
  console.log(
    `${`activation time reported by VS Code ${build.vscode} (median of ${STARTS})`.padEnd(52)} ${ms} ms = ${ratio.toFixed(1)}x the empty extension (${floorMs} ms), measured side by side  target: at most ${TARGET_RATIO}x the empty extension  ${verdict(ratio <= TARGET_RATIO)}`,
  );
  console.log(missed === 0 ? 'all activation targets met' : `${missed} activation target(s) missed`);
  return missed === 0;
}

main(build)
  .then((ok) => process.exit(ok ? 0 : 1))
  .catch(async (error) => {
    console.error(`The activation benchmark could not run: ${error instanceof Error ? error.stack : error}`);
    await cleanupAll();
    process.exit(1);
  });
