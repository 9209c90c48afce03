// What a person meets first and what long content looks like: a new chat's welcome (the model, example prompts, where
// keys are set), the composer's focus and ArrowUp history, a long message stored as a descriptor, finished tool calls
// in one line, and entity ids in code. With FDREF_WEBVIEW_SCREENSHOTS=DIR the states are saved there as PNGs.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { answer, initMessage, round, userMessage } from './support/chatMessages.mjs';
import { openPage, post as postNow, requireTs, useChatPage, waitIdle } from './support/chatPage.mjs';

/** @type {typeof import('../../src/core/chat/views.js')} */
const { messageView, toolCallView } = requireTs('src/core/chat/views.ts');

const shots = process.env.FDREF_WEBVIEW_SCREENSHOTS ? path.resolve(process.env.FDREF_WEBVIEW_SCREENSHOTS) : undefined;
if (shots) mkdirSync(shots, { recursive: true });

/**
 * @param {import('playwright-core').Page} page
 * @param {string} name
 */
async function screenshot(page, name) {
  if (shots) await page.screenshot({ path: path.join(shots, `${name}.png`) });
}

/**
 * Delivers `messages` and waits until the page has handled them (window messages arrive in a later task).
 * @param {import('playwright-core').Page} page
 * @param {unknown[]} messages
 */
async function post(page, messages) {
  await postNow(page, messages);
  await page.evaluate(() => new Promise((resolve) => setTimeout(resolve, 20)));
  await waitIdle(page);
}

const models = [
  { key: 'endpoint:Ollama/llama3.1', label: 'llama3.1', provider: 'openai', detail: 'http://localhost:11434/v1' },
  {
    key: 'vscode-lm:copilot/gpt-4o',
    label: 'GPT-4o',
    provider: 'vscode-lm',
    detail: 'copilot · VS Code language model',
  },
];

describe('webview first contact and long content', function () {
  this.timeout(60_000);
  const chat = useChatPage();

  /**
   * @param {string} [theme]
   * @param {{ width: number, height: number }} [viewport]
   */
  const open = (theme = 'dark', viewport = { width: 800, height: 800 }) =>
    openPage(chat.browser, chat.origin, theme, viewport);
  /** @param {import('playwright-core').Page} page */
  const posted = (page) => page.evaluate(() => window.__posted.splice(0).filter((m) => m.type !== 'ready'));

  it('a new chat shows the model by name and provider, example prompts and where keys are set', async () => {
    const { page, errors } = await open('dark');
    try {
      await post(page, [initMessage([], { models, selectedModel: models[0].key })]);
      await waitIdle(page);
      const welcome = page.locator('.new-chat-welcome');
      assert.ok(await welcome.isVisible());
      assert.match(await welcome.locator('.welcome-model').innerText(), /llama3\.1, an OpenAI-compatible endpoint/);
      assert.equal(await welcome.locator('.welcome-example').count(), 3);
      assert.match(await welcome.innerText(), /fdref\.chat\.endpoints/);
      await screenshot(page, 'new-chat-dark');

      // The picker changes the model named; nothing else is posted than the choice.
      await posted(page);
      await page.selectOption('.model-picker', models[1].key);
      assert.equal(
        await welcome.locator('.welcome-model').innerText(),
        'Answering: GPT-4o, a VS Code language model (copilot)',
      );
      assert.deepEqual(await posted(page), [{ type: 'selectModel', key: models[1].key }]);

      // An example fills the composer and sends nothing (the extension keeps it as the chat's draft).
      await welcome.locator('.welcome-example').nth(1).click();
      const value = await page.inputValue('.composer-input');
      assert.match(value, /git log/);
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'composer-input');
      assert.deepEqual(await posted(page), [{ type: 'draft', chatId: 'bench', text: value }]);

      // Set API Key… goes to the extension as a typed command.
      await welcome.getByRole('link', { name: /Set the API key/ }).click();
      assert.deepEqual(await posted(page), [{ type: 'command', command: 'setApiKey' }]);

      // The first message hides it; removing every message shows it again.
      await post(page, [{ type: 'messageAdded', message: userMessage('u1', 'hello') }]);
      assert.equal(await welcome.isVisible(), false);
      await post(page, [{ type: 'messagesRemoved', fromId: 'u1' }]);
      assert.equal(await welcome.isVisible(), true);
      // No model at all: the other welcome, not this one.
      await post(page, [{ type: 'models', models: [], welcome: true }]);
      assert.equal(await welcome.isVisible(), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('the composer has focus when the chat opens, and ArrowUp in an empty composer recalls the prompts sent', async () => {
    const { page, errors } = await open('dark');
    try {
      await post(page, [
        initMessage(
          [userMessage('u1', 'first prompt'), answer('a1', [round('ok')]), userMessage('u2', 'second\nprompt')],
          { models },
        ),
      ]);
      await waitIdle(page);
      assert.equal(await page.evaluate(() => document.activeElement?.className), 'composer-input');
      const box = page.locator('.composer-input');
      await page.keyboard.press('ArrowUp');
      assert.equal(await box.inputValue(), 'second\nprompt');
      await page.keyboard.press('ArrowUp');
      assert.equal(await box.inputValue(), 'first prompt');
      await page.keyboard.press('ArrowUp');
      assert.equal(await box.inputValue(), 'first prompt', 'the oldest stays');
      await page.keyboard.press('End');
      await page.keyboard.press('ArrowDown');
      assert.equal(await box.inputValue(), 'second\nprompt');
      await page.keyboard.press('ArrowDown');
      assert.equal(await box.inputValue(), '', 'down past the newest gives the empty box back');

      // With text typed, the arrows move the caret and recall nothing.
      await page.keyboard.type('draft one');
      await page.keyboard.press('ArrowUp');
      await page.keyboard.press('ArrowUp');
      assert.equal(await box.inputValue(), 'draft one');

      // A prompt sent now is the first one recalled.
      await page.fill('.composer-input', '');
      await post(page, [{ type: 'messageAdded', message: userMessage('u3', 'third prompt') }]);
      await box.focus();
      await page.keyboard.press('ArrowUp');
      assert.equal(await box.inputValue(), 'third prompt');
      const sent = await posted(page);
      assert.deepEqual(
        sent.filter((m) => m.type !== 'draft'),
        [],
      );
      assert.deepEqual(sent.at(-1), { type: 'draft', chatId: 'bench', text: 'third prompt' }, 'the box as a draft');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('the draft goes to the extension as typed (a long one once typing pauses) and comes back with its chat', async () => {
    const { page, errors } = await open('dark');
    try {
      await post(page, [initMessage([], { chatId: 'chat-a' })]);
      const box = page.locator('.composer-input');
      await box.focus();
      await posted(page);
      await page.keyboard.type('half');
      assert.deepEqual((await posted(page)).at(-1), { type: 'draft', chatId: 'chat-a', text: 'half' });
      // Another chat is put in this page: its own draft, as the extension kept it, is in the box.
      await post(page, [initMessage([], { chatId: 'chat-b', draft: 'for b' })]);
      assert.equal(await box.inputValue(), 'for b');
      await post(page, [initMessage([], { chatId: 'chat-c' })]);
      assert.equal(await box.inputValue(), '', 'a chat with no draft kept has an empty box');
      await post(page, [initMessage([], { chatId: 'chat-a', draft: 'half' })]);
      assert.equal(await box.inputValue(), 'half');
      assert.deepEqual(await posted(page), [], 'a draft restored is not sent back');
      // A long draft is sent once, when typing pauses.
      const long = 'x'.repeat(20_000);
      await page.fill('.composer-input', long);
      await page.keyboard.type('yz');
      assert.deepEqual(await posted(page), [], 'not on every key');
      await page.waitForTimeout(400);
      assert.deepEqual(await posted(page), [{ type: 'draft', chatId: 'chat-a', text: `${long}yz` }]);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('a long message stored as fd:N shows a chip on top, its first lines whole or marked, and Show more', async () => {
    const { page, errors } = await open('light', { width: 800, height: 900 });
    try {
      const lines = Array.from({ length: 3000 }, (_, i) =>
        i === 2 ? `line 3 is long: ${'x'.repeat(900)}` : `2026-01-01 log line ${i + 1}: planet 2-${(i % 40) + 1}`,
      );
      const text = lines.join('\n');
      // The view of the record as the extension makes it: the text cut to what the view holds, the whole length.
      const view = messageView({
        role: 'user',
        id: 'u1',
        text,
        createdAt: '2026-01-01T00:00:00Z',
        descriptor: { id: 'fd:3', chars: text.length, lines: 3000 },
      });
      assert.equal(view.role === 'user' && view.fullChars, text.length);
      await post(page, [initMessage([view, answer('a1', [round('Read it.')])], { models })]);
      await waitIdle(page);
      const message = page.locator('[data-message-id="u1"]');
      const chip = message.locator('.stored-chip');
      assert.equal(
        await chip.innerText(),
        `Stored as fd:3, ${text.length.toLocaleString('en-US')} characters`,
        'the chip names the descriptor and the size with thousands separators',
      );
      const chipBox = await chip.boundingBox();
      const textBox = await message.locator('.user-text').boundingBox();
      assert.ok(chipBox && textBox && chipBox.y < textBox.y, 'the chip is above the text');
      assert.equal(await message.locator('.user-line').count(), 12);
      const third = await message.locator('.user-line').nth(2).innerText();
      assert.match(third, /… 516 more characters on this line$/, 'a long line is cut with a marker');
      assert.match(await message.locator('.user-more .note').innerText(), /Showing lines 1–12 of 3,000\./);
      await screenshot(page, 'long-message-light');

      await posted(page);
      await message.getByRole('button', { name: /Show 200 more lines/ }).click();
      assert.equal(await message.locator('.user-line').count(), 212);
      // Until the end of what the view holds: its last line is marked as cut, and Show more is gone.
      for (let i = 0; i < 10 && (await message.locator('.show-more').count()) > 0; i++)
        await message.locator('.show-more').click();
      assert.equal(await message.locator('.show-more').count(), 0);
      assert.match(await message.locator('.user-line').last().innerText(), /… \(the view stops here\)$/);
      await message.locator('.open-stored').click();
      await chip.click();
      assert.deepEqual(await posted(page), [
        { type: 'openDescriptor', descriptor: 'fd:3' },
        { type: 'openDescriptor', descriptor: 'fd:3' },
      ]);
      // Editing it here would resend only the part the view holds.
      assert.equal(await message.locator('button[aria-label="Edit and resend"]').getAttribute('aria-disabled'), 'true');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('a finished tool call reads as one line with links; the raw result is behind the disclosure', async () => {
    const { page, errors } = await open('dark', { width: 900, height: 700 });
    try {
      const write = toolCallView({
        callId: 'w1',
        name: 'fd_to_file',
        arguments: '{"fd":"ref:hello","file_path":"notes/hello.py"}',
        status: 'done',
        result:
          '<fd_file_result fd="ref:hello" file_path="/work/ws/notes/hello.py" mode="write" char_count="57" size_bytes="57" success="true"><message>Wrote ref:hello (57 characters) to /work/ws/notes/hello.py.</message></fd_file_result>',
        confirmation: {
          source: 'ref:hello',
          path: 'notes/hello.py',
          mode: 'write',
          chars: 57,
          bytes: 57,
          replacesFile: false,
          fileExists: false,
        },
      });
      const read = toolCallView({
        callId: 'r1',
        name: 'read_fd',
        arguments: '{"fd":"fd:3","start":2}',
        status: 'done',
        result: '<fd_content fd="fd:3" page="2" pages="9" lines="64-120" total_lines="500">text</fd_content>',
      });
      const failed = toolCallView({
        callId: 'f1',
        name: 'read_fd',
        arguments: '{"fd":"fd:9"}',
        status: 'error',
        result: '<fd_error type="not_found" fd="fd:9">"fd:9" does not exist. Available: fd:1.</fd_error>',
      });
      const running = toolCallView({ callId: 'x1', name: 'search_fd', arguments: '{"fd":"fd:3"}', status: 'running' });
      const waiting = toolCallView({
        callId: 'x2',
        name: 'fd_to_file',
        arguments: '{"fd":"ref:b","file_path":"b.py"}',
        status: 'awaitingConfirmation',
        confirmation: {
          source: 'ref:b',
          path: 'b.py',
          mode: 'write',
          chars: 57,
          bytes: 57,
          replacesFile: false,
          fileExists: false,
        },
      });
      await post(page, [
        initMessage(
          [
            userMessage('u1', 'Save it.'),
            answer('a1', [round('Saving.', { toolCalls: [write, read, failed, running, waiting] })], {
              status: 'streaming',
            }),
          ],
          { models, busy: true },
        ),
      ]);
      await waitIdle(page);
      const card = (/** @type {string} */ id) =>
        page.locator('.tool-call').nth(['w1', 'r1', 'f1', 'x1', 'x2'].indexOf(id));
      assert.equal(await card('w1').locator('.tool-headline').innerText(), 'Wrote notes/hello.py, 57 bytes');
      assert.equal(await card('r1').locator('.tool-headline').innerText(), 'Read fd:3 page 2 of 9');
      assert.equal(
        await card('f1').locator('.tool-headline').innerText(),
        'Failed: "fd:9" does not exist. Available: fd:1.',
      );
      assert.equal(await card('w1').evaluate((e) => /** @type {HTMLDetailsElement} */ (e).open), false);
      assert.equal(
        await card('w1').locator('.tool-text').last().isVisible(),
        false,
        'the raw result is not the main view',
      );
      // Running and waiting calls keep their states: the spinner, and Allow / Deny.
      assert.equal(await card('x1').locator('.codicon-modifier-spin').count(), 1);
      assert.equal(await card('x2').locator('.confirm-buttons .primary').isVisible(), true);
      await screenshot(page, 'tool-calls-dark');

      await posted(page);
      await card('w1').locator('.tool-file').click();
      await card('r1').getByRole('link', { name: 'Open fd:3' }).click();
      assert.deepEqual(await posted(page), [
        { type: 'openFile', callId: 'w1' },
        { type: 'openDescriptor', descriptor: 'fd:3' },
      ]);
      assert.equal(
        await card('w1').evaluate((e) => /** @type {HTMLDetailsElement} */ (e).open),
        false,
        'a link does not toggle',
      );
      await card('w1').locator('summary').click();
      assert.match(await card('w1').locator('.tool-body').innerText(), /<fd_file_result/);
      await card('x2').locator('.confirm-buttons .primary').click();
      assert.deepEqual(await posted(page), [{ type: 'confirm', callId: 'x2', allow: true }]);
      // Once written, the card opened to ask closes: its line says what happened, the XML stays behind it.
      const written = toolCallView({
        callId: 'x2',
        name: 'fd_to_file',
        arguments: '{"fd":"ref:b","file_path":"b.py"}',
        status: 'done',
        result:
          '<fd_file_result fd="ref:b" file_path="/work/ws/b.py" mode="write" char_count="57" size_bytes="57" success="true"><message>Wrote.</message></fd_file_result>',
        confirmation: waiting.confirmation,
      });
      await post(page, [{ type: 'toolCall', messageId: 'a1', round: 0, call: written }]);
      assert.equal(await card('x2').locator('.tool-headline').innerText(), 'Wrote b.py, 57 bytes');
      assert.equal(await card('x2').evaluate((e) => /** @type {HTMLDetailsElement} */ (e).open), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  it('in a narrow chat a long path in a summary wraps, its link whole and inside the card', async () => {
    const { page, errors } = await open('dark', { width: 320, height: 500 });
    try {
      const label = 'workspace/src/some/deeply/nested/folder/with-a-long-file-name.py';
      const call = toolCallView({
        callId: 'w1',
        name: 'fd_to_file',
        arguments: '{}',
        status: 'done',
        result: `<fd_file_result fd="ref:a" file_path="/w/${label}" mode="write" char_count="1" size_bytes="12345" success="true"/>`,
        confirmation: {
          source: 'ref:a',
          path: label,
          mode: 'write',
          chars: 1,
          bytes: 12345,
          replacesFile: false,
          fileExists: false,
        },
      });
      await post(page, [
        initMessage([userMessage('u1', 'Save.'), answer('a1', [round('', { toolCalls: [call] })])], { models }),
      ]);
      const card = await page.locator('.tool-call').boundingBox();
      const link = await page.locator('.tool-file').boundingBox();
      assert.ok(card && link, 'both are laid out');
      assert.ok(link.width > 20 && link.x + link.width <= card.x + card.width + 0.5, JSON.stringify({ card, link }));
      assert.equal(await page.locator('.tool-headline').innerText(), `Wrote ${label}, 12,345 bytes`);
      await screenshot(page, 'tool-call-narrow-dark');
      // The keyboard reaches the link: Enter opens the file, without opening the card.
      await posted(page);
      await page.locator('.tool-file').focus();
      await page.keyboard.press('Enter');
      assert.deepEqual(await posted(page), [{ type: 'openFile', callId: 'w1' }]);
      assert.equal(await page.locator('.tool-call').evaluate((e) => /** @type {HTMLDetailsElement} */ (e).open), false);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  for (const theme of ['light', 'dark']) {
    it(`marks entity ids in code with a faint solid underline, not a spelling-error one (${theme})`, async () => {
      const { page, errors } = await open(theme, { width: 700, height: 400 });
      try {
        const text = 'The fleet:\n\n```python\nFLEET = "9-4"  # owned by player 1-3\nPLANET = "2-1"\n```\n';
        await post(page, [initMessage([userMessage('u1', 'Which fleet?'), answer('a1', [round(text)])], { models })]);
        await waitIdle(page);
        const entity = page.locator('[data-message-id="a1"] pre .fdref-entity').first();
        const style = await entity.evaluate((e) => {
          const s = getComputedStyle(e);
          return { line: s.textDecorationLine, style: s.textDecorationStyle, title: e.getAttribute('tabindex') };
        });
        assert.deepEqual(style, { line: 'underline', style: 'solid', title: '0' });
        await entity.hover();
        await screenshot(page, `entity-in-code-${theme}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});
