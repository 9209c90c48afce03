// Streaming must end where a fresh render of the final message starts: same segments, frames, blocks and text,
// whether the ref events come right after their text, late (after the text around them was rendered), or before it.
import assert from 'node:assert/strict';
import { answer, initMessage, random, round, streamMessages, userMessage } from './support/chatMessages.mjs';
import { openPage, post, useChatPage, waitIdle } from './support/chatPage.mjs';

const UNIT = [
  'Intro with an inline ref <ref id="inline">inline **content**</ref> in a paragraph, planet 2-1.\n\n',
  '<ref id="a">\n```ts\nconst x = 1;\n```\n</ref>\n\n',
  'Text `<ref id="literal">` in a code span, and a fence:\n\n```\n<ref id="in_fence">not a ref</ref>\n```\n\n',
  '<ref id="outer">\nOuter prose.\n\n<ref id="inner1">\n```py\nprint(1)\n```\n</ref>\n\n<ref id="bad id">invalid nested</ref>\n\n<ref id="inner2">two</ref>\n</ref>\n\n',
  '- a list\n- with <ref id="listed">a ref</ref> inside\n\n',
  '<ref id="a">\n```ts\nconst x = 2; // version 2\n```\n</ref>\nStray </ref> tag.\n\n',
  '<ref id="b1">one</ref>\n\n<ref id="b2">two</ref>\n',
].join('');

/** @typedef {Record<string, unknown>} Message */
/** @typedef {{ m: Message, after: number }} Held A ref event and the text deltas it still waits for. */

/**
 * Each ref event moves `by` text deltas later.
 * @param {Message[]} messages
 * @param {number} by
 */
function delayEvents(messages, by) {
  /** @type {Message[]} */
  const out = [];
  /** @type {Held[]} */
  const held = [];
  for (const m of messages) {
    if (m.type === 'refOpened' || m.type === 'refClosed') {
      held.push({ m, after: by });
      continue;
    }
    out.push(m);
    if (m.type === 'textDelta') {
      for (const h of held) h.after--;
      while (held.length && held[0].after <= 0) out.push(/** @type {Held} */ (held.shift()).m);
    }
  }
  for (const h of held) out.push(h.m);
  return out.sort((a, b) => Number(a.type === 'roundEnded') - Number(b.type === 'roundEnded'));
}

/**
 * Each delta's ref events come before it (an extension may post them in that order).
 * @param {Message[]} messages
 */
function eventsFirst(messages) {
  /** @type {Message[]} */
  const out = [];
  /** @type {Message | undefined} */
  let pending;
  for (const m of messages) {
    if (m.type === 'textDelta') {
      if (pending) out.push(pending);
      pending = m;
    } else if (m.type === 'refOpened' || m.type === 'refClosed') {
      out.push(m);
    } else {
      if (pending) out.push(pending);
      pending = undefined;
      out.push(m);
    }
  }
  if (pending) out.push(pending);
  return out;
}

/** The answer's rendered rounds, without what only streaming adds (Markdown chunks, highlighting state). */
function signature() {
  const shown = /** @type {Element} */ (document.querySelector('[data-message-id="a1"] .rounds'));
  const rounds = /** @type {Element} */ (shown.cloneNode(true));
  for (const chunk of rounds.querySelectorAll('.md-chunk')) chunk.replaceWith(...chunk.childNodes);
  // eslint-disable-next-line no-self-assign -- setting the text replaces the highlighting spans with their text
  for (const code of rounds.querySelectorAll('code')) code.textContent = code.textContent;
  for (const el of rounds.querySelectorAll('[data-highlight]')) el.removeAttribute('data-highlight');
  return rounds.innerHTML;
}

describe('webview streaming ends as a fresh render', function () {
  this.timeout(120_000);
  const chat = useChatPage();

  for (const [unclosed, seed] of /** @type {[unclosed: boolean, seed: number][]} */ ([
    [false, 3],
    [true, 3],
    [false, 29],
  ])) {
    describe(`an answer cut at random (seed ${seed})${unclosed ? ', an unclosed ref at the end' : ''}`, () => {
      const text = `${UNIT.repeat(30)}${unclosed ? '<ref id="unclosed">\nnever closed\n\n' : ''}END`;
      const rnd = random(seed);
      /** @type {string[]} */
      const pieces = [];
      for (let at = 0; at < text.length;) {
        const n = 1 + Math.floor(rnd() * 40);
        pieces.push(text.slice(at, at + n));
        at += n;
      }
      const { messages, refs, diagnostics } = streamMessages('a1', pieces);
      const finalMessage = answer('a1', [round(text, { refs, diagnostics })]);
      /** @type {string} */
      let expected;

      before(async () => {
        const { page } = await openPage(chat.browser, chat.origin);
        await post(page, [initMessage([userMessage('u1', 'go'), finalMessage])]);
        await waitIdle(page);
        expected = await page.evaluate(signature);
        await page.close();
      });

      const orders = {
        'with the ref events after their text': messages,
        'with the ref events late': delayEvents(messages, 25),
        'with the ref events first': eventsFirst(messages),
      };
      for (const [name, order] of Object.entries(orders)) {
        it(name, async () => {
          const { page, errors } = await openPage(chat.browser, chat.origin);
          try {
            await post(page, [
              initMessage([userMessage('u1', 'go')], { busy: true }),
              { type: 'messageAdded', message: answer('a1', [], { status: 'streaming' }) },
            ]);
            await page.evaluate(async (messages) => {
              for (let i = 0; i < messages.length; i++) {
                window.postMessage(messages[i], '*');
                // Let frames render now and then, so late events find their text already on screen.
                if (i % 40 === 39) await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
              }
            }, order);
            await post(page, [{ type: 'messageUpdated', message: finalMessage }]);
            await waitIdle(page);
            const actual = await page.evaluate(signature);
            if (actual !== expected) {
              let i = 0;
              while (i < actual.length && actual[i] === expected[i]) i++;
              assert.fail(
                `first difference at ${i}: streamed ${JSON.stringify(actual.slice(i - 80, i + 120))} vs fresh ${JSON.stringify(expected.slice(i - 80, i + 120))}`,
              );
            }
            assert.deepEqual(errors, []);
          } finally {
            await page.close();
          }
        });
      }
    });
  }
});
