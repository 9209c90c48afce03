// The integrated terminal (a shell on VS Code's server, drawn by xterm.js).
import { STEP_TIMEOUT, waitUntil } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class Terminal {
  /**
   * @param {Page} page
   * @param {import('./quickInput.mjs').QuickInput} quickInput
   */
  constructor(page, quickInput) {
    this.page = page;
    this.quickInput = quickInput;
    this.xterm = page.locator('.terminal-wrapper.active .xterm').first();
    // Shell integration marks each finished command in the gutter; a command that ended with exit code 0 gets this.
    this.succeeded = page.locator(
      '.terminal-wrapper.active .terminal-command-decoration.codicon-terminal-decoration-success',
    );
  }

  /** Opens a new terminal in the panel and waits for it to take input. */
  async create() {
    await this.quickInput.runCommand('Terminal: Create New Terminal');
    // A window of several folders asks in which folder the terminal starts: the first (the workspace).
    if (await this.quickInput.showsPlaceholder('Select current working directory for new terminal', 3000))
      await this.quickInput.rows.first().click();
    await this.xterm.waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Types `command` into the active terminal, presses Enter as a person would, and waits until the shell reports it
   * finished with exit code 0 (which takes shell integration, loaded a moment after the first prompt).
   * @param {string} command
   */
  async run(command) {
    const before = await this.succeeded.count();
    await this.xterm.click();
    await this.page.keyboard.type(command);
    await this.page.keyboard.press('Enter');
    await waitUntil(
      async () => (await this.succeeded.count()) > before,
      () => `the terminal did not report "${command}" as finished`,
    );
  }
}
