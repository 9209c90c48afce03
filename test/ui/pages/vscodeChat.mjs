// VS Code's own Chat view (1.104+): its input, where `@fdref` is asked, its responses, and Configure Tools.
import { STEP_TIMEOUT } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class VsCodeChat {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.inputPart = page.locator('.interactive-input-part').last();
  }

  /** The last response. */
  lastResponse() {
    return this.page.locator('.interactive-response').last();
  }

  /**
   * Asks `@fdref`, typing into the Chat view's input as a person would.
   * @param {string} prompt
   */
  async askFdref(prompt) {
    const input = this.inputPart.locator('.monaco-editor').first();
    await input.waitFor({ timeout: STEP_TIMEOUT });
    await input.click();
    // The input may still hold the sticky @fdref of the last question.
    await this.page.keyboard.press('Control+A');
    await this.page.keyboard.press('Backspace');
    await this.page.keyboard.type('@fdref', { delay: 80 });
    // Accepting the suggestion makes @fdref a participant chip; a busy machine may leave the list unfiltered, and
    // then the typed name (with a space) names the participant just the same.
    const suggestion = this.page.locator('.suggest-widget .monaco-list-row.focused', { hasText: /^@fdref/ }).first();
    const suggested = await suggestion.waitFor({ timeout: 5000 }).then(
      () => true,
      () => false,
    );
    if (suggested) await this.page.keyboard.press('Enter');
    else {
      await this.page.keyboard.press('Escape');
      await this.page.keyboard.type(' ');
    }
    await this.page.keyboard.type(prompt);
    await this.page.keyboard.press('Enter');
  }

  /**
   * Opens Configure Tools from the input's toolbar and expands the group `group` (the extension's name) with the
   * keyboard; returns the picker.
   * @param {string} group
   */
  async openToolPicker(group) {
    await this.inputPart
      .getByRole('button', { name: /^Configure Tools/ })
      .first()
      .click({ timeout: STEP_TIMEOUT });
    const picker = this.page.locator('.quick-input-widget');
    await picker.getByText('Configure Tools').first().waitFor({ timeout: STEP_TIMEOUT });
    await picker.getByText(group, { exact: true }).first().click({ timeout: STEP_TIMEOUT });
    await this.page.keyboard.press('ArrowRight');
    return picker;
  }
}
