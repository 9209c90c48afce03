// Issue 14 §1 (placement): the side bar chat after a reload, moved to a tab, focused again with its key.
import { app } from '../app.mjs';
import { greetChat } from '../fixtures.mjs';
import { CHAT_TAB } from '../pages/chatWebview.mjs';
import { STEP_TIMEOUT } from '../pages/waits.mjs';

describe('chatPlacement', function () {
  before(async function () {
    await app().workbench.dismiss();
    await greetChat(app(), { xss: true });
  });

  it('the side bar chat comes back with its history when the window reloads', async function () {
    const { workbench } = app();
    await workbench.reloadingAfter(() => workbench.runCommand('Developer: Reload Window'));
    await workbench.chat.refFrame('ref:greet').first().waitFor({ timeout: 30_000 });
    await workbench.chat.refFrame('ref:xss_html').first().waitFor({ timeout: STEP_TIMEOUT });
    const tabs = app().state.chatTab === undefined ? 0 : 1;
    if ((await workbench.editors.tab(CHAT_TAB).count()) > tabs) throw new Error('the chat came back in a tab');
  });

  it('Open Chat in Editor moves the side bar chat to a tab, and the view offers New Chat', async function () {
    const { workbench, state } = app();
    await workbench.runCommand('FD Refs: Open Chat in Editor');
    await workbench.page.locator('.part.editor .tab.active', { hasText: CHAT_TAB }).first().waitFor({
      timeout: STEP_TIMEOUT,
    });
    state.chatTab = state.sideBarChat;
    state.sideBarChat = 'new';
    await workbench.chat.someFrameShows('section.ref-frame[aria-label="ref:greet"]');
    await workbench.chat.someFrameShows('a.button[href="command:fdref.newChat"]');
    if ((await workbench.editors.groupCount()) !== 1) throw new Error('the chat tab opened in a new column');
  });

  it('Ctrl+Alt+; shows the side bar chat again and puts the focus in it', async function () {
    const { workbench, page } = app();
    await workbench.runCommand('View: Show Explorer');
    await workbench.fdrefView.waitForChatView(false);
    await page.keyboard.press('Control+Alt+;');
    await workbench.fdrefView.waitForChatView();
    // The focus is in a webview, the view's: it was in the Explorer before the key.
    await page.waitForFunction(() => document.activeElement?.matches('iframe.webview') === true, null, {
      timeout: STEP_TIMEOUT,
    });
    // Its new chat has loaded beside the chat tab: two composers.
    await workbench.chat.someFrameShows('textarea.composer-input', 2);
  });
});
