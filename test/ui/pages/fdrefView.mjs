// fdref's side bar (the FD Refs activity): the Sessions tree and the header of its Chat view.
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class FdrefView {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.sessions = page.locator('.pane', { hasText: 'Sessions' });
    this.chatHeader = page.locator('.part.sidebar .pane-header', { hasText: /^\s*Chat/i }).first();
  }

  /** Shows the FD Refs activity in the side bar, clicking its icon in the activity bar. */
  async open() {
    await this.page.locator('.activitybar .action-item a[aria-label^="FD Refs"]').click();
  }

  /**
   * The Sessions tree's rows that show `text` (a session's name, a ref's id).
   * @param {string | RegExp} text
   */
  row(text) {
    return this.sessions.locator('.monaco-list-row', { hasText: text }).first();
  }

  /**
   * Expands the session row that shows `name` by clicking it (a click toggles a session).
   * @param {string} name
   */
  async expandSession(name) {
    const session = this.row(name);
    await session.waitFor({ timeout: STEP_TIMEOUT });
    if ((await session.getAttribute('aria-expanded')) === 'false') await session.click();
  }

  /**
   * Waits for the side bar's Chat view to show (`visible`) or to be gone.
   * @param {boolean} [visible]
   */
  async waitForChatView(visible = true) {
    await this.chatHeader.waitFor({ state: visible ? 'visible' : 'hidden', timeout: STEP_TIMEOUT });
  }

  /**
   * Waits for a view header of the side bar showing `text` (the Chat view's title names a fork).
   * @param {string} text
   */
  async waitForViewHeader(text) {
    await this.page.locator('.pane-header', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
  }
}
