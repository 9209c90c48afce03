// The editor area: tabs, editor groups, the text of the active editor, hovers over it, breadcrumbs.
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class Editors {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.groups = page.locator('.part.editor .editor-group-container');
  }

  /**
   * The editor tabs whose title shows `title` (in the editor area).
   * @param {string | RegExp} title
   */
  tab(title) {
    return this.page.locator('.part.editor .tab', { hasText: title });
  }

  /**
   * Waits for a tab showing `title`, active or not.
   * @param {string | RegExp} title
   * @param {number} [timeout]
   */
  async waitForTab(title, timeout = STEP_TIMEOUT) {
    await this.page.locator('.tab', { hasText: title }).first().waitFor({ timeout });
  }

  /**
   * Waits for the active tab to show `title`.
   * @param {string | RegExp} title
   */
  async waitForActiveTab(title) {
    await this.page.locator('.tab.active', { hasText: title }).first().waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Clicks the tab showing `title`.
   * @param {string | RegExp} title
   */
  async selectTab(title) {
    await this.page.locator('.tab', { hasText: title }).first().click();
  }

  /** How many editor groups (columns) the editor area has. */
  async groupCount() {
    return this.groups.count();
  }

  /**
   * Waits for an editor to show `text` in its lines.
   * @param {string} text
   */
  async waitForText(text) {
    await this.page
      .locator('.editor-instance .view-lines', { hasText: text })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Waits for a line of an editor that shows `text`.
   * @param {string} text
   */
  async waitForLine(text) {
    await this.page
      .locator('.editor-instance .view-line', { hasText: text })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  }

  /** Clicks into the (first) editor's text, giving it the focus. */
  async focus() {
    await this.page.locator('.editor-instance .view-lines').first().click();
  }

  /** Selects all the text of the focused editor. */
  async selectAll() {
    await this.focus();
    await this.page.keyboard.press('Control+A');
  }

  /**
   * Moves the cursor to line `line` with Go to Line (Ctrl+G).
   * @param {number} line
   */
  async goToLine(line) {
    await this.focus();
    await this.page.keyboard.press('Control+G');
    await this.page.keyboard.type(String(line));
    await this.page.keyboard.press('Enter');
  }

  /**
   * Where `text` is drawn in an editor, to point the mouse at it.
   * @param {string} text
   */
  async textBox(text) {
    const box = await this.page.evaluate((needle) => {
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
   * Points the mouse at `text` in an editor, as a person does to see its hover.
   * @param {string} text
   */
  async hover(text) {
    const box = await this.textBox(text);
    await this.page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
  }

  /**
   * Waits for a hover that shows `text`.
   * @param {string} text
   */
  async waitForHover(text) {
    await this.page.locator('.monaco-hover', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Waits for the breadcrumbs above the editor to show `text`.
   * @param {string} text
   */
  async waitForBreadcrumb(text) {
    await this.page.locator('.breadcrumbs-control', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Waits for the status bar to show `text` (the language of the active editor, e.g. "Python").
   * @param {string} text
   */
  async waitForStatus(text) {
    await this.page.locator('.statusbar-item', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
  }
}
