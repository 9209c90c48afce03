// The UI test: drives the workbench in Chromium as a person would (quick open, command palette, quick picks,
// the FD Refs tree, a hover) with fdref loaded, checks what a person would see, and saves a PNG screenshot of
// every step in screenshots/<VS Code version>/ (git-ignored). Runs on every build in versions.mjs
// (FDREF_UI_VSCODE=1.139.1 picks one), with fdref installed as a user's VS Code has it and no smoke-test driver,
// as `npm start` runs it: that driver hides notifications on 1.139. Prints mocha-style results per build; exits
// non-zero when a step fails.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { demoSettings } from './demo.mjs';
import { cleanupAll, launchBrowser, startModelEndpoint, startServer, startStructsApi } from './host.mjs';
import { VSCODE_BUILDS } from './versions.mjs';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const wanted = process.env.FDREF_UI_VSCODE;
const builds = wanted ? VSCODE_BUILDS.filter((b) => b.vscode === wanted) : VSCODE_BUILDS;
const STEP_TIMEOUT = 20_000;
/** The test-only extension with a scripted chat model (VS Code 1.104+), installed for the Chat view steps. */
const LM_FIXTURE = path.join(repo, 'test', 'fixtures', 'lm-extension');

/**
 * The names the tool picker shows for the language model tools fdref contributes (`toolReferenceName`, else `name`),
 * under the group "FD Refs".
 * @returns {string[]}
 */
function contributedTools() {
  const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  /** @type {{ name: string, toolReferenceName?: string }[]} */
  const tools = manifest.contributes?.languageModelTools ?? [];
  return tools.map((t) => t.toolReferenceName ?? t.name);
}

/**
 * Whether a build has VS Code's Chat view and lets an extension offer a chat model (1.104+; 1.139.1 here).
 * @param {import('./versions.mjs').VsCodeBuild} build
 */
function hasChatView(build) {
  const [major = 0, minor = 0] = build.vscode.split('.').map(Number);
  return major > 1 || (major === 1 && minor >= 104);
}

// The build under test: main() sets them before its first step.
/** @type {import('playwright-core').Page} */
let page;
/** @type {Awaited<ReturnType<typeof startServer>>} */
let server;
/** @type {string} */
let shots;
/** @type {{ name: string, ok: boolean, error?: unknown }[]} */
let results = [];

/**
 * The workbench's console errors during the current step, printed when it fails.
 * @type {string[]}
 */
let consoleErrors = [];

/**
 * @param {string} name
 * @param {() => Promise<void>} fn
 */
async function step(name, fn) {
  const started = Date.now();
  consoleErrors = [];
  try {
    await fn();
    results.push({ name, ok: true });
    console.log(`    ✔ ${name} (${Date.now() - started}ms)`);
  } catch (error) {
    results.push({ name, ok: false, error });
    console.log(`    ✗ ${name}\n      ${error instanceof Error ? error.message.split('\n')[0] : error}`);
    for (const line of consoleErrors.slice(-15)) console.log(`      console: ${line}`);
  } finally {
    const file = path.join(
      shots,
      `${String(results.length).padStart(2, '0')}-${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.png`,
    );
    await page?.screenshot({ path: file }).catch(() => {});
  }
}

/**
 * Runs a command from the command palette by its title, as a person would.
 * @param {string} title
 */
async function runCommand(title) {
  await page.keyboard.press('F1');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(`>${title}`);
  // Clicked rather than Enter: Enter runs the row that has the focus, which may still be another while the list filters.
  const row = page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first();
  await row.waitFor({ timeout: STEP_TIMEOUT });
  await row.click();
}

/**
 * Runs one of the chat commands (Fork, Retry, Export) from the palette; when no chat has the focus (the palette took
 * it), the command asks which chat with a quick pick, open chats first: the first is taken.
 * @param {string} title
 */
async function chatCommand(title) {
  await runCommand(title);
  // The palette's own list may still be on its way out: look for the chat pick by its placeholder.
  const asking = page.locator('.quick-input-widget input[placeholder="Pick a chat"]');
  const asked = await asking.waitFor({ state: 'visible', timeout: 3000 }).then(
    () => true,
    () => false,
  );
  if (asked) await page.locator('.quick-input-widget .quick-input-list .monaco-list-row').first().click();
}

/**
 * Opens a workspace file with Quick Open.
 * @param {string} name
 */
async function quickOpen(name) {
  await page.keyboard.press('Control+P');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(name);
  await page
    .locator('.quick-input-list .monaco-list-row', { hasText: name })
    .first()
    .waitFor({ timeout: STEP_TIMEOUT });
  await page.keyboard.press('Enter');
  await page.locator('.tab.active', { hasText: name }).waitFor({ timeout: STEP_TIMEOUT });
}

/**
 * Expands a tree row (selecting it, then the right arrow key, as a person would with the keyboard).
 * @param {import('playwright-core').Locator} row
 */
async function expand(row) {
  await row.waitFor({ timeout: STEP_TIMEOUT });
  await row.click();
  if ((await row.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('ArrowRight');
  const element = await row.elementHandle();
  if (!element) throw new Error('the tree row went away');
  await page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'true', element, { timeout: STEP_TIMEOUT });
}

/**
 * Where `text` is drawn in the active editor, to point the mouse at it.
 * @param {string} text
 */
async function textBox(text) {
  const box = await page.evaluate((needle) => {
    for (const line of document.querySelectorAll('.editor-instance .view-line')) {
      const walker = document.createTreeWalker(line, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const at = (node.textContent ?? '').indexOf(needle);
        if (at === -1) continue;
        const range = document.createRange();
        range.setStart(node, at);
        range.setEnd(node, at + needle.length);
        const rect = range.getBoundingClientRect();
        return { x: rect.x, y: rect.y, width: rect.width, height: rect.height };
      }
    }
    return undefined;
  }, text);
  if (!box) throw new Error(`"${text}" is not on screen`);
  return box;
}

/**
 * The chat shown: the last visible webview (an iframe holding the active frame), the side bar's Chat view or a chat
 * tab; a chat tab behind another tab keeps its hidden iframe.
 */
function chatFrame() {
  return page
    .locator('iframe.webview.ready')
    .filter({ visible: true })
    .last()
    .contentFrame()
    .locator('#active-frame')
    .contentFrame();
}

/** A chat tab's title ("Chat Nov 24, 2026, 10:46 AM"); a string would also match chat-transcript.md (trimmed, any case). */
const CHAT_TAB = /Chat [A-Z][a-z]{2} \d/;

/**
 * Waits until `frames` of the webviews shown (the side bar's chat, chat tabs) show `selector`.
 * @param {string} selector
 */
async function someChatFrameShows(selector, frames = 1) {
  const deadline = Date.now() + STEP_TIMEOUT;
  while (Date.now() < deadline) {
    const all = page.locator('iframe.webview.ready');
    let showing = 0;
    for (let i = 0; i < (await all.count()); i++) {
      const inner = all.nth(i).contentFrame().locator('#active-frame').contentFrame();
      const count = await inner
        .locator(selector)
        .count()
        .catch(() => 0);
      if (count > 0) showing++;
    }
    if (showing >= frames) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`fewer than ${frames} chat(s) show ${selector}`);
}

/**
 * Types a prompt into the chat's composer and sends it with Enter, as a person would.
 * @param {string} prompt
 */
async function askChat(prompt) {
  const input = chatFrame().locator('textarea.composer-input');
  await input.waitFor({ timeout: STEP_TIMEOUT });
  await input.click();
  await input.fill(prompt);
  await input.press('Enter');
}

/**
 * Asks `@fdref` in the Chat view, typing into its input as a person would.
 * @param {string} prompt
 */
async function askFdref(prompt) {
  const input = page.locator('.interactive-input-part').last().locator('.monaco-editor').first();
  await input.waitFor({ timeout: STEP_TIMEOUT });
  await input.click();
  // The input may still hold the sticky @fdref of the last question.
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('@fdref', { delay: 80 });
  // Accepting the suggestion makes @fdref a participant chip; a busy machine may leave the list unfiltered, and
  // then the typed name (with a space) names the participant just the same.
  const suggestion = page.locator('.suggest-widget .monaco-list-row.focused', { hasText: /^@fdref/ }).first();
  const suggested = await suggestion.waitFor({ timeout: 5000 }).then(
    () => true,
    () => false,
  );
  if (suggested) await page.keyboard.press('Enter');
  else {
    await page.keyboard.press('Escape');
    await page.keyboard.type(' ');
  }
  await page.keyboard.type(prompt);
  await page.keyboard.press('Enter');
}

/**
 * Picks a color theme with Preferences: Color Theme, clicking the row with exactly that name.
 * @param {string} name
 */
async function setColorTheme(name) {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+K');
  await page.keyboard.press('Control+T');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(name);
  const row = page
    .locator('.quick-input-list .monaco-list-row')
    .filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) });
  await row.first().click({ timeout: STEP_TIMEOUT });
  await page.locator('.quick-input-widget').waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
}

/**
 * Waits for a notification toast that holds `text`.
 * @param {string} text
 */
async function notification(text) {
  await page.locator('.notification-toast', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
}

/**
 * Picks the quick pick row that shows `text` (and not `unlike`), by clicking it once the list has filtered.
 * @param {string} text
 * @param {string} [unlike]
 */
async function pickRow(text, unlike) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  await input.fill(text);
  let row = page.locator('.quick-input-list .monaco-list-row', { hasText: text });
  if (unlike !== undefined) row = row.filter({ hasNotText: unlike });
  await row.first().waitFor({ timeout: STEP_TIMEOUT });
  await row.first().click();
}

/**
 * Types `text` into the input box that is open (replacing what it holds), key by key as a person would.
 * @param {string} text
 */
async function typeIntoInputBox(text) {
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  // VS Code may put its suggested value (with part of it selected) into the box a moment after it shows: type
  // again if what the box holds is not what was typed.
  for (let attempt = 1; ; attempt++) {
    await input.fill('');
    await input.pressSequentially(text, { delay: 30 });
    if ((await input.inputValue()) === text || attempt === 3) return;
  }
}

/**
 * Waits for the input box's validation message under it to show `text`.
 * @param {string} text
 */
async function validationMessage(text) {
  await page.locator('.quick-input-widget .quick-input-message', { hasText: text }).first().waitFor({
    timeout: STEP_TIMEOUT,
  });
}

/** @param {import('./versions.mjs').VsCodeBuild} build */
async function main(build) {
  shots = path.join(repo, 'screenshots', build.vscode);
  results = [];
  mkdirSync(shots, { recursive: true });
  // Screenshots of an earlier run would mix with this run's (the step numbers shift when steps change).
  for (const file of readdirSync(shots)) if (/^\d\d-.*\.png$/.test(file)) rmSync(path.join(shots, file));
  console.log(`\n== UI test on VS Code ${build.vscode} (screenshots in ${path.relative(repo, shots)}/)`);
  const structsApi = await startStructsApi({ repo });
  const models = await startModelEndpoint({ repo });
  server = await startServer({
    build,
    workspaceTemplate: path.join(repo, 'demo'),
    settings: demoSettings({ structsApi, models }),
    smokeTestDriver: false,
    installed: hasChatView(build) ? [repo, LM_FIXTURE] : [repo],
  });
  const browser = await launchBrowser();
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) consoleErrors.push(`navigated to ${frame.url().slice(0, 160)}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning')
      consoleErrors.push(message.text().split('\n')[0].slice(0, 300));
  });
  await page.goto(server.url(server.workspace));
  console.log('  the workbench, driven as a person would');

  await step('the workbench opens with the demo workspace', async () => {
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await page
      .locator('.explorer-folders-view .monaco-list-row', { hasText: 'chat-transcript.md' })
      .waitFor({ timeout: 60_000 });
    // npm start's demo does not greet a user with VS Code 1.139's own Chat view in the secondary side bar.
    if (await page.locator('.part.auxiliarybar').isVisible())
      throw new Error("the secondary side bar (VS Code's own Chat view) is open on the demo's first start");
  });

  await step('capturing the refs of a selection reports them', async () => {
    await quickOpen('chat-transcript.md');
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+A');
    await runCommand('FD Refs: Capture Refs from Selection');
    await notification('2 refs');
  });

  await step('the FD Refs view lists the session and its refs', async () => {
    await page.locator('.activitybar .action-item a[aria-label^="FD Refs"]').click();
    const tree = page.locator('.pane', { hasText: 'Sessions' });
    const session = tree.locator('.monaco-list-row').first();
    await session.waitFor({ timeout: STEP_TIMEOUT });
    if ((await session.getAttribute('aria-expanded')) === 'false') await session.click();
    await tree.locator('.monaco-list-row', { hasText: 'parse_config' }).first().waitFor({ timeout: STEP_TIMEOUT });
    await tree.locator('.monaco-list-row', { hasText: 'test_parse_config' }).first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('clicking a ref opens it as a Python document', async () => {
    await page
      .locator('.pane .monaco-list-row', { hasText: /^parse_config/ })
      .first()
      .click();
    await page.locator('.tab.active', { hasText: 'parse_config' }).waitFor({ timeout: STEP_TIMEOUT });
    await page
      .locator('.editor-instance .view-lines', { hasText: 'def parse_config' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.locator('.statusbar-item', { hasText: 'Python' }).first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('hovering ref:parse_config in a note shows its first lines', async () => {
    await quickOpen('notes.md');
    await page
      .locator('.editor-instance .view-line', { hasText: 'ref:parse_config' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    const box = await textBox('ref:parse_config');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.locator('.monaco-hover', { hasText: 'def parse_config' }).first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('hovering a Structs entity id shows the entity from the API', async () => {
    await page.keyboard.press('Escape');
    await quickOpen('fleet.json');
    await page
      .locator('.editor-instance .view-line', { hasText: '"owner"' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    const box = await textBox('1-1');
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const hover = page.locator('.monaco-hover', { hasText: 'Player 1-1' }).first();
    await hover.waitFor({ timeout: STEP_TIMEOUT });
    await page.locator('.monaco-hover', { hasText: 'Open as JSON' }).first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('exporting a ref through the quick pick writes the file', async () => {
    await page.keyboard.press('Escape');
    await runCommand('FD Refs: Export Ref to File...');
    const input = page.locator('.quick-input-widget input');
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'test_parse_config' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    await input.fill('test_parse_config');
    await page.keyboard.press('Enter');
    // The path box that follows the pick suggests a file name (the pick's filter already held the id).
    await page.waitForFunction(
      () =>
        /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'))?.value.includes(
          'test_parse_config.py',
        ),
      null,
      {
        timeout: STEP_TIMEOUT,
      },
    );
    await page.keyboard.press('Enter');
    const written = path.join(server.workspace, 'test_parse_config.py');
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!existsSync(written) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (!existsSync(written)) throw new Error(`${written} was not written`);
    if (!readFileSync(written, 'utf8').includes('def test_defaults'))
      throw new Error('the exported file lacks the ref content');
    await notification('test_parse_config.py');
  });

  // Issue 14 §4: input boxes check what is typed before Enter (steps of the commands' input checks, kept together).
  await step('Insert Ref at Line says under the line box how many lines the file has', async () => {
    await page.keyboard.press('Escape');
    await runCommand('FD Refs: Insert Ref at Line...');
    await pickRow('ref:parse_config', 'test_parse_config');
    await pickRow('notes.md');
    const lines = readFileSync(path.join(server.workspace, 'notes.md'), 'utf8').replace(/\n$/, '').split('\n').length;
    await typeIntoInputBox('999');
    await validationMessage(
      `Line 999 is outside the file. The file has ${lines} lines, so line must be 1-${lines + 1}`,
    );
  });

  await step('Export Ref refuses a path outside the workspace while it is typed', async () => {
    await page.keyboard.press('Escape');
    await runCommand('FD Refs: Export Ref to File...');
    await pickRow('ref:parse_config', 'test_parse_config');
    await typeIntoInputBox('../outside.py');
    await validationMessage('outside the workspace');
    await page.keyboard.press('Enter'); // refused: the box stays open and nothing is written
    await validationMessage('outside the workspace');
    if (existsSync(path.join(path.dirname(server.workspace), 'outside.py')))
      throw new Error('a file was written outside');
  });

  await step('Export Ref warns while the path is typed that it will ask before replacing a file', async () => {
    await page.keyboard.press('Escape');
    await runCommand('FD Refs: Export Ref to File...');
    await pickRow('ref:parse_config', 'test_parse_config');
    await typeIntoInputBox('notes.md');
    await validationMessage('notes.md exists: Export will ask before replacing it');
  });

  await step('a new chat streams an answer with its ref blocks', async () => {
    await page.keyboard.press('Escape');
    await runCommand('FD Refs: New Chat');
    await askChat('How do I greet someone in Python?');
    const frame = chatFrame().locator('section.ref-frame[aria-label="ref:greet"]');
    await frame.waitFor({ timeout: STEP_TIMEOUT });
    await chatFrame()
      .locator('section.ref-frame[aria-label="ref:config"]:not(.is-writing)')
      .waitFor({ timeout: STEP_TIMEOUT });
    await frame.locator('text=def greet').first().waitFor({ timeout: STEP_TIMEOUT });
    // In the FD Refs side bar's Chat view, not in an editor tab.
    if ((await page.locator('.part.editor .tab', { hasText: CHAT_TAB }).count()) > 0)
      throw new Error('the chat opened in a tab');
    await page
      .locator('.part.sidebar .pane-header', { hasText: /^\s*Chat/i })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });

  // Issue 14 §1 (placement): the chat in the side bar beside what it opens, moved to a tab, focused with its key.
  await step('a ref opened from the side bar chat shows in the editor area beside it, adding no column', async () => {
    const groups = await page.locator('.part.editor .editor-group-container').count();
    await chatFrame()
      .locator('section.ref-frame[aria-label="ref:greet"] button[data-ref-action="open"]')
      .first()
      .click();
    await page.locator('.tab.active', { hasText: 'greet' }).first().waitFor({ timeout: STEP_TIMEOUT });
    const after = await page.locator('.part.editor .editor-group-container').count();
    if (after !== Math.max(groups, 1)) throw new Error(`${groups} editor group(s) became ${after}`);
    await chatFrame().locator('section.ref-frame[aria-label="ref:greet"]').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('Export on a ref block writes the file', async () => {
    await chatFrame()
      .locator('section.ref-frame[aria-label="ref:greet"] button[aria-label^="Export to File"]')
      .first()
      .click();
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await page.waitForFunction(
      () =>
        /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'))?.value.includes(
          'greet',
        ),
      null,
      { timeout: STEP_TIMEOUT },
    );
    await page.keyboard.press('Enter');
    const written = path.join(server.workspace, 'greet.py');
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!existsSync(written) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (!existsSync(written)) throw new Error(`${written} was not written`);
    if (!readFileSync(written, 'utf8').includes('def greet'))
      throw new Error('the exported file lacks the ref content');
    await notification('greet.py');
  });

  await step('a write the model asks for waits for Allow, then lands on disk', async () => {
    await askChat('write notes/hello.py');
    const allow = chatFrame().locator('button[aria-label^="Allow writing ref:greeting"]');
    await allow.waitFor({ timeout: STEP_TIMEOUT });
    const written = path.join(server.workspace, 'notes', 'hello.py');
    if (existsSync(written)) throw new Error('the file was written before the user allowed it');
    await allow.click();
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!existsSync(written) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    if (!existsSync(written)) throw new Error(`${written} was not written`);
    await chatFrame().locator('text=The write succeeded').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('model output carrying script, event handlers and javascript: links runs nothing', async () => {
    let dialogs = 0;
    page.on('dialog', (dialog) => {
      dialogs++;
      void dialog.dismiss();
    });
    await askChat('xss');
    await chatFrame()
      .locator('section.ref-frame[aria-label="ref:xss_html"]:not(.is-writing)')
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.waitForTimeout(1000); // time for anything that would run (onerror, onload) to run
    // Click every link in the answer: none may navigate or run anything.
    const links = chatFrame().locator('.message a');
    for (let i = 0; i < (await links.count()); i++)
      await links
        .nth(i)
        .click({ timeout: 500 })
        .catch(() => {});
    const found = await chatFrame()
      .locator('body')
      .evaluate(() => ({
        flag: /** @type {Window & { __fdrefXss?: unknown }} */ (window).__fdrefXss,
        scripts: document.querySelectorAll('.message script, .message iframe, .message object, .message embed').length,
        handlers: [...document.querySelectorAll('.message *')].filter((el) =>
          [...el.attributes].some((a) => a.name.startsWith('on')),
        ).length,
        jsLinks: [...document.querySelectorAll('.message a[href]')].filter((a) =>
          /^\s*javascript:/i.test(a.getAttribute('href') ?? ''),
        ).length,
        location: location.href,
      }));
    if (found.flag !== undefined || found.scripts > 0 || found.handlers > 0 || found.jsLinks > 0 || dialogs > 0) {
      throw new Error(`unsafe content survived: ${JSON.stringify({ ...found, dialogs })}`);
    }
  });

  await step('the chat in the light theme', async () => {
    await setColorTheme('Light Modern');
    await chatFrame().locator('body.vscode-light').waitFor({ timeout: STEP_TIMEOUT });
    await chatFrame().locator('section.ref-frame[aria-label="ref:greet"]').first().scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
  });

  await step('the chat in the dark theme', async () => {
    await setColorTheme('Dark Modern');
    await chatFrame().locator('body.vscode-dark').waitFor({ timeout: STEP_TIMEOUT });
    await chatFrame().locator('section.ref-frame[aria-label="ref:greet"]').first().scrollIntoViewIfNeeded();
    await page.waitForTimeout(500);
  });

  await step('the side bar chat comes back with its history when the window reloads', async () => {
    // Waits for the new page: the old one still shows the tab and frames checked below until the reload happens.
    const reloaded = page.waitForEvent('framenavigated', {
      predicate: (frame) => frame === page.mainFrame(),
      timeout: 60_000,
    });
    await runCommand('Developer: Reload Window');
    await reloaded;
    await page.waitForLoadState('load', { timeout: 60_000 }).catch(() => {});
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    await chatFrame().locator('section.ref-frame[aria-label="ref:greet"]').first().waitFor({ timeout: 30_000 });
    await chatFrame()
      .locator('section.ref-frame[aria-label="ref:xss_html"]')
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    if ((await page.locator('.part.editor .tab', { hasText: CHAT_TAB }).count()) > 0)
      throw new Error('the chat came back in a tab');
  });

  await step('Open Chat in Editor moves the side bar chat to a tab, and the view offers New Chat', async () => {
    await runCommand('FD Refs: Open Chat in Editor');
    await page.locator('.part.editor .tab.active', { hasText: CHAT_TAB }).first().waitFor({ timeout: STEP_TIMEOUT });
    await someChatFrameShows('section.ref-frame[aria-label="ref:greet"]');
    await someChatFrameShows('a.button[href="command:fdref.newChat"]');
    if ((await page.locator('.part.editor .editor-group-container').count()) !== 1)
      throw new Error('the chat tab opened in a new column');
  });

  await step('Ctrl+Alt+; shows the side bar chat again and puts the focus in it', async () => {
    await runCommand('View: Show Explorer');
    await page
      .locator('.part.sidebar .pane-header', { hasText: /^\s*Chat/i })
      .first()
      .waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
    await page.keyboard.press('Control+Alt+;');
    await page
      .locator('.part.sidebar .pane-header', { hasText: /^\s*Chat/i })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    // The focus is in a webview, the view's: it was in the Explorer before the key.
    await page.waitForFunction(() => document.activeElement?.matches('iframe.webview') === true, null, {
      timeout: STEP_TIMEOUT,
    });
    // Its new chat has loaded beside the chat tab: two composers.
    await someChatFrameShows('textarea.composer-input', 2);
  });

  // Browse as Files (issue 14 §5): the warning before the reload, the FD Refs root listed without a click, the
  // editors open again after the reload, Ctrl+T finding refs.
  await step('Browse as Files first warns that the window loads again, and says what is kept', async () => {
    await page.keyboard.press('Escape');
    await page.locator('.tab', { hasText: 'notes.md' }).first().click();
    await page.locator('.tab.active', { hasText: 'notes.md' }).first().waitFor({ timeout: STEP_TIMEOUT });
    const dialog = page.locator('.monaco-dialog-box', { hasText: 'loads this window again' });
    // Right after the window reload above, the palette can close under the click (focus moves as the window
    // settles), and then nothing ran: a person would run the command again.
    for (let attempt = 1; ; attempt++) {
      await runCommand('FD Refs: Browse as Files');
      const shown = await dialog.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (shown || attempt === 3) break;
      console.log(`      no warning within 10 s; running Browse as Files again (${attempt} of 2)`);
      await page.keyboard.press('Escape');
    }
    await dialog.waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByText('opens again').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('Browse as Files shows the refs in the Explorer, and the sessions survive the reload', async () => {
    // Adding a second folder turns the window into a multi-root workspace, which loads it again.
    const entered = page.waitForEvent('framenavigated', {
      predicate: (frame) => frame === page.mainFrame() && frame.url().includes('workspace='),
      timeout: 90_000,
    });
    entered.catch(() => {}); // awaited below; a step that fails before must not leave it unhandled
    await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Continue' }).first().click();
    // VS Code's web workbench sometimes loads the folder again instead of the workspace it made (seen on 1.139.1,
    // with a "CodeExpectedError" in the console, without fdref's part in it): a person would run the command again.
    for (let again = 1; again <= 2; again++) {
      const settled = await Promise.race([
        entered.then(
          () => 'entered',
          () => 'timeout',
        ),
        page.waitForTimeout(20_000).then(() => 'waiting'),
      ]);
      if (settled !== 'waiting' || !page.url().includes('folder=')) break;
      console.log(`      the window loaded the folder again, not the workspace; Browse as Files again (${again} of 2)`);
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      await page.keyboard.press('Escape');
      await runCommand('FD Refs: Browse as Files');
      await page.locator('.monaco-dialog-box .monaco-button', { hasText: 'Continue' }).first().click();
    }
    await entered;
    await page.waitForLoadState('load', { timeout: 60_000 }).catch(() => {});
    const explorer = page.locator('.explorer-folders-view');
    // VS Code's web workbench sometimes shows the new untitled workspace with no folder although its file holds both
    // (seen on 1.100.3 and 1.139.1, with fdref installed or under development, more often on a busy machine);
    // loading the window again a few seconds later shows them, as a person would do.
    const fdrefFolder = explorer.locator('.monaco-list-row', { hasText: 'FD Refs' }).first();
    const noFolder = page.getByText('You have not yet added a folder').first();
    for (let attempt = 1; ; attempt++) {
      await fdrefFolder.or(noFolder).waitFor({ timeout: 60_000 });
      if (!(await noFolder.isVisible()) || attempt > 3) break;
      console.log(`      the workspace opened with no folder; loading the window again in 3 s (${attempt} of 3)`);
      await page.waitForTimeout(3000);
      await page.reload();
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    }
    await fdrefFolder.waitFor({ timeout: 60_000 });
    // The root lists its sessions by itself: no click on it.
    const captured = explorer.locator('.monaco-list-row', { hasText: 'Captured' }).first();
    await captured.waitFor({ timeout: 30_000 });
    if ((await fdrefFolder.getAttribute('aria-expanded')) !== 'true') throw new Error('the FD Refs root is collapsed');
  });

  await step('the editors open before Browse as Files are open again after the reload', async () => {
    for (const name of ['notes.md', 'fleet.json', 'chat-transcript.md', CHAT_TAB])
      await page.locator('.tab', { hasText: name }).first().waitFor({ timeout: 30_000 });
    await page.locator('.tab.active', { hasText: 'notes.md' }).first().waitFor({ timeout: STEP_TIMEOUT });
    // The chat opened again shows its history.
    await page.locator('.tab', { hasText: CHAT_TAB }).first().click();
    await someChatFrameShows('section.ref-frame[aria-label="ref:greet"]');
    await page.locator('.tab', { hasText: 'notes.md' }).first().click();
  });

  await step('a ref opens from the FD Refs folder in the Explorer', async () => {
    const explorer = page.locator('.explorer-folders-view');
    // Every folder collapsed first, so the only refs/ row shown is the Captured session's (a chat's may be open).
    await runCommand('Collapse Folders in Explorer');
    await expand(explorer.locator('.monaco-list-row', { hasText: /^FD Refs$/ }).first());
    await expand(explorer.locator('.monaco-list-row', { hasText: 'Captured' }).first());
    await expand(explorer.locator('.monaco-list-row', { hasText: /^refs$/ }).first());
    await explorer
      .locator('.monaco-list-row', { hasText: /^parse_config\.py$/ })
      .first()
      .click();
    await page.locator('.tab.active', { hasText: /^parse_config\.py/ }).waitFor({ timeout: STEP_TIMEOUT });
    // The breadcrumbs show where it lives: the session folder, then refs/.
    await page.locator('.breadcrumbs-control', { hasText: 'refs' }).first().waitFor({ timeout: STEP_TIMEOUT });
    await page
      .locator('.editor-instance .view-lines', { hasText: 'def parse_config' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('Ctrl+T lists the refs and descriptors with their session', async () => {
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+T');
    const input = page.locator('.quick-input-widget input');
    await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await input.fill('#parse_config');
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: 'ref:test_parse_config' }).first();
    await row.waitFor({ timeout: STEP_TIMEOUT });
    await page
      .locator('.quick-input-list .monaco-list-row', { hasText: 'Captured' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    await page.waitForTimeout(300); // the list settles before the screenshot
  });

  await step('a ref picked in Ctrl+T opens as its fdref: document', async () => {
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'ref:test_parse_config' }).first().click();
    await page.locator('.tab.active', { hasText: /^test_parse_config\.py/ }).waitFor({ timeout: STEP_TIMEOUT });
    await page
      .locator('.editor-instance .view-lines', { hasText: 'def test_defaults' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });

  await step(
    'Stop Browsing as Files removes the folder; Browse as Files adds it back with no warning and no reload',
    async () => {
      await page.keyboard.press('Escape');
      const explorer = page.locator('.explorer-folders-view');
      const fdrefFolder = explorer.locator('.monaco-list-row', { hasText: 'FD Refs' }).first();
      let navigated = false;
      /** @param {import('playwright-core').Frame} frame */
      const onNavigation = (frame) => {
        if (frame === page.mainFrame()) navigated = true;
      };
      page.on('framenavigated', onNavigation);
      try {
        await runCommand('FD Refs: Stop Browsing as Files');
        await fdrefFolder.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
        // A workspace already: the folder is added as it is.
        await runCommand('FD Refs: Browse as Files');
        await fdrefFolder.waitFor({ timeout: STEP_TIMEOUT });
        await explorer.locator('.monaco-list-row', { hasText: 'Captured' }).first().waitFor({ timeout: STEP_TIMEOUT });
        if (await page.locator('.monaco-dialog-box').isVisible()) throw new Error('a warning was shown');
        if (navigated) throw new Error('the window loaded again');
        await page.locator('.tab', { hasText: 'notes.md' }).first().waitFor({ timeout: STEP_TIMEOUT });
      } finally {
        page.off('framenavigated', onNavigation);
      }
    },
  );

  if (hasChatView(build)) {
    await step('@fdref in the Chat view answers with ref code blocks and links that act on them', async () => {
      await page.keyboard.press('Escape');
      await runCommand('fdref test: Offer the Scripted Model');
      await runCommand('Chat: Open Chat');
      await askFdref('Write a config and a script that reads it, as two refs');
      const response = page.locator('.interactive-response').last();
      await response.locator('text=jq .name config.json').first().waitFor({ timeout: 30_000 });
      await response.getByText('Both are kept as refs.').first().waitFor({ timeout: STEP_TIMEOUT });
      // Under each ref, a line of links that run the ref commands on it.
      await response.getByRole('link', { name: 'Export to File…' }).nth(1).waitFor({ timeout: STEP_TIMEOUT });
      await response.getByText('ref:pt_script').first().waitFor({ timeout: STEP_TIMEOUT });
    });

    await step('Export to File under a ref in the Chat view writes the file', async () => {
      const response = page.locator('.interactive-response').last();
      await response.getByRole('link', { name: 'Export to File…' }).first().click();
      const input = page.locator('.quick-input-widget input');
      await input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
      await page.waitForFunction(
        () =>
          /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'))?.value.includes(
            'pt_config',
          ),
        null,
        { timeout: STEP_TIMEOUT },
      );
      await page.keyboard.press('Enter');
      const written = path.join(server.workspace, 'pt_config.json');
      const deadline = Date.now() + STEP_TIMEOUT;
      while (!existsSync(written) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
      if (!existsSync(written)) throw new Error(`${written} was not written`);
      const text = readFileSync(written, 'utf8');
      if (text !== '{ "name": "fdref", "refs": [1, 2, 3] }')
        throw new Error(`pt_config.json holds ${JSON.stringify(text)}`);
    });

    await step('a command link and HTML in the model text of an @fdref answer run nothing', async () => {
      await page.keyboard.press('Escape');
      await askFdref('Show me a command link');
      const response = page.locator('.interactive-response').last();
      await response.getByText('Done.').first().waitFor({ timeout: 30_000 });
      await response.getByText('Export everything').first().click();
      await page.waitForTimeout(2000);
      if (existsSync(path.join(server.workspace, 'pwned.json')))
        throw new Error('the command link in model text ran fdref.exportRef');
      // The HTML is shown as text, not rendered.
      if ((await response.locator('img[src="x"], a[href^="command:"]').count()) > 0)
        throw new Error('raw HTML in model text was rendered');
      await response.getByText('onerror="document.title=1"').first().waitFor({ timeout: STEP_TIMEOUT });
      if ((await page.title()) === '1') throw new Error('an event handler in model text ran');
    });

    // Copilot Chat's tool picker opens without a GitHub sign-in; it lists the language model tools fdref contributes.
    const tools = contributedTools();
    if (tools.length > 0) {
      await step("Copilot Chat's tool picker lists the fdref tools", async () => {
        await page.keyboard.press('Escape');
        const inputPart = page.locator('.interactive-input-part').last();
        await inputPart
          .getByRole('button', { name: /^Configure Tools/ })
          .first()
          .click({ timeout: STEP_TIMEOUT });
        const picker = page.locator('.quick-input-widget');
        await picker.getByText('Configure Tools').first().waitFor({ timeout: STEP_TIMEOUT });
        // The tools are grouped under the extension's name; the group is expanded with the keyboard.
        const group = picker.getByText('FD Refs', { exact: true }).first();
        await group.click({ timeout: STEP_TIMEOUT });
        await page.keyboard.press('ArrowRight');
        for (const tool of tools)
          await picker.getByText(tool, { exact: true }).first().waitFor({ timeout: STEP_TIMEOUT });
      });
      await page.keyboard.press('Escape');
    } else {
      console.log("    - Copilot Chat's tool picker: skipped, fdref contributes no language model tools yet");
    }
  } else {
    console.log(`    - @fdref in the Chat view: skipped, VS Code ${build.vscode} has no Chat view`);
  }

  // ---- issue 14 §2-§3 (first contact, long content, tool results): a new chat's welcome, a long pasted message,
  // finished tool calls in one line, ArrowUp. Its own chat, opened last so the steps above keep theirs.
  await step(
    'a new chat shows the model, example prompts and where keys are set, with the composer focused',
    async () => {
      await page.keyboard.press('Escape');
      await runCommand('FD Refs: New Chat');
      const welcome = chatFrame().locator('.new-chat-welcome');
      await welcome.waitFor({ timeout: STEP_TIMEOUT });
      const composer = chatFrame().locator('textarea.composer-input');
      await chatFrame()
        .locator('body')
        .evaluate(
          (body, timeout) =>
            new Promise((resolve, reject) => {
              const deadline = Date.now() + timeout;
              const check = () => {
                if (document.activeElement?.classList.contains('composer-input')) resolve(undefined);
                else if (Date.now() > deadline) reject(new Error(`the focus is on ${document.activeElement?.tagName}`));
                else setTimeout(check, 100);
              };
              check();
            }),
          STEP_TIMEOUT,
        );
      // On 1.139.1 the scripted VS Code model is listed first; the steps below script the demo endpoint. The welcome
      // names the model the picker shows, and follows it.
      const picker = chatFrame().locator('select.model-picker');
      const demo = await picker.evaluate(
        (select) =>
          [.../** @type {HTMLSelectElement} */ (select).options].find((o) => o.value.startsWith('endpoint:'))?.value,
      );
      if (!demo) throw new Error('the demo endpoint is not in the model picker');
      await picker.selectOption(demo);
      await welcome
        .locator('.welcome-model', { hasText: /demo-model · Demo \(OpenAI protocol\) \(demo\), an OpenAI-compatible/ })
        .waitFor({ timeout: STEP_TIMEOUT });
      await welcome.locator('.welcome-example').first().click();
      if (!(await composer.inputValue()).includes('notes/dates.py'))
        throw new Error('the example did not fill the composer');
      await composer.fill('');
    },
  );

  await step('a long pasted message shows a "Stored as fd:N" chip, its first lines and Show more', async () => {
    const line = (/** @type {number} */ i) =>
      `2026-11-24 12:00:${String(i % 60).padStart(2, '0')} INFO worker-${i % 7} batch ${i} done\n`;
    let text = '';
    for (let i = 1; text.length < 52_340; i++) text += line(i);
    text = text.slice(0, 52_339) + '\n';
    await askChat(text);
    const chip = chatFrame().locator('.stored-chip', { hasText: `characters` });
    await chip.waitFor({ timeout: STEP_TIMEOUT });
    const label = (await chip.innerText()).trim();
    if (!/^Stored as fd:\d+, 52,340 characters$/.test(label)) throw new Error(`the chip says "${label}"`);
    await chatFrame().locator('.user-more button', { hasText: 'Show more' }).first().waitFor({ timeout: STEP_TIMEOUT });
    const lines = await chatFrame().locator('.message-user .user-line').count();
    if (lines !== 12) throw new Error(`${lines} lines shown, not the first 12`);
    // The composer sends nothing while an answer streams: the next step's prompt waits for this answer's end.
    await chatFrame().locator('body:not(.is-busy)').waitFor({ timeout: STEP_TIMEOUT });
    // For the screenshot: the view followed the answer down.
    await chip.scrollIntoViewIfNeeded();
  });

  await step('finished tool calls read as one line: the file written is a link that opens it', async () => {
    await askChat('write notes/first-contact.py');
    const allow = chatFrame().locator('button[aria-label^="Allow writing ref:greeting"]');
    await allow.waitFor({ timeout: STEP_TIMEOUT });
    await allow.click();
    // After Browse as Files the window has several folders, and paths are shown with their folder's name.
    const headline = chatFrame().locator('.tool-headline', {
      hasText: /^Wrote (workspace\/)?notes\/first-contact\.py, \d+ bytes$/,
    });
    await headline.waitFor({ timeout: STEP_TIMEOUT });
    await chatFrame().locator('body:not(.is-busy)').waitFor({ timeout: STEP_TIMEOUT });
    await askChat('call read_fd {"fd":"fd:1","start":2}');
    await chatFrame()
      .locator('.tool-headline', { hasText: /^Read fd:1 page 2 of \d+$/ })
      .waitFor({ timeout: STEP_TIMEOUT });
    await headline.locator('.tool-file').click();
    await page.locator('.tab', { hasText: 'first-contact.py' }).first().waitFor({ timeout: STEP_TIMEOUT });
    await page
      .locator('.editor-instance .view-lines', { hasText: 'def greeting' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });

  await step('ArrowUp in the empty composer recalls the last prompt sent', async () => {
    // The chat is in the side bar, still shown beside the file it opened.
    const composer = chatFrame().locator('textarea.composer-input');
    await composer.click();
    await composer.press('ArrowUp');
    const value = await composer.inputValue();
    if (value !== 'call read_fd {"fd":"fd:1","start":2}') throw new Error(`ArrowUp gave "${value.slice(0, 80)}"`);
    await composer.fill('');
  });

  // Issue 14 §4: the chat's buttons as commands, and Insert at Cursor's re-indent, as a person runs them.
  await step(
    'Export Chat as Markdown from the palette opens the chat as Markdown beside the side bar chat',
    async () => {
      await page.keyboard.press('Escape');
      await chatCommand('FD Refs: Export Chat as Markdown');
      await page
        .locator('.editor-instance .view-lines', { hasText: '## You' })
        .first()
        .waitFor({ timeout: STEP_TIMEOUT });
    },
  );

  await step('Retry Chat from the palette answers the last prompt again, replacing its answer', async () => {
    const prompt = 'call read_fd {"fd":"fd:1","start":2}';
    const headline = chatFrame().locator('.tool-headline', { hasText: /^Read fd:1 page 2 of \d+$/ });
    const before = await headline.count();
    if (before !== 1) throw new Error(`${before} "Read fd:1 page 2" lines before the retry, not 1`);
    const log = `${models.url}/__requests`;
    await fetch(log, { method: 'DELETE' });
    await chatCommand('FD Refs: Retry Chat');
    // The endpoint is asked again: the call (step 0), then the answer to its result (step 1).
    const deadline = Date.now() + STEP_TIMEOUT;
    let asked = 0;
    while (asked < 2 && Date.now() < deadline) {
      const requests = /** @type {{ path: string, body: unknown }[]} */ (await (await fetch(log)).json());
      asked = requests.filter(
        (r) => r.path.endsWith('/chat/completions') && JSON.stringify(r.body).includes(prompt.replaceAll('"', '\\"')),
      ).length;
      if (asked < 2) await page.waitForTimeout(250);
    }
    if (asked < 2) throw new Error(`the model endpoint was asked ${asked} time(s) after Retry Chat, not 2`);
    await chatFrame().locator('body:not(.is-busy)').waitFor({ timeout: STEP_TIMEOUT });
    await chatFrame()
      .locator('.message-assistant', { hasText: 'Result of read_fd' })
      .last()
      .waitFor({ timeout: STEP_TIMEOUT });
    // Replaced, not added: still one answer to the prompt.
    const after = await headline.count();
    if (after !== 1) throw new Error(`${after} "Read fd:1 page 2" lines after the retry, not 1`);
    // Not checked here: that the chat then shows its end. It did in most runs, but three times of seven on 1.100.3 (fresh
    // clones) it stopped 245 px short, the retried answer's result below the view; the cause is not found yet.
    // test/webview/scrolling.test.mjs checks that the page goes to the end when answers are removed to be redone.
  });

  await step('Fork Chat from the palette shows the fork in the side bar chat', async () => {
    await chatCommand('FD Refs: Fork Chat');
    await page.locator('.pane-header', { hasText: '(fork)' }).first().waitFor({ timeout: STEP_TIMEOUT });
  });

  await step("Insert Ref at Cursor gives a ref of several lines the cursor line's indentation", async () => {
    const file = path.join(server.workspace, 'indent_demo.py');
    writeFileSync(file, 'class Greeter:\n    # the ref goes here\n');
    await quickOpen('indent_demo.py');
    await page.locator('.editor-instance .view-lines').first().click();
    await page.keyboard.press('Control+G');
    await page.keyboard.type('2');
    await page.keyboard.press('Enter');
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home'); // selects the comment, after the indentation
    await runCommand('FD Refs: Insert Ref at Cursor');
    // The ref pick reads every session's refs before it shows: wait for it, not the palette on its way out.
    await page
      .locator('.quick-input-widget input[placeholder="Pick a ref"]')
      .waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
    await pickRow('ref:test_parse_config');
    await page.keyboard.press('Control+S');
    const want = '\n    def test_defaults(tmp_path):\n        config = tmp_path / ';
    const deadline = Date.now() + STEP_TIMEOUT;
    while (!readFileSync(file, 'utf8').includes(want) && Date.now() < deadline)
      await new Promise((resolve) => setTimeout(resolve, 200));
    const text = readFileSync(file, 'utf8');
    if (!text.includes(want)) throw new Error(`the inserted ref is not indented to the class body:\n${text}`);
    if (!text.startsWith('class Greeter:\n    from parse_config import parse_config\n'))
      throw new Error(`the ref's first line did not replace the selection:\n${text}`);
  });

  await step('fdref activates quickly (Developer: Show Running Extensions)', async () => {
    await runCommand('Developer: Show Running Extensions');
    // An installed extension is listed by its display name.
    const row = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: 'FD Refs' }).first();
    await row.waitFor({ timeout: STEP_TIMEOUT });
    const text = (await row.innerText()).replace(/\s+/g, ' ');
    const match = /(\d+)\s*ms/.exec(text);
    if (!match) throw new Error(`no activation time in "${text}"`);
    console.log(`      fdref activation time reported by VS Code: ${match[1]} ms (${text.trim()})`);
    if (Number(match[1]) > 1000) throw new Error(`activation took ${match[1]} ms`);
  });

  await step('npm start says its demo profile is temporary, and on Ctrl+C removes it and says so', async () => {
    const { profile, stopped } = await startAndStopDemo(build);
    if (existsSync(profile)) throw new Error(`${profile} is still there after Ctrl+C`);
    if (!stopped.includes(`The fdref demo has stopped; ${profile} was removed`))
      throw new Error(`no stopped line in: ${stopped.slice(-300)}`);
  });

  const failed = results.filter((r) => !r.ok).length;
  console.log(`\n  ${results.length - failed} passing`);
  if (failed > 0) console.log(`  ${failed} failing`);
  await cleanupAll();
  return failed === 0;
}

/**
 * Runs `npm start`'s script for a build until it prints its URL, checks the temporary profile it names exists, then
 * sends SIGINT (what Ctrl+C sends) and returns what it printed after.
 * @param {import('./versions.mjs').VsCodeBuild} build
 * @returns {Promise<{ profile: string, stopped: string }>}
 */
async function startAndStopDemo(build) {
  const child = spawn(process.execPath, [path.join(repo, 'scripts', 'vscode-host', 'start.mjs')], {
    env: { ...process.env, FDREF_VSCODE: build.vscode },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk) => (output += chunk));
  child.stderr.on('data', (chunk) => (output += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    const deadline = Date.now() + 120_000;
    while (!output.includes('Press Ctrl+C to stop')) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`npm start did not come up: ${output.slice(-300)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const profile = /are in (\S+) and are removed when you stop/.exec(output)?.[1];
    if (!profile) throw new Error(`npm start does not say where its temporary profile is: ${output.slice(-400)}`);
    if (!existsSync(path.join(profile, 'user-data'))) throw new Error(`${profile} has no VS Code profile`);
    const before = output.length;
    child.kill('SIGINT');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 60_000))]);
    return { profile, stopped: output.slice(before) };
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
  }
}

async function mainOnEveryBuild() {
  if (builds.length === 0)
    throw new Error(
      `FDREF_UI_VSCODE=${wanted} names no known build (${VSCODE_BUILDS.map((b) => b.vscode).join(', ')})`,
    );
  let ok = true;
  for (const build of builds) ok = (await main(build)) && ok;
  return ok;
}

mainOnEveryBuild()
  .then(async (ok) => {
    await cleanupAll();
    process.exit(ok ? 0 : 1);
  })
  .catch(async (error) => {
    console.error(`UI test could not run: ${error instanceof Error ? error.stack : error}`);
    await cleanupAll();
    process.exit(1);
  });
