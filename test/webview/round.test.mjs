// RoundComponent (src/webview/round.ts), the webview's riskiest logic, on its own in Chromium: streamed text and
// ref events become Markdown and ref frames, whatever order and cuts they come in, and end as a fresh render would.
/* global rounds -- the harness PAGE_HELPERS defines in the page */
import assert from 'node:assert/strict';
import { browserBundle, launchChromium, STUB } from './support/chatPage.mjs';

/** Runs in the page: builds rounds, waits for their rendering, and describes what they show. */
const PAGE_HELPERS = `
window.rounds = {
  /** A RefView for the ref with \`id\` in \`text\` (its first opening tag to the matching close). */
  ref(text, id, { version = 1, nested = false, occurrence = 0 } = {}) {
    let start = -1;
    for (let k = 0; k <= occurrence; k++) start = text.indexOf('<ref id="' + id + '">', start + 1);
    let depth = 0;
    let end = -1;
    for (let i = start; i < text.length; i++) {
      if (text.startsWith('<ref id=', i)) depth++;
      if (text.startsWith('</ref>', i) && --depth === 0) { end = i + 6; break; }
    }
    const open = text.indexOf('>', start) + 1;
    const content = text.slice(open, end - 6);
    return { id, version, start, end, lines: content.split('\\n').length, chars: content.length, nested };
  },
  make(view, streaming) {
    const round = new fdrefRound.RoundComponent(view, streaming);
    document.body.append(round.element);
    return round;
  },
  idle() {
    return new Promise((resolve) => {
      const check = () => (fdrefRound.scheduler.idle ? resolve() : requestAnimationFrame(check));
      requestAnimationFrame(check);
    });
  },
  /** Text as shown, white space collapsed (rendered Markdown ends its blocks with line breaks). */
  shown: (el) => el.textContent.replace(/\\s+/g, ' ').trim(),
  async shape(round) {
    await this.idle();
    const text = round.element.querySelector('.round-text');
    const diagnostics = round.element.querySelector('.diagnostics');
    return {
      parts: [...text.children].map((el) =>
        el.classList.contains('ref-frame')
          ? {
              frame: el.getAttribute('aria-label'),
              writing: el.classList.contains('is-writing'),
              body: this.shown(el.querySelector('.ref-body')),
              meta: el.querySelector('.ref-meta')?.textContent ?? '',
              nested: [...el.querySelectorAll('.chip-main')].map((b) => b.textContent),
            }
          : { markdown: this.shown(el) },
      ),
      diagnostics: diagnostics.hidden ? [] : [...diagnostics.children].map((li) => li.textContent),
      tools: [...round.element.querySelectorAll('.tool-call')].map((d) => d.querySelector('.tool-name').textContent + ': ' + d.querySelector('.tool-state').textContent),
      text: round.text(),
      streaming: round.isStreaming,
    };
  },
  /** How a fresh round shows \`view\` (a message loaded whole). */
  async fresh(view) {
    const round = this.make(view, false);
    const shape = await this.shape(round);
    round.dispose();
    round.element.remove();
    return shape;
  },
  rebuilds: () => window.__fdrefPerf.rebuilds ?? 0,
};
`;

describe('webview: RoundComponent (round.ts)', function () {
  this.timeout(60_000);
  /** @type {import('playwright-core').Browser | undefined} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let errors;

  before(async () => {
    const bundle = await browserBundle({
      contents:
        "export { RoundComponent } from './src/webview/round';\nexport { scheduler } from './src/webview/context';\n",
      globalName: 'fdrefRound',
    });
    browser = await launchChromium();
    page = await browser.newPage();
    errors = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    await page.setContent('<!doctype html><html><body></body></html>');
    await page.addScriptTag({ content: STUB });
    await page.addScriptTag({ content: bundle });
    await page.addScriptTag({ content: PAGE_HELPERS });
  });

  beforeEach(() => page.evaluate(() => document.body.replaceChildren()));

  afterEach(() => assert.deepEqual(errors.splice(0), [], 'no page error'));

  after(() => browser?.close());

  describe('streaming', () => {
    it('shows text as it arrives, keeps the raw text, and stays open until the round ends', async () => {
      const shape = await page.evaluate(async () => {
        const round = rounds.make(undefined, true);
        for (const delta of ['# Pl', 'an\n\nFirst **bo', 'ld** step', '', '.\n']) round.appendText(delta);
        const during = await rounds.shape(round);
        round.end([], []);
        return { during, after: await rounds.shape(round) };
      });
      assert.deepEqual(shape.during.parts, [{ markdown: 'Plan First bold step.' }]);
      assert.equal(shape.during.text, '# Plan\n\nFirst **bold** step.\n');
      assert.equal(shape.during.streaming, true);
      assert.equal(shape.after.streaming, false);
      assert.deepEqual(shape.after.parts, shape.during.parts);
    });

    it('grows by the new text only when a streaming update extends it, and starts over when it does not', async () => {
      const result = await page.evaluate(async () => {
        const round = rounds.make({ text: 'Hello', refs: [], diagnostics: [], toolCalls: [] }, true);
        const first = round.element.querySelector('.markdown');
        round.update({ text: 'Hello there', refs: [], diagnostics: [], toolCalls: [] }, true);
        const kept = round.element.querySelector('.markdown') === first;
        const extended = await rounds.shape(round);
        round.update({ text: 'Other', refs: [], diagnostics: [], toolCalls: [] }, true);
        const replaced = round.element.querySelector('.markdown') !== first;
        return { kept, extended, replaced, restarted: await rounds.shape(round) };
      });
      assert.ok(result.kept, 'the Markdown element was kept');
      assert.equal(result.extended.text, 'Hello there');
      assert.ok(result.replaced, 'the Markdown was rendered anew');
      assert.deepEqual(result.restarted.parts, [{ markdown: 'Other' }]);
      assert.equal(result.restarted.streaming, true);
    });
  });

  describe('ref frames', () => {
    it('cuts the text at the ref events into Markdown, a frame being written, then the frame registered', async () => {
      const result = await page.evaluate(async () => {
        const text = 'Before.\n\n<ref id="a">\n```ts\nconst x = 1;\n```\n</ref>\n\nAfter.\n';
        const ref = rounds.ref(text, 'a');
        const round = rounds.make(undefined, true);
        round.appendText(text.slice(0, ref.start + 20));
        round.refOpened(0, 'a', ref.start);
        const open = await rounds.shape(round);
        round.appendText(text.slice(ref.start + 20));
        round.refClosed(0, ref.end - 6, { ...ref, language: 'ts' });
        const closed = await rounds.shape(round);
        round.end([{ ...ref, language: 'ts' }], []);
        const ended = await rounds.shape(round);
        return {
          open,
          closed,
          ended,
          fresh: await rounds.fresh({ text, refs: [{ ...ref, language: 'ts' }], diagnostics: [], toolCalls: [] }),
          rebuilds: rounds.rebuilds(),
        };
      });
      assert.deepEqual(
        result.open.parts.map((p) => p.markdown ?? `${p.frame}${p.writing ? ' writing' : ''}`),
        ['Before.', 'ref:a writing'],
      );
      assert.deepEqual(
        result.closed.parts.map((p) => p.markdown ?? `${p.frame}${p.writing ? ' writing' : ''}`),
        ['Before.', 'ref:a', 'After.'],
      );
      assert.match(result.closed.parts[1].body, /const x = 1;/);
      assert.doesNotMatch(result.closed.parts[1].body, /ref id|<\/ref>/);
      assert.equal(result.closed.parts[1].meta, 'ts · 5 lines · 24 chars', 'the header shows the registered ref');
      assert.deepEqual(result.ended.parts, result.fresh.parts);
    });

    it('cuts nested tags out of the open frame and lists the nested refs as chips, as a fresh render does', async () => {
      const result = await page.evaluate(async () => {
        const text = '<ref id="outer">\nOuter prose.\n\n<ref id="inner">two</ref>\n\nMore.\n</ref>\n';
        const outer = rounds.ref(text, 'outer');
        const inner = rounds.ref(text, 'inner', { nested: true });
        const before = rounds.rebuilds();
        const round = rounds.make(undefined, true);
        round.appendText(text);
        round.refOpened(0, 'outer', outer.start);
        round.refOpened(1, 'inner', inner.start);
        round.refClosed(1, inner.end - 6, inner);
        round.refClosed(0, outer.end - 6, outer);
        round.end([outer, inner], []);
        const ended = await rounds.shape(round);
        return {
          ended,
          fresh: await rounds.fresh({ text, refs: [outer, inner], diagnostics: [], toolCalls: [] }),
          rebuilt: rounds.rebuilds() - before,
        };
      });
      assert.equal(result.ended.parts.length, 1);
      assert.deepEqual(result.ended.parts[0].nested, ['ref:inner']);
      assert.doesNotMatch(result.ended.parts[0].body, /<ref|<\/ref>/);
      assert.match(result.ended.parts[0].body, /Outer prose\.\s*two\s*More\./);
      assert.deepEqual(result.ended.parts, result.fresh.parts);
      assert.equal(result.rebuilt, 0, 'what streaming built was kept');
    });

    it('leaves an invalid tag and a stray closing tag as text', async () => {
      const parts = await page.evaluate(async () => {
        const text = 'A <ref id="bad id">x</ref> and a stray </ref> here.';
        const round = rounds.make(undefined, true);
        round.appendText(text);
        round.refOpened(0, undefined, text.indexOf('<ref'));
        round.refClosed(0, text.indexOf('</ref>'), undefined);
        round.refClosed(1, text.lastIndexOf('</ref>'), undefined);
        return (await rounds.shape(round)).parts;
      });
      assert.deepEqual(parts, [{ markdown: 'A <ref id="bad id">x</ref> and a stray </ref> here.' }]);
    });
  });

  describe('cut content', () => {
    it('waits for a tag cut between deltas, and for text that arrives after its event', async () => {
      const result = await page.evaluate(async () => {
        const text = 'Hi <ref id="a">body</ref> end';
        const ref = rounds.ref(text, 'a');
        const round = rounds.make(undefined, true);
        round.appendText('Hi <ref i'); // the tag's ">" has not arrived
        round.refOpened(0, 'a', ref.start);
        const cutTag = await rounds.shape(round);
        round.refClosed(0, ref.end - 6, ref); // its text has not arrived at all
        round.appendText('d="a">bo');
        const opened = await rounds.shape(round);
        round.appendText('dy</ref> end');
        const closed = await rounds.shape(round);
        round.end([ref], []);
        return {
          cutTag,
          opened,
          closed,
          ended: await rounds.shape(round),
          fresh: await rounds.fresh({ text, refs: [ref], diagnostics: [], toolCalls: [] }),
        };
      });
      assert.deepEqual(result.cutTag.parts, [{ markdown: 'Hi <ref i' }], 'the half tag stays text meanwhile');
      assert.deepEqual(
        result.opened.parts.map((p) => p.markdown ?? p.frame),
        ['Hi', 'ref:a'],
      );
      assert.equal(result.opened.parts[1].body, 'bo');
      assert.equal(result.opened.parts[1].writing, true);
      assert.deepEqual(
        result.closed.parts.map((p) => p.markdown ?? p.frame),
        ['Hi', 'ref:a', 'end'],
      );
      assert.equal(result.closed.parts[1].writing, false);
      assert.deepEqual(result.ended.parts, result.fresh.parts);
    });

    it('renders again from the whole text when the final refs differ from what streaming built (a ref left open)', async () => {
      const result = await page.evaluate(async () => {
        const text = 'Start.\n\n<ref id="open">\nnever closed\n';
        const before = rounds.rebuilds();
        const round = rounds.make(undefined, true);
        round.appendText(text);
        round.refOpened(0, 'open', text.indexOf('<ref'));
        const streaming = await rounds.shape(round);
        round.end([], [{ message: 'ref "open" was never closed', offset: text.indexOf('<ref') }]);
        const ended = await rounds.shape(round);
        return {
          streaming,
          ended,
          rebuilt: rounds.rebuilds() - before,
          fresh: await rounds.fresh({
            text,
            refs: [],
            diagnostics: [{ message: 'ref "open" was never closed', offset: 8 }],
            toolCalls: [],
          }),
        };
      });
      assert.equal(result.streaming.parts[1].frame, 'ref:open');
      assert.equal(result.rebuilt, 1);
      assert.deepEqual(result.ended.parts, result.fresh.parts);
      assert.equal(
        result.ended.parts.some((p) => p.frame),
        false,
      );
      assert.equal(result.ended.streaming, false);
    });

    it('leaves out Markdown that is only whitespace between frames, as a fresh render does', async () => {
      const result = await page.evaluate(async () => {
        const text = '<ref id="a">one</ref>\n\n<ref id="b">two</ref>\n';
        const a = rounds.ref(text, 'a');
        const b = rounds.ref(text, 'b');
        const round = rounds.make(undefined, true);
        round.appendText(text);
        round.refOpened(0, 'a', a.start);
        round.refClosed(0, a.end - 6, a);
        round.refOpened(1, 'b', b.start);
        round.refClosed(1, b.end - 6, b);
        round.end([a, b], []);
        return {
          ended: await rounds.shape(round),
          fresh: await rounds.fresh({ text, refs: [a, b], diagnostics: [], toolCalls: [] }),
        };
      });
      assert.deepEqual(
        result.ended.parts.map((p) => p.markdown ?? p.frame),
        ['ref:a', 'ref:b'],
      );
      assert.deepEqual(result.ended.parts, result.fresh.parts);
    });
  });

  describe('errors', () => {
    it('shows the diagnostics the round ends with, and hides the list when there are none', async () => {
      const result = await page.evaluate(async () => {
        const round = rounds.make(undefined, true);
        round.appendText('<ref id="bad id">x</ref>');
        round.end([], [{ message: 'Unquoted or invalid ref id "bad id" is not registered', offset: 0 }]);
        const shown = await rounds.shape(round);
        round.update({ text: '<ref id="bad id">x</ref>', refs: [], diagnostics: [], toolCalls: [] }, false);
        return { shown, cleared: await rounds.shape(round) };
      });
      assert.deepEqual(result.shown.diagnostics, ['Unquoted or invalid ref id "bad id" is not registered']);
      assert.deepEqual(result.cleared.diagnostics, []);
    });

    it('shows a failed tool call as failed', async () => {
      const tools = await page.evaluate(async () => {
        const round = rounds.make(undefined, true);
        round.toolCall({ callId: 'c1', name: 'get_ref', arguments: '{"ref":"ref:nope"}', status: 'running' });
        round.toolCall({
          callId: 'c1',
          name: 'get_ref',
          arguments: '{"ref":"ref:nope"}',
          status: 'error',
          result: '<fd_error type="not_found">ref:nope does not exist</fd_error>',
        });
        return (await rounds.shape(round)).tools;
      });
      assert.deepEqual(tools, ['get_ref: failed']);
    });
  });

  describe('tool calls', () => {
    it('adds a card per call, updates it in place, and follows the calls of a whole-state update', async () => {
      const result = await page.evaluate(async () => {
        const round = rounds.make(undefined, true);
        /** @type {(callId: string, name: string, status: import('../../src/core/chat/protocol.js').ToolCallView['status']) => import('../../src/core/chat/protocol.js').ToolCallView} */
        const call = (callId, name, status) => ({
          callId,
          name,
          arguments: '{}',
          status,
          ...(status === 'done' ? { result: 'ok' } : {}),
        });
        round.toolCall(call('c1', 'read_fd', 'running'));
        round.toolCall(call('c2', 'list_refs', 'running'));
        const card = round.element.querySelector('.tool-call');
        round.toolCall(call('c1', 'read_fd', 'done'));
        const sameCard = round.element.querySelector('.tool-call') === card;
        const streamed = await rounds.shape(round);
        round.update(
          {
            text: '',
            refs: [],
            diagnostics: [],
            toolCalls: [call('c2', 'list_refs', 'done'), call('c3', 'get_ref', 'done')],
          },
          false,
        );
        return { sameCard, streamed, updated: await rounds.shape(round) };
      });
      assert.ok(result.sameCard);
      assert.equal(result.streamed.tools.length, 2);
      assert.deepEqual(
        result.updated.tools.map((t) => t.split(':')[0]),
        ['list_refs', 'get_ref'],
      );
    });
  });

  describe('retry', () => {
    it('replaces a finished round with the retried answer and streams it like a new one', async () => {
      const result = await page.evaluate(async () => {
        const first = 'First try <ref id="a">one</ref>';
        const a = rounds.ref(first, 'a');
        const round = rounds.make({ text: first, refs: [a], diagnostics: [], toolCalls: [] }, false);
        const loaded = await rounds.shape(round);
        // The answer is retried: the extension sends it again from the start, empty and streaming.
        round.update({ text: '', refs: [], diagnostics: [], toolCalls: [] }, true);
        const text = 'Second <ref id="b">two</ref>';
        const b = rounds.ref(text, 'b');
        round.appendText(text);
        round.refOpened(0, 'b', b.start);
        round.refClosed(0, b.end - 6, b);
        round.end([b], []);
        return {
          loaded,
          retried: await rounds.shape(round),
          fresh: await rounds.fresh({ text, refs: [b], diagnostics: [], toolCalls: [] }),
        };
      });
      assert.deepEqual(
        result.loaded.parts.map((p) => p.markdown ?? p.frame),
        ['First try', 'ref:a'],
      );
      assert.deepEqual(result.retried.parts, result.fresh.parts);
      assert.equal(result.retried.text, 'Second <ref id="b">two</ref>');
    });

    it('keeps what is on screen when the final update holds the same text and refs', async () => {
      const result = await page.evaluate(async () => {
        const text = 'Done <ref id="a">one</ref>';
        const a = rounds.ref(text, 'a');
        const round = rounds.make({ text, refs: [a], diagnostics: [], toolCalls: [] }, false);
        const frame = round.element.querySelector('.ref-frame');
        const before = rounds.rebuilds();
        round.update({ text, refs: [a], diagnostics: [], toolCalls: [] }, false);
        return { kept: round.element.querySelector('.ref-frame') === frame, rebuilt: rounds.rebuilds() - before };
      });
      assert.ok(result.kept);
      assert.equal(result.rebuilt, 0);
    });
  });
});
