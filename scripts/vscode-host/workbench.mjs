// Steps a person takes in VS Code's workbench (in Chromium, driven by playwright-core), for the VSIX smoke test and
// the activation bench.

/** @typedef {import('playwright-core').Page} Page */

export const STEP_TIMEOUT = 20_000;

/**
 * Runs a command from the command palette by its title, clicking its row as a person would.
 * @param {Page} page
 * @param {string} title
 */
export async function runCommand(page, title) {
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
 * The chat panel's content (a webview: an iframe holding the active frame).
 * @param {Page} page
 */
export function chatFrame(page) {
  return page.locator('iframe.webview.ready').last().contentFrame().locator('#active-frame').contentFrame();
}

/**
 * Types a prompt into the chat's composer and sends it with Enter.
 * @param {Page} page
 * @param {string} prompt
 */
export async function askChat(page, prompt) {
  const input = chatFrame(page).locator('textarea.composer-input');
  await input.waitFor({ timeout: STEP_TIMEOUT });
  await input.click();
  await input.fill(prompt);
  await input.press('Enter');
}

/**
 * The activation time, in milliseconds, of each extension named (by display name), as "Developer: Show Running
 * Extensions" lists it; throws when one is not listed with a time (it did not activate). Closes the list again
 * (VS Code 1.139 shows it in a modal editor, over the rest of the window).
 * @param {Page} page
 * @param {string[]} names
 */
export async function activationTimes(page, names) {
  await runCommand(page, 'Developer: Show Running Extensions');
  const rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  await rows.first().waitFor({ timeout: STEP_TIMEOUT });
  /** @type {Record<string, number>} */
  const times = {};
  for (const name of names) {
    // The list draws only the rows in view, slowest first; a quick extension is further down.
    const row = rows.filter({ hasText: name }).first();
    await rows.first().click();
    await page.keyboard.press('Home');
    for (let scrolls = 0; scrolls < 20 && !(await row.isVisible()); scrolls++) {
      await page.keyboard.press('PageDown');
      await page.waitForTimeout(100);
    }
    await row.waitFor({ timeout: STEP_TIMEOUT });
    // On a busy machine the list can show an extension as "Activating..." for a moment before its time.
    let text = '';
    let match = null;
    for (const deadline = Date.now() + STEP_TIMEOUT; !match && Date.now() < deadline;) {
      text = (await row.innerText()).replace(/\s+/g, ' ');
      match = /(\d+)\s*ms/.exec(text);
      if (!match) await page.waitForTimeout(250);
    }
    if (!match) throw new Error(`no activation time for ${name} in "${text.trim()}"`);
    times[name] = Number(match[1]);
  }
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close Editor');
  return times;
}
