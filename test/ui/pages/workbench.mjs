// The page objects of the UI test, the VSIX test and the activation bench: each wraps the selectors and waits of one
// part of VS Code's workbench (as VS Code's own test/automation does), so a test reads as the steps a person takes.
// `new Workbench(page)` holds them all.
import { ChatWebview } from './chatWebview.mjs';
import { Editors } from './editors.mjs';
import { Explorer } from './explorer.mjs';
import { FdrefView } from './fdrefView.mjs';
import { Notifications } from './notifications.mjs';
import { QuickInput } from './quickInput.mjs';
import { RunningExtensions } from './runningExtensions.mjs';
import { Terminal } from './terminal.mjs';
import { RELOAD_TIMEOUT } from './waits.mjs';
import { VsCodeChat } from './vscodeChat.mjs';

/** @typedef {import('playwright-core').Page} Page */

export class Workbench {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
    this.quickInput = new QuickInput(page);
    this.editors = new Editors(page);
    this.notifications = new Notifications(page);
    this.fdrefView = new FdrefView(page);
    this.explorer = new Explorer(page);
    this.chat = new ChatWebview(page);
    this.vscodeChat = new VsCodeChat(page);
    this.runningExtensions = new RunningExtensions(page, this.quickInput);
    this.terminal = new Terminal(page, this.quickInput);
    this.auxiliaryBar = page.locator('.part.auxiliarybar');
  }

  /**
   * Waits for the workbench to show.
   * @param {number} [timeout]
   */
  async waitForWorkbench(timeout = RELOAD_TIMEOUT) {
    await this.page.locator('.monaco-workbench').waitFor({ timeout });
  }

  /**
   * Runs a command from the command palette by its title.
   * @param {string} title
   */
  async runCommand(title) {
    await this.quickInput.runCommand(title);
  }

  /**
   * Runs one of the chat commands (Fork, Retry, Export) from the palette; when no chat has the focus (the palette
   * took it), the command asks which chat with a quick pick, open chats first: the first is taken.
   * @param {string} title
   */
  async runChatCommand(title) {
    await this.quickInput.runCommand(title);
    // The palette's own list may still be on its way out: look for the chat pick by its placeholder.
    if (await this.quickInput.showsPlaceholder('Pick a chat', 3000)) await this.quickInput.rows.first().click();
  }

  /**
   * Waits for the page to load again after `action` (Reload Window): the old page still shows what the caller checks
   * next until the reload happens. `url` narrows the navigation waited for.
   * @param {() => Promise<void>} action
   * @param {{ url?: string, timeout?: number }} [options]
   */
  async reloadingAfter(action, { url, timeout = RELOAD_TIMEOUT } = {}) {
    const reloaded = this.page.waitForEvent('framenavigated', {
      predicate: (frame) => frame === this.page.mainFrame() && (url === undefined || frame.url().includes(url)),
      timeout,
    });
    reloaded.catch(() => {}); // awaited below; an action that fails first must not leave it unhandled
    await action();
    await reloaded;
    await this.page.waitForLoadState('load', { timeout: RELOAD_TIMEOUT }).catch(() => {});
    await this.waitForWorkbench();
  }

  /** Closes what a step may have left open over the window (a quick input, a hover, a dialog's focus). */
  async dismiss() {
    for (let i = 0; i < 2; i++) await this.page.keyboard.press('Escape');
  }
}
