// "Developer: Show Running Extensions": the activation time VS Code reports for each extension.
import { STEP_TIMEOUT, waitUntil } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class RunningExtensions {
  /**
   * @param {Page} page
   * @param {import('./quickInput.mjs').QuickInput} quickInput
   */
  constructor(page, quickInput) {
    this.page = page;
    this.quickInput = quickInput;
    this.rows = page.locator('.runtime-extensions-editor .monaco-list-row');
  }

  /** Shows the list (VS Code 1.139 shows it in a modal editor, over the rest of the window). */
  async open() {
    await this.quickInput.runCommand('Developer: Show Running Extensions');
    await this.rows.first().waitFor({ timeout: STEP_TIMEOUT });
  }

  /** Closes the list again. */
  async close() {
    await this.page.keyboard.press('Escape');
    await this.quickInput.runCommand('View: Close Editor');
  }

  /**
   * The activation time, in milliseconds, of the extension named (by display name) in the open list, and its row's
   * text; throws when it is not listed with a time (it did not activate).
   * @param {string} name
   */
  async activationTime(name) {
    // The list draws only the rows in view, slowest first; a quick extension is further down.
    const row = this.rows.filter({ hasText: name }).first();
    await this.rows.first().click();
    await this.page.keyboard.press('Home');
    for (let scrolls = 0; scrolls < 20 && !(await row.isVisible()); scrolls++) {
      await this.page.keyboard.press('PageDown');
      await this.page.waitForTimeout(100);
    }
    await row.waitFor({ timeout: STEP_TIMEOUT });
    // On a busy machine the list can show an extension as "Activating..." for a moment before its time.
    let text = '';
    let ms = NaN;
    await waitUntil(
      async () => {
        text = (await row.innerText()).replace(/\s+/g, ' ');
        ms = Number(/(\d+)\s*ms/.exec(text)?.[1] ?? NaN);
        return !Number.isNaN(ms);
      },
      () => `no activation time for ${name} in "${text.trim()}"`,
    );
    return { ms, text: text.trim() };
  }

  /**
   * The activation time of each extension named, as the list shows it; opens the list and closes it again.
   * @param {string[]} names
   */
  async activationTimes(names) {
    await this.open();
    /** @type {Record<string, number>} */
    const times = {};
    for (const name of names) times[name] = (await this.activationTime(name)).ms;
    await this.close();
    return times;
  }
}
