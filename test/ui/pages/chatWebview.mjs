// fdref's chat: a webview (an iframe holding the active frame) in the FD Refs side bar's Chat view or in an editor
// tab. Its composer, its messages, the ref frames of an answer, the welcome of a new chat.
import { STEP_TIMEOUT, waitUntil } from './waits.mjs';

/** @typedef {import('playwright-core').Page} Page */
/** @typedef {import('playwright-core').FrameLocator} FrameLocator */

/** A chat tab's title ("Chat Nov 24, 2026, 10:46 AM"); a string would also match chat-transcript.md (trimmed, any case). */
export const CHAT_TAB = /Chat [A-Z][a-z]{2} \d/;

/** The prompt of the loopback model endpoint's scripted answer with the refs ref:greet and ref:config. */
export const GREET_PROMPT = 'How do I greet someone in Python?';

/**
 * The content of a webview: the iframe's active frame.
 * @param {import('playwright-core').Locator} iframe
 */
function activeFrame(iframe) {
  return iframe.contentFrame().locator('#active-frame').contentFrame();
}

export class ChatWebview {
  /** @param {Page} page */
  constructor(page) {
    this.page = page;
  }

  /**
   * The chat shown: the last visible webview, the side bar's Chat view or a chat tab; a chat tab behind another tab
   * keeps its hidden iframe.
   * @returns {FrameLocator}
   */
  frame() {
    return activeFrame(this.page.locator('iframe.webview.ready').filter({ visible: true }).last());
  }

  /** The composer's text area. */
  composer() {
    return this.frame().locator('textarea.composer-input');
  }

  /**
   * A ref block of an answer (`ref:greet`), finished writing unless `writing` is left undefined.
   * @param {string} ref
   * @param {{ finished?: boolean }} [options]
   */
  refFrame(ref, { finished = false } = {}) {
    return this.frame().locator(`section.ref-frame[aria-label="${ref}"]${finished ? ':not(.is-writing)' : ''}`);
  }

  /**
   * Types a prompt into the composer and sends it with Enter, as a person would.
   * @param {string} prompt
   */
  async ask(prompt) {
    const input = this.composer();
    await input.waitFor({ timeout: STEP_TIMEOUT });
    await input.click();
    await input.fill(prompt);
    await input.press('Enter');
  }

  /** Waits until no answer streams (the composer sends nothing while one does). */
  async waitForIdle() {
    await this.frame().locator('body:not(.is-busy)').waitFor({ timeout: STEP_TIMEOUT });
  }

  /**
   * Waits for the chat to show `text`.
   * @param {string} text
   * @param {number} [timeout]
   */
  async waitForText(text, timeout = STEP_TIMEOUT) {
    await this.frame().locator(`text=${text}`).first().waitFor({ timeout });
  }

  /**
   * The Allow button of a write the model asks for (`ref:greeting`).
   * @param {string} ref
   */
  allowButton(ref) {
    return this.frame().locator(`button[aria-label^="Allow writing ${ref}"]`);
  }

  /**
   * The one-line headlines of finished tool calls that match `text`.
   * @param {string | RegExp} text
   */
  toolHeadline(text) {
    return this.frame().locator('.tool-headline', { hasText: text });
  }

  /**
   * Selects the loopback model endpoint ("Demo (OpenAI protocol)") in the model picker; on 1.139.1 the scripted
   * VS Code model may be listed first once it is offered.
   */
  async selectDemoModel() {
    const picker = this.frame().locator('select.model-picker');
    /** @type {string | undefined} */
    let demo;
    // A new chat fills its picker once the extension has listed the models: wait for the endpoint's option.
    await waitUntil(
      async () => {
        demo = await picker.evaluate(
          (select) =>
            [.../** @type {HTMLSelectElement} */ (select).options].find((o) => o.value.startsWith('endpoint:'))?.value,
        );
        return demo !== undefined;
      },
      () => 'the demo endpoint is not in the model picker',
    );
    await picker.selectOption(/** @type {string} */ (demo));
  }

  /** Waits until the focus is in the composer, inside the webview. */
  async waitForComposerFocus() {
    await this.frame()
      .locator('body')
      .evaluate(
        (body, timeout) =>
          new Promise((resolve, reject) => {
            const deadline = Date.now() + timeout;
            const check = () => {
              if (document.activeElement?.classList.contains('composer-input')) resolve(undefined);
              else if (Date.now() > deadline) reject(new Error(`the focus is on ${document.activeElement?.tagName}`));
              else setTimeout(check, 100);
            };
            check();
          }),
        STEP_TIMEOUT,
      );
  }

  /**
   * Waits until `frames` of the webviews shown (the side bar's chat, chat tabs) show `selector`.
   * @param {string} selector
   */
  async someFrameShows(selector, frames = 1) {
    const all = this.page.locator('iframe.webview.ready');
    let showing = 0;
    await waitUntil(
      async () => {
        showing = 0;
        for (let i = 0; i < (await all.count()); i++) {
          const count = await activeFrame(all.nth(i))
            .locator(selector)
            .count()
            .catch(() => 0);
          if (count > 0) showing++;
        }
        return showing >= frames;
      },
      () => `fewer than ${frames} chat(s) show ${selector} (${showing} do)`,
    );
  }

  /**
   * What of the model's answers could run in the webview: a flag a script would set, script-like elements, event
   * handler attributes, javascript: links, and where the frame is.
   */
  async unsafeContent() {
    return this.frame()
      .locator('body')
      .evaluate(() => ({
        flag: /** @type {Window & { __fdrefXss?: unknown }} */ (window).__fdrefXss,
        scripts: document.querySelectorAll('.message script, .message iframe, .message object, .message embed').length,
        handlers: [...document.querySelectorAll('.message *')].filter((el) =>
          [...el.attributes].some((a) => a.name.startsWith('on')),
        ).length,
        jsLinks: [...document.querySelectorAll('.message a[href]')].filter((a) =>
          /^\s*javascript:/i.test(a.getAttribute('href') ?? ''),
        ).length,
        location: location.href,
      }));
  }
}
