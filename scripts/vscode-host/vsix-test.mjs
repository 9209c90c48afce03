// The VSIX smoke test: builds fdref.vsix as `npm run package` does (in a temporary copy, see vsix.mjs), installs it
// into VS Code's server with `--install-extension`, starts the workbench with no development path, and checks in
// Chromium what a user of the installed extension sees: fdref activates, its view shows, and a chat answers from
// the loopback model endpoint over both protocols, so the chat's lazily loaded code (dist/chat.js) and each
// provider SDK (dist/vendor/) must be in the package. Runs on every build in versions.mjs (FDREF_VSIX_VSCODE=1.139.1 picks one); FDREF_VSIX=<file> tests that
// VSIX instead of building one. Saves a PNG screenshot of each step in screenshots/vsix-<VS Code version>/
// (git-ignored). Prints mocha-style results; exits non-zero when a step fails.
import { existsSync, lstatSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cleanupAll, launchBrowser, startModelEndpoint, startServer } from './host.mjs';
import { VSCODE_BUILDS } from './versions.mjs';
import { packageVsix } from './vsix.mjs';
import { Workbench } from '../../test/ui/pages/workbench.mjs';
import { STEP_TIMEOUT } from '../../test/ui/pages/waits.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wanted = process.env.FDREF_VSIX_VSCODE;
const builds = wanted ? VSCODE_BUILDS.filter((b) => b.vscode === wanted) : VSCODE_BUILDS;

const OPENAI = { name: 'Loopback (OpenAI protocol)', protocol: 'openai', model: 'loopback-gpt', demo: true };
const ANTHROPIC = {
  name: 'Loopback (Anthropic protocol)',
  protocol: 'anthropic',
  model: 'loopback-claude',
  demo: true,
};

/**
 * @param {import('./versions.mjs').VsCodeBuild} build
 * @param {string} vsix
 */
async function main(build, vsix) {
  console.log(`\n== VSIX smoke test on VS Code ${build.vscode}: ${path.basename(vsix)} installed, no development path`);
  /** @type {boolean[]} */
  const results = [];
  /** @type {import('playwright-core').Page | undefined} */
  let page;
  /** @type {string[]} */
  const errors = [];
  const shots = path.join(repo, 'screenshots', `vsix-${build.vscode}`);
  mkdirSync(shots, { recursive: true });
  for (const file of readdirSync(shots)) if (/^\d\d-.*\.png$/.test(file)) rmSync(path.join(shots, file));
  /**
   * @param {string} name
   * @param {() => Promise<void>} fn
   */
  const step = async (name, fn) => {
    const started = Date.now();
    errors.length = 0;
    try {
      await fn();
      results.push(true);
      console.log(`    ✔ ${name} (${Date.now() - started}ms)`);
    } catch (error) {
      results.push(false);
      console.log(`    ✗ ${name}\n      ${error instanceof Error ? error.message.split('\n')[0] : error}`);
      for (const line of errors.slice(-10)) console.log(`      console: ${line}`);
    } finally {
      const file = path.join(
        shots,
        `${String(results.length).padStart(2, '0')}-${name
          .replace(/[^a-z0-9]+/gi, '-')
          .slice(0, 60)
          .toLowerCase()}.png`,
      );
      await page?.screenshot({ path: file }).catch(() => {});
    }
  };

  const models = await startModelEndpoint({ repo });
  const server = await startServer({
    build,
    workspaceTemplate: path.join(repo, 'demo'),
    settings: {
      'fdref.chat.endpoints': [
        { ...OPENAI, baseUrl: models.openaiBaseUrl },
        { ...ANTHROPIC, baseUrl: models.anthropicBaseUrl },
      ],
    },
    smokeTestDriver: false,
    vsix: [vsix],
  });
  const browser = await launchBrowser();
  page = browser.pages()[0] ?? (await browser.newPage());
  const workbench = new Workbench(page);
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text().split('\n')[0].slice(0, 300));
  });

  await step('the VSIX is installed as a user installs it, not linked to a development folder', async () => {
    const folders = readdirSync(server.dirs.extensions).filter((name) => name.startsWith('fdref.fdref-'));
    if (folders.length !== 1)
      throw new Error(
        `expected one installed fdref in ${server.dirs.extensions}, found: ${folders.join(', ') || 'none'}`,
      );
    const installed = path.join(server.dirs.extensions, folders[0]);
    if (lstatSync(installed).isSymbolicLink()) throw new Error(`${installed} is a link`);
    if (!existsSync(path.join(installed, 'dist', 'extension.js')))
      throw new Error(`${installed} has no dist/extension.js`);
  });

  await page.goto(server.url(server.workspace));

  await step('the installed fdref activates when the workbench has started', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const times = await workbench.runningExtensions.activationTimes(['FD Refs']);
    console.log(`      activation time reported by VS Code: ${times['FD Refs']} ms`);
  });

  await step('the FD Refs view shows, with its welcome', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="FD Refs"]').click();
    await page
      .locator('.pane', { hasText: 'Sessions' })
      .getByText('No sessions yet')
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    // Still there once the view has measured the (empty) store: a view message would hide the welcome.
    await page.waitForTimeout(3000);
    if (!(await page.locator('.pane', { hasText: 'Sessions' }).getByText('No sessions yet').first().isVisible()))
      throw new Error('the welcome disappeared after the view measured the store');
  });

  await step('a chat answers from the loopback endpoint over the OpenAI protocol (dist/vendor/openai.js)', async () => {
    await workbench.runCommand('FD Refs: New Chat');
    await selectModel(page, `endpoint:${OPENAI.name}/${OPENAI.model}`);
    await askAndWait(page, 'Show me a greeting in Python.', 1);
  });

  await step('the same chat answers over the Anthropic protocol (dist/vendor/anthropic.js)', async () => {
    await selectModel(page, `endpoint:${ANTHROPIC.name}/${ANTHROPIC.model}`);
    await askAndWait(page, 'And once more, please.', 2);
  });

  await step(
    'the chat searches what was kept with search_fd fd="*" (dist/searchWorker.js and its SQLite)',
    async () => {
      await workbench.chat.ask('call search_fd {"fd":"*","session":"*","pattern":"def greet"}');
      // The call's headline: the index found the ref both answers kept (one content, so one line).
      await workbench.chat
        .frame()
        .getByText(/Searched \* for "def greet": 1 match/)
        .first()
        .waitFor({ timeout: STEP_TIMEOUT });
    },
  );

  await step('the chat is listed in the FD Refs view', async () => {
    await page
      .locator('.pane', { hasText: 'Sessions' })
      .locator('.monaco-list-row')
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });

  /**
   * Picks a model in the chat's model picker, as a person would.
   * @param {import('playwright-core').Page} page
   * @param {string} key
   */
  async function selectModel(page, key) {
    const picker = workbench.chat.frame().locator('select.model-picker');
    await picker.waitFor({ timeout: STEP_TIMEOUT });
    await picker.selectOption(key);
  }

  /**
   * Sends `prompt` and waits until `count` answers hold the demo answer's finished `ref:greet`; an error the chat
   * shows for this prompt fails at once, with its text.
   * @param {import('playwright-core').Page} page
   * @param {string} prompt
   * @param {number} count
   */
  async function askAndWait(page, prompt, count) {
    const frames = workbench.chat.frame().locator('section.ref-frame[aria-label="ref:greet"]:not(.is-writing)');
    const failures = workbench.chat.frame().locator('.error-box');
    const failuresBefore = await failures.count();
    await workbench.chat.ask(prompt);
    const deadline = Date.now() + STEP_TIMEOUT;
    while (Date.now() < deadline) {
      if ((await frames.count()) >= count) return;
      if ((await failures.count()) > failuresBefore)
        throw new Error(`the chat shows an error: ${(await failures.last().innerText()).replace(/\s+/g, ' ')}`);
      await page.waitForTimeout(200);
    }
    throw new Error(`${await frames.count()} of ${count} answers arrived within ${STEP_TIMEOUT / 1000} s`);
  }

  const failed = results.filter((ok) => !ok).length;
  console.log(`\n  ${results.length - failed} passing`);
  if (failed > 0) console.log(`  ${failed} failing`);
  await cleanupAll();
  return failed === 0;
}

async function mainOnEveryBuild() {
  if (builds.length === 0)
    throw new Error(
      `FDREF_VSIX_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`,
    );
  let ok = true;
  for (const build of builds) {
    // Packaged once per build: cleanupAll() at the end of a build removes the temporary folder.
    const vsix = process.env.FDREF_VSIX ? path.resolve(process.env.FDREF_VSIX) : packageVsix({ repo });
    ok = (await main(build, vsix)) && ok;
  }
  return ok;
}

mainOnEveryBuild()
  .then(async (ok) => {
    await cleanupAll();
    process.exit(ok ? 0 : 1);
  })
  .catch(async (error) => {
    console.error(`VSIX smoke test could not run: ${error instanceof Error ? error.stack : error}`);
    await cleanupAll();
    process.exit(1);
  });
