// The quick input widget: the command palette (F1), Quick Open (Ctrl+P), quick picks and input boxes.
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class QuickInput {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.widget = page.locator('.quick-input-widget');
    this.input = page.locator('.quick-input-widget input');
    this.rows = page.locator('.quick-input-list .monaco-list-row');
  }

  /** Waits for the widget's input to show. */
  async waitForInput() {
    await this.input.waitFor({ state: 'visible', timeout: STEP_TIMEOUT });
  }

  /** Waits for the widget to close. */
  async waitForClosed() {
    await this.widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT });
  }

  /**
   * The rows that show `text`.
   * @param {string | RegExp} text
   */
  row(text) {
    return this.rows.filter({ hasText: text });
  }

  /**
   * Opens the quick input with `key`, types `text` and waits for a row showing `wanted`. A list filled before the
   * window had registered every extension's commands, or while the focus was moving, lacks the row; Ctrl+P pressed
   * while the focus is in a webview (a chat tab) opens nothing. A person closes it and tries again, once, with F1:
   * it reaches the workbench from a webview too, and its box searches files when the text has no ">".
   * @param {string} key
   * @param {string} text
   * @param {string} wanted
   */
  async openAndFind(key, text, wanted) {
    const row = this.row(wanted).first();
    for (let attempt = 1; ; attempt++) {
      await this.page.keyboard.press(attempt === 1 ? key : 'F1');
      const timeout = attempt === 1 ? 10_000 : STEP_TIMEOUT;
      const opened = await this.input.waitFor({ state: 'visible', timeout }).then(
        () => true,
        () => false,
      );
      if (opened) await this.input.fill(text);
      const shown =
        opened &&
        (await row.waitFor({ timeout }).then(
          () => true,
          () => false,
        ));
      if (shown) return row;
      if (attempt === 2) throw new Error(`no row "${wanted}" for "${text}" (${key}, then F1)`);
      console.log(`      ${opened ? `no row "${wanted}"` : `${key} opened nothing`} within 10 s; trying again with F1`);
      await this.page.keyboard.press('Escape');
      await this.widget.waitFor({ state: 'hidden', timeout: STEP_TIMEOUT }).catch(() => {});
    }
  }

  /**
   * Runs a command from the command palette by its title, clicking its row as a person would.
   * @param {string} title
   */
  async runCommand(title) {
    const row = await this.openAndFind('F1', `>${title}`, title);
    // Clicked rather than Enter: Enter runs the row that has the focus, which may still be another while the list filters.
    await row.click();
  }

  /**
   * Opens a workspace file with Quick Open (Ctrl+P) and waits for its tab. `file`, the file's absolute path, opens a
   * file made during the test: VS Code 1.100 lists a new file by name only once its file index is refreshed.
   * @param {string} name
   * @param {string} [file]
   */
  async quickOpen(name, file) {
    await this.openAndFind('Control+P', file ?? name, name);
    await this.page.keyboard.press('Enter');
    await this.page.locator('.tab.active', { hasText: name }).waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Picks the row that shows `text` (and not `unlike`), by clicking it once the list has filtered.
   * @param {string} text
   * @param {string} [unlike]
   */
  async pickRow(text, unlike) {
    await this.waitForInput();
    await this.input.fill(text);
    let row = this.row(text);
    if (unlike !== undefined) row = row.filter({ hasNotText: unlike });
    await row.first().waitFor({ timeout: STEP_TIMEOUT });
    await row.first().click();
  }

  /**
   * Waits for the quick input whose placeholder is `placeholder` (a pick that follows a command, not the palette on
   * its way out); resolves to whether it showed within `timeout`.
   * @param {string} placeholder
   * @param {number} [timeout]
   */
  async showsPlaceholder(placeholder, timeout = STEP_TIMEOUT) {
    return this.page
      .locator(`.quick-input-widget input[placeholder="${placeholder}"]`)
      .waitFor({ state: 'visible', timeout })
      .then(
        () => true,
        () => false,
      );
  }

  /**
   * Types `text` into the input box that is open (replacing what it holds), key by key as a person would.
   * @param {string} text
   */
  async typeIntoInputBox(text) {
    await this.waitForInput();
    // VS Code may put its suggested value (with part of it selected) into the box a moment after it shows: type
    // again if what the box holds is not what was typed.
    for (let attempt = 1; ; attempt++) {
      await this.input.fill('');
      await this.input.pressSequentially(text, { delay: 30 });
      if ((await this.input.inputValue()) === text || attempt === 3) return;
    }
  }

  /**
   * Waits until the input box holds a value that contains `text` (a suggested file name).
   * @param {string} text
   */
  async waitForValueContaining(text) {
    await this.waitForInput();
    await this.page.waitForFunction(
      (wanted) =>
        /** @type {HTMLInputElement | null} */ (document.querySelector('.quick-input-widget input'))?.value.includes(
          wanted,
        ),
      text,
      { timeout: STEP_TIMEOUT },
    );
  }

  /**
   * Waits for the input box's validation message under it to show `text`.
   * @param {string} text
   */
  async waitForValidationMessage(text) {
    await this.page
      .locator('.quick-input-widget .quick-input-message', { hasText: text })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Picks a color theme with Preferences: Color Theme (Ctrl+K Ctrl+T), clicking the row with exactly that name.
   * @param {string} name
   */
  async setColorTheme(name) {
    await this.page.keyboard.press('Escape');
    await this.page.keyboard.press('Control+K');
    await this.page.keyboard.press('Control+T');
    await this.waitForInput();
    await this.input.fill(name);
    const row = this.rows.filter({ has: this.page.locator('.label-name', { hasText: new RegExp(`^${name}$`) }) });
    await row.first().click({ timeout: STEP_TIMEOUT });
    await this.waitForClosed();
  }
}
