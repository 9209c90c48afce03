// Model text that tries to run script or load remote content, in the real page with its CSP: none of it may.
import assert from 'node:assert/strict';
import { answer, initMessage, round, userMessage } from './support/chatMessages.mjs';
import { openPage, post, useChatPage, waitIdle } from './support/chatPage.mjs';

describe('webview safety', function () {
  this.timeout(60_000);
  const chat = useChatPage();
  /** @type {{ pwned: unknown, scripts: number, images: (string | null)[], hrefs: (string | null)[], url: string }} */
  let report;
  /** @type {string[]} */
  let errors;

  before(async () => {
    const opened = await openPage(chat.browser, chat.origin);
    const page = opened.page;
    errors = opened.errors;
    const text = [
      '<script>window.__pwned = "script"</script>',
      '<img src=x onerror="window.__pwned = \'img\'">',
      '![remote](https://example.com/tracker.png) and ![alt text](javascript:window.__pwned="imgjs")',
      '[click me](javascript:window.__pwned="link") and [data](data:text/html,<script>window.__pwned=1</script>)',
      '<a href="javascript:window.__pwned=\'a\'">raw a</a> <iframe src="javascript:window.__pwned=\'iframe\'"></iframe>',
      '<svg onload="window.__pwned=\'svg\'"></svg> <style>body{display:none}</style> <form action="https://x"><input></form>',
      '```html\n<script>window.__pwned = "code"</script>\n```',
      '<ref id="evil">\n<img src=x onerror="window.__pwned=\'ref\'"> [x](javascript:window.__pwned="refl")\n</ref>',
    ].join('\n\n');
    const start = text.indexOf('<ref id="evil">');
    const refs = [{ id: 'evil', version: 1, start, end: text.length, lines: 1, chars: 80, nested: false }];
    await post(page, [
      initMessage([
        userMessage('u1', '<img src=x onerror="window.__pwned=\'user\'"> <script>window.__pwned="user"</script>'),
        answer('a1', [round(text, { refs })]),
      ]),
    ]);
    await waitIdle(page);
    // Click every link: none may navigate or run anything; each may only post openLink.
    for (const link of await page.$$('[data-message-id="a1"] a')) await link.click({ force: true });
    await page.waitForTimeout(200);
    report = await page.evaluate(() => ({
      pwned: window.__pwned,
      scripts: document.querySelectorAll(
        '.messages script, .messages iframe, .messages svg, .messages form, .messages style, .messages [onerror], .messages [onload]',
      ).length,
      images: [...document.querySelectorAll('.messages img')].map((img) => img.getAttribute('src')),
      hrefs: [...document.querySelectorAll('.messages a')].map((a) => a.getAttribute('href')),
      url: location.href,
    }));
    await page.close();
  });

  it('runs no script from model or user text, even when every link is clicked', () => {
    assert.equal(report.pwned, undefined);
  });

  it('renders no element that could run script or style the page', () => {
    assert.equal(report.scripts, 0);
  });

  it('loads no image', () => {
    assert.deepEqual(report.images, []);
  });

  it('keeps only http(s) and mailto links, and clicking them does not navigate', () => {
    assert.ok(
      report.hrefs.every((h) => h === null || /^(https?:|mailto:)/.test(h)),
      JSON.stringify(report.hrefs),
    );
    assert.ok(!report.url.includes('#'), report.url);
  });

  it('logs no page error', () => {
    assert.deepEqual(errors, []);
  });
});
