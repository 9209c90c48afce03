// fdref's chat in the FD Refs side bar: an answer streamed with its ref blocks, what the blocks do, a write the model
// asks for, unsafe model output, the light and dark themes.
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { app } from '../app.mjs';
import { XSS_PROMPT } from '../fixtures.mjs';
import { CHAT_TAB, GREET_PROMPT } from '../pages/chatWebview.mjs';
import { STEP_TIMEOUT, waitForFile, waitUntil } from '../pages/waits.mjs';

describe('chat', function () {
  before(async function () {
    await app().workbench.dismiss();
  });

  it('a new chat streams an answer with its ref blocks', async function () {
    const { workbench, state } = app();
    await workbench.runCommand('FD Refs: New Chat');
    state.sideBarChat = 'new';
    // The loopback endpoint scripts the answers below; once the scripted VS Code model is offered, it may be first.
    await workbench.chat.composer().waitFor({ timeout: STEP_TIMEOUT });
    await workbench.chat.selectDemoModel();
    await workbench.chat.ask(GREET_PROMPT);
    const frame = workbench.chat.refFrame('ref:greet');
    await frame.waitFor({ timeout: STEP_TIMEOUT });
    await workbench.chat.refFrame('ref:config', { finished: true }).waitFor({ timeout: STEP_TIMEOUT });
    await frame.locator('text=def greet').first().waitFor({ timeout: STEP_TIMEOUT });
    state.sideBarChat = 'greet';
    // In the FD Refs side bar's Chat view, not in an editor tab (one a fixture moved there is not this chat).
    const tabs = state.chatTab === undefined ? 0 : 1;
    if ((await workbench.editors.tab(CHAT_TAB).count()) > tabs) throw new Error('the chat opened in a tab');
    await workbench.fdrefView.waitForChatView();
  });

  // Issue 14 §1 (placement): the chat in the side bar beside what it opens.
  it('a ref opened from the side bar chat shows in the editor area beside it, adding no column', async function () {
    const { workbench } = app();
    const groups = await workbench.editors.groupCount();
    await workbench.chat.refFrame('ref:greet').locator('button[data-ref-action="open"]').first().click();
    await workbench.editors.waitForActiveTab('greet');
    const after = await workbench.editors.groupCount();
    if (after !== Math.max(groups, 1)) throw new Error(`${groups} editor group(s) became ${after}`);
    await workbench.chat.refFrame('ref:greet').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  it('Export on a ref block writes the file', async function () {
    const { workbench, server } = app();
    await workbench.chat.refFrame('ref:greet').locator('button[aria-label^="Export to File"]').first().click();
    await workbench.quickInput.waitForValueContaining('greet');
    await workbench.page.keyboard.press('Enter');
    await waitForFile(path.join(server.workspace, 'greet.py'), 'def greet');
    await workbench.notifications.waitForToast('greet.py');
  });

  it('a write the model asks for waits for Allow, then lands on disk', async function () {
    const { workbench, server } = app();
    await workbench.chat.ask('write notes/hello.py');
    const allow = workbench.chat.allowButton('ref:greeting');
    await allow.waitFor({ timeout: STEP_TIMEOUT });
    const written = path.join(server.workspace, 'notes', 'hello.py');
    if (existsSync(written)) throw new Error('the file was written before the user allowed it');
    await allow.click();
    await waitUntil(
      () => existsSync(written),
      () => `${written} was not written`,
    );
    await workbench.chat.waitForText('The write succeeded');
  });

  it('model output carrying script, event handlers and javascript: links runs nothing', async function () {
    const { workbench, page, state } = app();
    let dialogs = 0;
    /** @param {import('playwright-core').Dialog} dialog */
    const onDialog = (dialog) => {
      dialogs++;
      void dialog.dismiss();
    };
    page.on('dialog', onDialog);
    try {
      await workbench.chat.ask(XSS_PROMPT);
      await workbench.chat.refFrame('ref:xss_html', { finished: true }).waitFor({ timeout: STEP_TIMEOUT });
      if (state.sideBarChat === 'greet') state.sideBarChat = 'greet+xss';
      await page.waitForTimeout(1000); // time for anything that would run (onerror, onload) to run
      // Click every link in the answer: none may navigate or run anything.
      const links = workbench.chat.frame().locator('.message a');
      for (let i = 0; i < (await links.count()); i++)
        await links
          .nth(i)
          .click({ timeout: 500 })
          .catch(() => {});
      const found = await workbench.chat.unsafeContent();
      if (found.flag !== undefined || found.scripts > 0 || found.handlers > 0 || found.jsLinks > 0 || dialogs > 0) {
        throw new Error(`unsafe content survived: ${JSON.stringify({ ...found, dialogs })}`);
      }
    } finally {
      page.off('dialog', onDialog);
    }
  });

  it('the chat in the light theme', async function () {
    const { workbench, page } = app();
    await workbench.quickInput.setColorTheme('Light Modern');
    await workbench.chat.frame().locator('body.vscode-light').waitFor({ timeout: STEP_TIMEOUT });
    await workbench.chat.refFrame('ref:greet').first().scrollIntoViewIfNeeded();
    await page.waitForTimeout(500); // the screenshot after the test shows the theme drawn
  });

  it('the chat in the dark theme', async function () {
    const { workbench, page } = app();
    await workbench.quickInput.setColorTheme('Dark Modern');
    await workbench.chat.frame().locator('body.vscode-dark').waitFor({ timeout: STEP_TIMEOUT });
    await workbench.chat.refFrame('ref:greet').first().scrollIntoViewIfNeeded();
    await page.waitForTimeout(500); // the screenshot after the test shows the theme drawn
  });
});
