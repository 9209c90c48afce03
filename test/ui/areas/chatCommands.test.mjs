// Issue 14 §4: the chat's buttons as commands from the palette (Export as Markdown, Retry, Fork).
import { app } from '../app.mjs';
import { READ_FD_PROMPT, readFdChat } from '../fixtures.mjs';
import { STEP_TIMEOUT, waitUntil } from '../pages/waits.mjs';

describe('chatCommands', function () {
  before(async function () {
    await app().workbench.dismiss();
    await readFdChat(app());
  });

  it('Export Chat as Markdown from the palette opens the chat as Markdown beside the side bar chat', async function () {
    const { workbench } = app();
    await workbench.page.keyboard.press('Escape');
    await workbench.runChatCommand('FD Refs: Export Chat as Markdown');
    await workbench.editors.waitForText('## You');
  });

  it('Retry Chat from the palette answers the last prompt again, replacing its answer', async function () {
    const { workbench, modelsUrl } = app();
    const { chat } = workbench;
    const headline = chat.toolHeadline(/^Read fd:1 page 2 of \d+$/);
    const before = await headline.count();
    if (before !== 1) throw new Error(`${before} "Read fd:1 page 2" lines before the retry, not 1`);
    const log = `${modelsUrl}/__requests`;
    await fetch(log, { method: 'DELETE' });
    await workbench.runChatCommand('FD Refs: Retry Chat');
    // The endpoint is asked again: the call (step 0), then the answer to its result (step 1).
    let asked = 0;
    await waitUntil(
      async () => {
        const requests = /** @type {{ path: string, body: unknown }[]} */ (await (await fetch(log)).json());
        asked = requests.filter(
          (r) =>
            r.path.endsWith('/chat/completions') &&
            JSON.stringify(r.body).includes(READ_FD_PROMPT.replaceAll('"', '\\"')),
        ).length;
        return asked >= 2;
      },
      () => `the model endpoint was asked ${asked} time(s) after Retry Chat, not 2`,
    );
    await chat.waitForIdle();
    await chat
      .frame()
      .locator('.message-assistant', { hasText: 'Result of read_fd' })
      .last()
      .waitFor({ timeout: STEP_TIMEOUT });
    // Replaced, not added: still one answer to the prompt.
    const after = await headline.count();
    if (after !== 1) throw new Error(`${after} "Read fd:1 page 2" lines after the retry, not 1`);
    // Not checked here: that the chat then shows its end. It did in most runs, but three times of seven on 1.100.3
    // (fresh clones) it stopped 245 px short, the retried answer's result below the view; the cause is not found yet.
    // test/webview/scrolling.test.mjs checks that the page goes to the end when answers are removed to be redone.
  });

  it('Fork Chat from the palette shows the fork in the side bar chat', async function () {
    const { workbench, state } = app();
    await workbench.runChatCommand('FD Refs: Fork Chat');
    await workbench.fdrefView.waitForViewHeader('(fork)');
    state.sideBarChat = undefined; // the fork holds what the chat held, but is another chat
  });
});
