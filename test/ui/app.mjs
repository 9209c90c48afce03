// The VS Code the UI test drives: one server and one Chromium per run (hooks.mjs starts them before the first area and
// stops them after the last), with fdref installed as a user's VS Code has it, `npm start`'s demo workspace and
// settings, the Structs API emulator and the loopback model endpoint. No smoke-test driver, as `npm start` runs it:
// that driver hides notifications on 1.139. Areas reach it through `app()`.
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoSettings } from '../../scripts/vscode-host/demo.mjs';
import {
  cleanupAll,
  launchBrowser,
  startModelEndpoint,
  startServer,
  startStructsApi,
} from '../../scripts/vscode-host/host.mjs';
import { VSCODE_BUILDS } from '../../scripts/vscode-host/versions.mjs';
import { Workbench } from './pages/workbench.mjs';
import { RELOAD_TIMEOUT } from './pages/waits.mjs';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** The test-only extension with a scripted chat model (VS Code 1.104+), installed for the Chat view's area. */
const LM_FIXTURE = path.join(repo, 'test', 'fixtures', 'lm-extension');

/**
 * The build under test: FDREF_UI_VSCODE (scripts/vscode-host/ui-test.mjs sets it for each build in turn), else the
 * newest.
 */
export const build = (() => {
  const wanted = process.env.FDREF_UI_VSCODE;
  const found = wanted ? VSCODE_BUILDS.find((b) => b.vscode === wanted) : VSCODE_BUILDS[VSCODE_BUILDS.length - 1];
  if (!found)
    throw new Error(
      `FDREF_UI_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`,
    );
  return found;
})();

/** Whether the build has VS Code's Chat view and lets an extension offer a chat model (1.104+; 1.139.1 here). */
export const hasChatView = (() => {
  const [major = 0, minor = 0] = build.vscode.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 104);
})();

/**
 * What the areas share: the window and what was done in it, so a fixture (fixtures.mjs) does only what is missing.
 * @typedef {object} App
 * @property {import('playwright-core').Page} page
 * @property {Workbench} workbench
 * @property {Awaited<ReturnType<typeof startServer>>} server
 * @property {string} modelsUrl the loopback model endpoint, which lists the requests it was sent at /__requests
 * @property {string} screenshots the folder of this build's screenshots
 * @property {{ workspaceListed: boolean, auxiliaryBarVisible: boolean }} firstStart what the window showed when
 *   it first opened, before any area ran
 * @property {string[]} consoleErrors the workbench's console errors and warnings since the current test began
 * @property {FixtureState} state
 */

/**
 * What the window holds that a fixture may need (see fixtures.mjs); each test that changes it says so here.
 * @typedef {object} FixtureState
 * @property {boolean} capturedRefs chat-transcript.md's refs (ref:parse_config, ref:test_parse_config) were captured
 * @property {string | undefined} sideBarChat what the chat in the FD Refs side bar holds: 'greet' (the answer with
 *   ref:greet), 'greet+xss' (and the unsafe answer), 'readFd' (a long paste stored as fd:1, then a read_fd call),
 *   'new', or undefined when unknown
 * @property {string | undefined} chatTab what a chat in an editor tab holds ('greet+xss'), undefined when none
 */

/** @type {App | undefined} */
let launched;

/** The window under test; only inside a test or hook. */
export function app() {
  if (!launched) throw new Error('the UI test has not started VS Code (test/ui/hooks.mjs starts it)');
  return launched;
}

/** Starts the servers and the browser, and opens the demo workspace. */
export async function launch() {
  const screenshots = path.join(repo, 'screenshots', build.vscode);
  mkdirSync(screenshots, { recursive: true });
  // Screenshots of an earlier run would mix with this run's (the numbers shift when tests change).
  for (const file of readdirSync(screenshots)) if (/^\d\d-.*\.png$/.test(file)) rmSync(path.join(screenshots, file));
  console.log(`\n== UI test on VS Code ${build.vscode} (screenshots in ${path.relative(repo, screenshots)}/)`);
  const structsApi = await startStructsApi({ repo });
  const models = await startModelEndpoint({ repo });
  const server = await startServer({
    build,
    workspaceTemplate: path.join(repo, 'demo'),
    settings: demoSettings({ structsApi, models }),
    smokeTestDriver: false,
    installed: hasChatView ? [repo, LM_FIXTURE] : [repo],
  });
  const browser = await launchBrowser();
  const page = browser.pages()[0] ?? (await browser.newPage());
  /** @type {string[]} */
  const consoleErrors = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) consoleErrors.push(`navigated to ${frame.url().slice(0, 160)}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      consoleErrors.push(message.text().split('\n')[0].slice(0, 300));
  });
  const workbench = new Workbench(page);
  await page.goto(server.url(server.workspace));
  // What the first start shows is kept for the workbench area, which may run after others changed the window.
  const workspaceListed = await workbench
    .waitForWorkbench()
    .then(() => workbench.explorer.row('chat-transcript.md').waitFor({ timeout: RELOAD_TIMEOUT }))
    .then(
      () => true,
      () => false,
    );
  const auxiliaryBarVisible = await workbench.auxiliaryBar.isVisible();
  // The extensions' contributions (fdref's view, its commands in the palette) come a moment after the workbench: an
  // area that runs first waits for them here, not in its first step.
  await page
    .locator('.activitybar .action-item a[aria-label^="FD Refs"]')
    .waitFor({ timeout: RELOAD_TIMEOUT })
    .catch(() => {});
  launched = {
    page,
    workbench,
    server,
    modelsUrl: models.url,
    screenshots,
    firstStart: { workspaceListed, auxiliaryBarVisible },
    consoleErrors,
    state: { capturedRefs: false, sideBarChat: undefined, chatTab: undefined },
  };
  return launched;
}

/** Stops everything launch() started. */
export async function stop() {
  launched = undefined;
  await cleanupAll();
}
