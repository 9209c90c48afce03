// Notification toasts and modal dialogs.
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class Notifications {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.dialogs = page.locator('.monaco-dialog-box');
  }

  /**
   * Waits for a notification toast that holds `text`.
   * @param {string} text
   */
  async waitForToast(text) {
    await this.page.locator('.notification-toast', { hasText: text }).first().waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * The notification toasts that hold `text`.
   * @param {string | RegExp} text
   */
  toast(text) {
    return this.page.locator('.notification-toast', { hasText: text });
  }

  /**
   * The modal dialog that holds `text`.
   * @param {string} text
   */
  dialog(text) {
    return this.page.locator('.monaco-dialog-box', { hasText: text });
  }

  /**
   * Clicks the button `label` of the dialog shown.
   * @param {string} label
   */
  async clickDialogButton(label) {
    await this.page.locator('.monaco-dialog-box .monaco-button', { hasText: label }).first().click();
  }

  /** Whether a modal dialog shows. */
  async dialogShown() {
    return this.dialogs.isVisible();
  }
}
