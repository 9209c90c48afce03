// Issue 14 §2-§3 (first contact, long content, tool results): a new chat's welcome, a long pasted message, finished
// tool calls in one line, ArrowUp. Its own new chat, so the other chats keep theirs.
import { app } from '../app.mjs';
import { READ_FD_PROMPT, longPaste } from '../fixtures.mjs';
import { STEP_TIMEOUT } from '../pages/waits.mjs';

describe('firstContact', function () {
  before(async function () {
    await app().workbench.dismiss();
  });

  it('a new chat shows the model, example prompts and where keys are set, with the composer focused', async function () {
    const { workbench, state } = app();
    const { chat } = workbench;
    await workbench.runCommand('FD Refs: New Chat');
    state.sideBarChat = 'new';
    const welcome = chat.frame().locator('.new-chat-welcome');
    await welcome.waitFor({ timeout: STEP_TIMEOUT });
    await chat.waitForComposerFocus();
    // On 1.139.1 the scripted VS Code model may be listed first; the tests below script the demo endpoint. The welcome
    // names the model the picker shows, and follows it.
    await chat.selectDemoModel();
    await welcome
      .locator('.welcome-model', { hasText: /demo-model · Demo \(OpenAI protocol\) \(demo\), an OpenAI-compatible/ })
      .waitFor({ timeout: STEP_TIMEOUT });
    await welcome.locator('.welcome-example').first().click();
    const composer = chat.composer();
    if (!(await composer.inputValue()).includes('notes/dates.py'))
      throw new Error('the example did not fill the composer');
    await composer.fill('');
  });

  it('a long pasted message shows a "Stored as fd:N" chip, its first lines and Show more', async function () {
    const { chat } = app().workbench;
    await chat.ask(longPaste());
    const chip = chat.frame().locator('.stored-chip', { hasText: `characters` });
    await chip.waitFor({ timeout: STEP_TIMEOUT });
    const label = (await chip.innerText()).trim();
    if (!/^Stored as fd:\d+, 52,340 characters$/.test(label)) throw new Error(`the chip says "${label}"`);
    await chat
      .frame()
      .locator('.user-more button', { hasText: 'Show more' })
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
    const lines = await chat.frame().locator('.message-user .user-line').count();
    if (lines !== 12) throw new Error(`${lines} lines shown, not the first 12`);
    // The composer sends nothing while an answer streams: the next test's prompt waits for this answer's end.
    await chat.waitForIdle();
    // For the screenshot: the view followed the answer down.
    await chip.scrollIntoViewIfNeeded();
  });

  it('finished tool calls read as one line: the file written is a link that opens it', async function () {
    const { workbench, state } = app();
    const { chat, editors } = workbench;
    await chat.ask('write notes/first-contact.py');
    const allow = chat.allowButton('ref:greeting');
    await allow.waitFor({ timeout: STEP_TIMEOUT });
    await allow.click();
    // After Browse as Files the window has several folders, and paths are shown with their folder's name.
    const headline = chat.toolHeadline(/^Wrote (workspace\/)?notes\/first-contact\.py, \d+ bytes$/);
    await headline.waitFor({ timeout: STEP_TIMEOUT });
    await chat.waitForIdle();
    await chat.ask(READ_FD_PROMPT);
    await chat.toolHeadline(/^Read fd:1 page 2 of \d+$/).waitFor({ timeout: STEP_TIMEOUT });
    state.sideBarChat = 'readFd';
    await headline.locator('.tool-file').click();
    await editors.waitForTab('first-contact.py');
    await editors.waitForText('def greeting');
  });

  it('ArrowUp in the empty composer recalls the last prompt sent', async function () {
    // The chat is in the side bar, still shown beside the file it opened.
    const composer = app().workbench.chat.composer();
    await composer.click();
    await composer.press('ArrowUp');
    const value = await composer.inputValue();
    if (value !== READ_FD_PROMPT) throw new Error(`ArrowUp gave "${value.slice(0, 80)}"`);
    await composer.fill('');
  });
});
