// The chat in VS Code's light, dark and high contrast themes, with the entity tooltip and the states a person
// sees (the end of a chat, a menu and an edit, an answer mid-stream, the welcome). With
// FDREF_WEBVIEW_SCREENSHOTS=DIR each is also saved as a PNG there, to look at.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import {
  answer,
  answerText,
  demoChat,
  evenPieces,
  initMessage,
  streamMessages,
  userMessage,
} from './support/chatMessages.mjs';
import { openPage, post, useChatPage, waitIdle } from './support/chatPage.mjs';

const shots = process.env.FDREF_WEBVIEW_SCREENSHOTS ? path.resolve(process.env.FDREF_WEBVIEW_SCREENSHOTS) : undefined;
if (shots) mkdirSync(shots, { recursive: true });

/**
 * Saves what `page` shows when screenshots were asked for.
 * @param {import('playwright-core').Page} page
 * @param {string} name
 * @param {{ x: number, y: number, width: number, height: number }} [clip]
 */
async function screenshot(page, name, clip) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`), ...(clip ? { clip } : {}) });
}

describe('webview in each theme', function () {
  this.timeout(60_000);
  const chat = useChatPage();

  for (const theme of ['light', 'dark', 'high-contrast']) {
    it(`renders a chat with one of everything in ${theme} without a CSP violation or page error`, async () => {
      const { page, errors } = await openPage(chat.browser, chat.origin, theme, { width: 900, height: 1500 });
      try {
        await post(page, [initMessage(demoChat(), { busy: true, trusted: theme !== 'dark' })]);
        await waitIdle(page);
        await page.hover('[data-message-id="a1"] .message-header');
        await screenshot(page, `webview-chat-${theme}`);
        assert.deepEqual(await page.evaluate(() => window.__violations), []);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  it('shows the entity tooltip the extension answers, and its links post openLink', async () => {
    const { page, errors } = await openPage(chat.browser, chat.origin, 'dark', { width: 900, height: 1500 });
    try {
      await post(page, [initMessage(demoChat(), { busy: true, trusted: false })]);
      await waitIdle(page);
      await page.hover('[data-message-id="a1"] .fdref-entity');
      await page.waitForFunction(() => window.__posted.some((m) => m.type === 'entityHover'));
      const hover = await page.evaluate(() => window.__posted.find((m) => m.type === 'entityHover'));
      assert.ok(hover, 'the webview asked for the entity');
      const command = `command:fdref.openEntity?%5B%22${hover.id}%22%5D`;
      await post(page, [
        {
          type: 'entityDetails',
          requestId: hover.requestId,
          id: hover.id,
          markdown: `**Planet ${hover.id}**\n\n- owner: \`1-3\`\n- ore: 120\n\n[Open as JSON](${command}) · [Refresh](command:fdref.refreshEntity)`,
        },
      ]);
      await page.waitForSelector('.entity-tooltip:not([hidden]) a');
      await screenshot(page, 'webview-entity-tooltip-dark', { x: 0, y: 0, width: 900, height: 500 });
      await page.click('.entity-tooltip a');
      const link = await page.evaluate(() => window.__posted.filter((m) => m.type === 'openLink').at(-1));
      assert.deepEqual(link, { type: 'openLink', href: command });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it("shows the end of a chat (error box, Stopped), a nested ref's menu and a message being edited", async () => {
    const { page, errors } = await openPage(chat.browser, chat.origin, 'dark', { width: 900, height: 900 });
    try {
      await post(page, [initMessage(demoChat(), { trusted: false })]);
      await waitIdle(page);
      await screenshot(page, 'webview-chat-end-dark');
      await page.evaluate(() =>
        /** @type {Element} */ (document.querySelector('.chip-menu')).scrollIntoView({ block: 'center' }),
      );
      await page.click('.chip-menu');
      await page.click('[data-message-id="u2"] button[aria-label="Edit and resend"]', { force: true });
      await page.click('.chip-menu');
      await screenshot(page, 'webview-menu-edit-dark');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('shows an answer mid-stream, a frame still being written', async () => {
    const { page, errors } = await openPage(chat.browser, chat.origin, 'light', { width: 900, height: 700 });
    try {
      const { messages } = streamMessages('a1', evenPieces(answerText(6000, 3), 200));
      const cut = messages.findIndex((m) => m.type === 'refOpened' && m.index === 1) + 8;
      await post(page, [
        initMessage([userMessage('u1', 'Write the plan.')], { busy: true }),
        { type: 'messageAdded', message: answer('a1', [], { status: 'streaming' }) },
      ]);
      await post(page, messages.slice(0, cut));
      await waitIdle(page);
      await screenshot(page, 'webview-streaming-light');
      assert.equal(await page.locator('[data-message-id="a1"] .ref-frame.is-writing').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('shows the welcome when no model is set up', async () => {
    const { page, errors } = await openPage(chat.browser, chat.origin, 'dark', { width: 700, height: 600 });
    try {
      await post(page, [initMessage([], { welcome: true, models: [] })]);
      await waitIdle(page);
      await screenshot(page, 'webview-welcome-dark');
      assert.equal(await page.locator('.welcome:visible').count(), 1);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});
