// Clicks and keys in the chat post what the protocol says, in order, on one page (later steps build on earlier ones).
import assert from 'node:assert/strict';
import { demoChat, initMessage } from './support/chatMessages.mjs';
import { openPage, post, useChatPage, waitIdle } from './support/chatPage.mjs';

describe('webview interactions: what each click or key posts', function () {
  this.timeout(60_000);
  const chat = useChatPage();
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let errors;

  before(async () => {
    ({ page, errors } = await openPage(chat.browser, chat.origin, 'dark', { width: 900, height: 900 }));
    const models = [
      { key: 'endpoint:Ollama/llama3.1', label: 'llama3.1', provider: 'openai' },
      { key: 'vscode-lm:copilot/gpt-4o', label: 'GPT-4o', provider: 'vscode-lm' },
    ];
    await post(page, [initMessage(demoChat(), { trusted: false, models })]);
    await waitIdle(page);
  });

  after(() => page?.close());

  const posted = () => page.evaluate(() => window.__posted.splice(0).filter((m) => m.type !== 'ready'));
  /**
   * What `action` posts, and nothing else.
   * @param {() => Promise<unknown>} action
   */
  const postsOf = async (action) => {
    await posted();
    await action();
    await page.waitForTimeout(50);
    return posted();
  };
  const click = (/** @type {string} */ selector) => async () => {
    await page.evaluate(
      (sel) => /** @type {Element} */ (document.querySelector(sel)).scrollIntoView({ block: 'center' }),
      selector,
    );
    await page.click(selector, { force: true });
  };
  const frame = '[data-message-id="a1"] .ref-frame';
  const composer = '.composer-input';
  const code =
    'import json\n\ndef parse_config(path: str) -> dict:\n    """Read the config; fleet 9-4 is the default."""\n    with open(path) as f:\n        return json.load(f)\n';

  it('ref Open', async () => {
    assert.deepEqual(await postsOf(click(`${frame} button[data-ref-action="open"]`)), [
      { type: 'refAction', action: 'open', ref: 'ref:parse_config@2' },
    ]);
  });

  it('ref Insert', async () => {
    assert.deepEqual(await postsOf(click(`${frame} button[data-ref-action="insertAtCursor"]`)), [
      { type: 'refAction', action: 'insertAtCursor', ref: 'ref:parse_config@2' },
    ]);
  });

  it('ref Apply to Symbol', async () => {
    assert.deepEqual(await postsOf(click(`${frame} button[data-ref-action="applyToSymbol"]`)), [
      { type: 'refAction', action: 'applyToSymbol', ref: 'ref:parse_config@2' },
    ]);
  });

  it('ref version badge', async () => {
    assert.deepEqual(await postsOf(click(`${frame} .ref-version`)), [
      { type: 'refAction', action: 'compare', ref: 'ref:parse_config@2' },
    ]);
  });

  it('ref Export while untrusted', async () => {
    assert.deepEqual(await postsOf(click(`${frame} button[data-ref-action="export"]`)), []);
  });

  it('ref Export when trusted', async () => {
    await post(page, [{ type: 'trust', trusted: true }]);
    assert.deepEqual(await postsOf(click(`${frame} button[data-ref-action="export"]`)), [
      { type: 'refAction', action: 'export', ref: 'ref:parse_config@2' },
    ]);
  });

  it('nested chip', async () => {
    assert.deepEqual(await postsOf(click('.chip-main')), [{ type: 'refAction', action: 'open', ref: 'ref:helper@1' }]);
  });

  it('nested chip menu, by keyboard', async () => {
    const got = await postsOf(async () => {
      await click('.chip-menu')();
      await page.keyboard.press('ArrowDown');
      await page.keyboard.press('Enter');
    });
    assert.deepEqual(got, [{ type: 'refAction', action: 'copy', ref: 'ref:helper@1' }]);
  });

  it('code Copy', async () => {
    assert.deepEqual(await postsOf(click(`${frame} .code-copy`)), [{ type: 'copyText', text: code }]);
  });

  it('descriptor chip', async () => {
    assert.deepEqual(await postsOf(click('[data-message-id="u1"] .descriptor-chip')), [
      { type: 'openDescriptor', descriptor: 'fd:1' },
    ]);
  });

  it('Allow', async () => {
    assert.deepEqual(await postsOf(click('.confirm-buttons .primary')), [
      { type: 'confirm', callId: 'c4', allow: true },
    ]);
  });

  it('Allow twice', async () => {
    assert.deepEqual(await postsOf(click('.confirm-buttons .primary')), []);
  });

  const commandCall = {
    callId: 'c9',
    name: 'run_command',
    arguments: '{"command":"seq 1 100000 | grep 7","timeout_s":30}',
    status: 'awaitingConfirmation',
    confirmation: { kind: 'command', command: 'seq 1 100000 | grep 7', cwd: '/work/project', timeoutS: 30 },
  };
  const commandCard = '[data-message-id="a1"] .tool-call.status-awaitingConfirmation';

  it('a command waiting for the user shows its command line, folder and time limit, and Deny posts the answer', async () => {
    const written = {
      callId: 'c4',
      name: 'fd_to_file',
      arguments: '{"fd":"ref:parse_config","file_path":"src/config.py","mode":"write"}',
      status: 'done',
    };
    await post(page, [
      { type: 'toolCall', messageId: 'a1', round: 0, call: written },
      { type: 'toolCall', messageId: 'a1', round: 0, call: commandCall },
    ]);
    await waitIdle(page);
    const card = await page.evaluate((sel) => {
      const element = document.querySelector(sel);
      return {
        summary: element?.querySelector('.tool-args-summary')?.textContent,
        command: element?.querySelector('.confirm-command')?.textContent,
        facts: element?.querySelector('.confirm-facts')?.textContent,
        open: element instanceof HTMLDetailsElement && element.open,
      };
    }, commandCard);
    assert.deepEqual(card, {
      summary: '$ seq 1 100000 | grep 7',
      command: 'seq 1 100000 | grep 7',
      facts: 'Folder/work/projectTime limit30 s (then it and every process it started are ended)',
      open: true,
    });
    assert.deepEqual(await postsOf(click(`${commandCard} .confirm-buttons .secondary`)), [
      { type: 'confirm', callId: 'c9', allow: false },
    ]);
  });

  it('a finished command shows its exit code and descriptor in its summary line', async () => {
    const done = {
      ...commandCall,
      status: 'done',
      summary: 'exit code 0 · 40,951 chars in fd:7',
      descriptor: 'fd:7',
      result: '<command_result exit_code="0" fd="fd:7"></command_result>',
    };
    await post(page, [{ type: 'toolCall', messageId: 'a1', round: 0, call: done }]);
    await waitIdle(page);
    const shown = await page.evaluate(() => {
      const element = [...document.querySelectorAll('.tool-call')].find((e) =>
        e.querySelector('.tool-args-summary')?.textContent?.startsWith('$ seq'),
      );
      return {
        state: element?.querySelector('.tool-state')?.textContent,
        outcome: element?.querySelector('.confirm-outcome')?.textContent,
        chip: element?.querySelector('.tool-descriptor')?.textContent?.includes('fd:7'),
      };
    });
    assert.deepEqual(shown, { state: 'exit code 0 · 40,951 chars in fd:7', outcome: 'Allowed and run.', chip: true });
  });

  it("another extension's tool waiting for the user shows its name, description and input; Allow posts the answer", async () => {
    const call = {
      callId: 'c10',
      name: 'mcp_github_search',
      arguments: '{"query":"fdref"}',
      status: 'awaitingConfirmation',
      confirmation: {
        kind: 'tool',
        tool: 'mcp_github_search',
        description: 'Search GitHub.',
        input: '{\n  "query": "fdref"\n}',
      },
    };
    await post(page, [{ type: 'toolCall', messageId: 'a1', round: 0, call }]);
    await waitIdle(page);
    const text = await page.evaluate(
      (sel) => document.querySelector(sel)?.querySelector('.confirm-card')?.textContent,
      commandCard,
    );
    assert.match(
      text ?? '',
      /call mcp_github_search, a tool of another extension or MCP server:Search GitHub\.\{\s+"query": "fdref"\s+\}/,
    );
    assert.deepEqual(await postsOf(click(`${commandCard} .confirm-buttons .primary`)), [
      { type: 'confirm', callId: 'c10', allow: true },
    ]);
  });

  it('a call left unanswered says it did not run, not that it was allowed', async () => {
    const call = {
      callId: 'c11',
      name: 'run_command',
      arguments: '{"command":"make"}',
      status: 'error',
      unanswered: true,
      result: '<fd_error type="permission_denied">The user stopped the answer before this call finished.</fd_error>',
      confirmation: { kind: 'command', command: 'make', cwd: '/work/project', timeoutS: 120 },
    };
    await post(page, [{ type: 'toolCall', messageId: 'a1', round: 0, call }]);
    await waitIdle(page);
    const outcome = await page.evaluate(() => {
      const element = [...document.querySelectorAll('.tool-call')].find(
        (e) => e.querySelector('.tool-args-summary')?.textContent === '$ make',
      );
      return element?.querySelector('.confirm-outcome')?.textContent;
    });
    assert.equal(outcome, 'Not answered (the answer was stopped or the chat closed), so this did not run.');
  });

  it('the tools button', async () => {
    assert.deepEqual(await postsOf(click('.chat-header button[aria-label^="Choose the tools"]')), [
      { type: 'command', command: 'chooseTools' },
    ]);
  });

  it('error action', async () => {
    assert.deepEqual(await postsOf(click('.error-box button')), [{ type: 'command', command: 'setApiKey' }]);
  });

  it('error Retry posts what the Retry button posts', async () => {
    const failed = demoChat().find((m) => m.id === 'a2');
    await post(page, [
      {
        type: 'messageUpdated',
        message: { ...failed, error: { message: 'The endpoint is overloaded right now.', action: 'retry' } },
      },
    ]);
    assert.deepEqual(await postsOf(click('[data-message-id="a2"] .error-box button')), [{ type: 'retry' }]);
  });

  it('link', async () => {
    assert.deepEqual(await postsOf(click('[data-message-id="a1"] .ref-frame a')), [
      { type: 'openLink', href: 'https://example.com/docs' },
    ]);
  });

  it('fork', async () => {
    assert.deepEqual(await postsOf(click('[data-message-id="u2"] button[aria-label^="Fork"]')), [
      { type: 'fork', messageId: 'u2' },
    ]);
  });

  it('retry on the last answer', async () => {
    assert.deepEqual(await postsOf(click('[data-message-id="a3"] .retry')), [{ type: 'retry' }]);
  });

  it('model picker', async () => {
    assert.deepEqual(await postsOf(() => page.selectOption('.model-picker', 'vscode-lm:copilot/gpt-4o')), [
      { type: 'selectModel', key: 'vscode-lm:copilot/gpt-4o' },
    ]);
  });

  it('export', async () => {
    assert.deepEqual(await postsOf(click('button[aria-label="Export as Markdown"]')), [{ type: 'exportMarkdown' }]);
  });

  it('edit and resend', async () => {
    const got = await postsOf(async () => {
      await click('[data-message-id="u2"] button[aria-label="Edit and resend"]')();
      await page.keyboard.press('End');
      await page.keyboard.type(' please');
      await page.keyboard.press('Enter');
    });
    assert.deepEqual(got, [{ type: 'editResend', messageId: 'u2', text: 'Try the other endpoint. please' }]);
  });

  it('edit cancelled', async () => {
    const got = await postsOf(async () => {
      await click('[data-message-id="u3"] button[aria-label="Edit and resend"]')();
      await page.keyboard.type('x');
      await page.keyboard.press('Escape');
    });
    assert.deepEqual(got, []);
  });

  it('send with Enter, Shift+Enter is a new line', async () => {
    const got = await postsOf(async () => {
      await page.click(composer);
      await page.keyboard.type('first line');
      await page.keyboard.press('Shift+Enter');
      await page.keyboard.type('second');
      await page.keyboard.press('Enter');
    });
    assert.deepEqual(
      got.filter((m) => m.type !== 'draft'),
      [{ type: 'send', text: 'first line\nsecond' }],
    );
    assert.deepEqual(got.at(-1), { type: 'draft', chatId: 'bench', text: '' }, 'the draft is gone once sent');
  });

  it('empty does not send', async () => {
    const got = await postsOf(async () => {
      await page.click(composer);
      await page.keyboard.press('Enter');
    });
    assert.deepEqual(got, []);
  });

  it('Stop button while busy', async () => {
    await post(page, [{ type: 'busy', busy: true }]);
    assert.deepEqual(await postsOf(click('.composer-action')), [{ type: 'stop' }]);
  });

  it('Escape stops while busy', async () => {
    const got = await postsOf(async () => {
      await page.click(composer);
      await page.keyboard.press('Escape');
    });
    assert.deepEqual(got, [{ type: 'stop' }]);
  });

  it('welcome buttons', async () => {
    await post(page, [{ type: 'busy', busy: false }, initMessage([], { welcome: true, models: [] })]);
    const got = await postsOf(async () => {
      await click('.welcome .primary')();
      await click('.welcome .secondary')();
    });
    assert.deepEqual(got, [
      { type: 'command', command: 'openSettings' },
      { type: 'command', command: 'setApiKey' },
    ]);
  });

  it('logs no page error', () => {
    assert.deepEqual(errors, []);
  });
});
