// The Explorer's folders view (the workspace's files, and FD Refs' folder while it is browsed as files).
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').Locator} Locator */

export class Explorer {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.view = page.locator('.explorer-folders-view');
    this.noFolder = page.getByText('You have not yet added a folder').first();
  }

  /**
   * The first row that shows `text`.
   * @param {string | RegExp} text
   */
  row(text) {
    return this.view.locator('.monaco-list-row', { hasText: text }).first();
  }

  /**
   * Expands a row (selecting it, then the right arrow key, as a person would with the keyboard).
   * @param {string | RegExp} text
   */
  async expand(text) {
    const row = this.row(text);
    await row.waitFor({ timeout: STEP_TIMEOUT });
    await row.click();
    if ((await row.getAttribute('aria-expanded')) !== 'true') await this.page.keyboard.press('ArrowRight');
    const element = await row.elementHandle();
    if (!element) throw new Error('the tree row went away');
    await this.page.waitForFunction((el) => el.getAttribute('aria-expanded') === 'true', element, {
      timeout: STEP_TIMEOUT,
    });
  }

  /**
   * Whether the row that shows `text` is expanded.
   * @param {string | RegExp} text
   */
  async isExpanded(text) {
    return (await this.row(text).getAttribute('aria-expanded')) === 'true';
  }
}
