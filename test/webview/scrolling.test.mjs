// Where the chat's view is: it follows the end of an answer while the user is there, stays where the user scrolled
// to, and comes back to the end when the user asks for a new answer (Retry from the palette included).
import assert from 'node:assert/strict';
import { answer, initMessage, round, userMessage } from './support/chatMessages.mjs';
import { openPage, post, useChatPage, waitIdle } from './support/chatPage.mjs';

describe('webview scrolling: the view follows the end until the user leaves it', function () {
  this.timeout(60_000);
  const chat = useChatPage();
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let errors;

  const long = Array.from({ length: 60 }, (_, i) => `Line ${i + 1} of a long answer.`).join('\n\n');
  /** How far the view is from the end of the chat, in pixels. */
  const fromEnd = () =>
    page.evaluate(() => {
      const list = /** @type {HTMLElement} */ (document.querySelector('.messages'));
      return Math.round(list.scrollHeight - list.scrollTop - list.clientHeight);
    });
  /** @param {unknown[]} messages */
  const deliver = async (messages) => {
    await post(page, messages);
    await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 50)));
    await waitIdle(page);
  };

  before(async () => {
    ({ page, errors } = await openPage(chat.browser, chat.origin, 'dark', { width: 600, height: 500 }));
    await deliver([
      initMessage([
        userMessage('u1', 'First question'),
        answer('a1', [round(long)]),
        userMessage('u2', 'Second question'),
        answer('a2', [round(long)]),
      ]),
    ]);
  });

  after(() => page?.close());

  it('shows the end of the chat when it opens', async () => {
    assert.ok((await fromEnd()) <= 2, `${await fromEnd()} px from the end`);
  });

  it('stays where the user scrolled to while an answer is added', async () => {
    await page.mouse.move(300, 200);
    await page.mouse.wheel(0, -2000);
    await page.waitForFunction(
      () => {
        const list = /** @type {HTMLElement} */ (document.querySelector('.messages'));
        return list.scrollHeight - list.scrollTop - list.clientHeight > 1000;
      },
      null,
      { polling: 50, timeout: 5000 },
    );
    await deliver([{ type: 'messageAdded', message: answer('a3', [round(long)], { status: 'streaming' }) }]);
    assert.ok((await fromEnd()) > 500, 'the view jumped to the end while the user read above');
  });

  it('goes to the end when the last answer is removed to be answered again', async () => {
    await deliver([
      { type: 'messagesRemoved', fromId: 'a3' },
      { type: 'messageAdded', message: answer('a4', [round(long)], { status: 'streaming' }) },
    ]);
    assert.ok((await fromEnd()) <= 2, `${await fromEnd()} px from the end after the retry`);
  });

  it('logs no page error', () => {
    assert.deepEqual(errors, []);
  });
});
