// What an area needs before its tests, made as a person would and only when the window does not hold it yet
// (app().state says what it holds): each area can run alone or after any other, and an area that fails does not
// take the next one's state with it.
import { CHAT_TAB, GREET_PROMPT } from './pages/chatWebview.mjs';
import { STEP_TIMEOUT } from './pages/waits.mjs';

/** @typedef {import('./app.mjs').App} App */

/** The prompt of the loopback endpoint's answer that carries script, event handlers and javascript: links. */
export const XSS_PROMPT = 'xss';

/** The prompt of the loopback endpoint's read_fd call, page 2 of fd:1. */
export const READ_FD_PROMPT = 'call read_fd {"fd":"fd:1","start":2}';

/**
 * A pasted message long enough to be stored as a descriptor: 52,340 characters of log lines.
 * @returns {string}
 */
export function longPaste() {
  const line = (/** @type {number} */ i) =>
    `2026-11-24 12:00:${String(i % 60).padStart(2, '0')} INFO worker-${i % 7} batch ${i} done\n`;
  let text = '';
  for (let i = 1; text.length < 52_340; i++) text += line(i);
  return text.slice(0, 52_339) + '\n';
}

/**
 * Captures the refs of chat-transcript.md with Capture Refs from Selection (ref:parse_config, ref:test_parse_config),
 * and waits for the report.
 * @param {App} app
 */
export async function captureTranscript(app) {
  const { workbench } = app;
  await workbench.quickInput.quickOpen('chat-transcript.md');
  await workbench.editors.selectAll();
  await workbench.runCommand('FD Refs: Capture Refs from Selection');
  await workbench.notifications.waitForToast('2 refs');
  app.state.capturedRefs = true;
}

/**
 * The refs of chat-transcript.md are captured.
 * @param {App} app
 */
export async function capturedRefs(app) {
  if (!app.state.capturedRefs) await captureTranscript(app);
}

/**
 * A new chat in the side bar, on the loopback endpoint, asked GREET_PROMPT: its answer has ref:greet and ref:config.
 * @param {App} app
 */
async function newGreetChat(app) {
  const { workbench } = app;
  await workbench.dismiss();
  await workbench.runCommand('FD Refs: New Chat');
  await workbench.chat.composer().waitFor({ timeout: STEP_TIMEOUT });
  await workbench.chat.selectDemoModel();
  await workbench.chat.ask(GREET_PROMPT);
  await workbench.chat.refFrame('ref:config', { finished: true }).waitFor({ timeout: STEP_TIMEOUT });
  await workbench.chat.waitForIdle();
  app.state.sideBarChat = 'greet';
}

/**
 * Shows the side bar's chat again when it holds what is wanted (another area may have shown another view).
 * @param {App} app
 */
async function showSideBarChat(app) {
  if (await app.workbench.fdrefView.chatHeader.isVisible()) return;
  await app.workbench.dismiss();
  await app.workbench.runCommand('FD Refs: Focus Chat');
  await app.workbench.fdrefView.waitForChatView();
}

/**
 * The side bar's chat holds the answer with ref:greet and, with `xss`, the unsafe answer after it.
 * @param {App} app
 * @param {{ xss?: boolean }} [options]
 */
export async function greetChat(app, { xss = false } = {}) {
  const held = app.state.sideBarChat;
  if (held === 'greet+xss' || (held === 'greet' && !xss)) return showSideBarChat(app);
  if (held !== 'greet') await newGreetChat(app);
  else await showSideBarChat(app);
  if (!xss) return;
  await app.workbench.chat.ask(XSS_PROMPT);
  await app.workbench.chat.refFrame('ref:xss_html', { finished: true }).waitFor({ timeout: STEP_TIMEOUT });
  await app.workbench.chat.waitForIdle();
  app.state.sideBarChat = 'greet+xss';
}

/**
 * A chat tab holds the greet and unsafe answers (moved there from the side bar with Open Chat in Editor); the side
 * bar then offers a new chat.
 * @param {App} app
 */
export async function greetChatTab(app) {
  if (app.state.chatTab === 'greet+xss') return;
  await greetChat(app, { xss: true });
  await app.workbench.runCommand('FD Refs: Open Chat in Editor');
  await app.workbench.editors.tab(CHAT_TAB).first().waitFor({ timeout: STEP_TIMEOUT });
  app.state.chatTab = 'greet+xss';
  app.state.sideBarChat = 'new';
}

/**
 * The side bar's chat holds a long paste (stored as fd:1) and, last, READ_FD_PROMPT's answer: one "Read fd:1 page
 * 2" line.
 * @param {App} app
 */
export async function readFdChat(app) {
  if (app.state.sideBarChat === 'readFd') return showSideBarChat(app);
  const { workbench } = app;
  await workbench.dismiss();
  await workbench.runCommand('FD Refs: New Chat');
  await workbench.chat.composer().waitFor({ timeout: STEP_TIMEOUT });
  await workbench.chat.selectDemoModel();
  await workbench.chat.ask(longPaste());
  await workbench.chat.frame().locator('.stored-chip').waitFor({ timeout: STEP_TIMEOUT });
  await workbench.chat.waitForIdle();
  await workbench.chat.ask(READ_FD_PROMPT);
  await workbench.chat.toolHeadline(/^Read fd:1 page 2 of \d+$/).waitFor({ timeout: STEP_TIMEOUT });
  await workbench.chat.waitForIdle();
  app.state.sideBarChat = 'readFd';
}

/**
 * The editors named are open (each with Quick Open), the last one active.
 * @param {App} app
 * @param {string[]} names
 */
export async function openEditors(app, names) {
  for (const name of names) {
    if ((await app.workbench.editors.tab(name).count()) > 0) continue;
    await app.workbench.dismiss();
    await app.workbench.quickInput.quickOpen(name);
  }
}
