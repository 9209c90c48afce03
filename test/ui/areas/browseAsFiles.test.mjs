// Browse as Files (issue 14 §5): the warning before the reload, the FD Refs root listed without a click, the editors
// open again after the reload, a ref opened from the Explorer and from Ctrl+T, the folder removed and added back.
import { app } from '../app.mjs';
import { capturedRefs, greetChatTab, openEditors } from '../fixtures.mjs';
import { CHAT_TAB } from '../pages/chatWebview.mjs';
import { RELOAD_TIMEOUT, STEP_TIMEOUT } from '../pages/waits.mjs';

/** The editors open before Browse as Files, and open again after its reload (with a chat tab, CHAT_TAB). */
const EDITORS = ['chat-transcript.md', 'fleet.json', 'notes.md'];

describe('browseAsFiles', function () {
  before(async function () {
    await app().workbench.dismiss();
    await capturedRefs(app());
    await greetChatTab(app());
    await openEditors(app(), EDITORS);
  });

  after(function () {
    // The window loaded again as a workspace: what the side bar's chat shows is not known to the fixtures.
    app().state.sideBarChat = undefined;
  });

  it('Browse as Files first warns that the window loads again, and says what is kept', async function () {
    const { workbench } = app();
    await workbench.dismiss();
    await workbench.editors.selectTab('notes.md');
    await workbench.editors.waitForActiveTab('notes.md');
    const dialog = workbench.notifications.dialog('loads this window again');
    // Right after a window reload, the palette can close under the click (focus moves as the window settles), and
    // then nothing ran: a person would run the command again.
    for (let attempt = 1; ; attempt++) {
      await workbench.runCommand('FD Refs: Browse as Files');
      const shown = await dialog.waitFor({ timeout: 10_000 }).then(
        () => true,
        () => false,
      );
      if (shown || attempt === 3) break;
      console.log(`      no warning within 10 s; running Browse as Files again (${attempt} of 2)`);
      await workbench.page.keyboard.press('Escape');
    }
    await dialog.waitFor({ timeout: STEP_TIMEOUT });
    await dialog.getByText('opens again').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  it('Browse as Files shows the refs in the Explorer, and the sessions survive the reload', async function () {
    const { workbench, page } = app();
    const { explorer } = workbench;
    // Adding a second folder turns the window into a multi-root workspace, which loads it again.
    const entered = page.waitForEvent('framenavigated', {
      predicate: (frame) => frame === page.mainFrame() && frame.url().includes('workspace='),
      timeout: 90_000,
    });
    entered.catch(() => {}); // awaited below; a step that fails before must not leave it unhandled
    await workbench.notifications.clickDialogButton('Continue');
    // VS Code's web workbench sometimes loads the folder again instead of the workspace it made (seen on 1.139.1,
    // with a "CodeExpectedError" in the console, without fdref's part in it): a person would run the command again.
    for (let again = 1; again <= 2; again++) {
      const settled = await Promise.race([
        entered.then(
          () => 'entered',
          () => 'timeout',
        ),
        page.waitForTimeout(20_000).then(() => 'waiting'),
      ]);
      if (settled !== 'waiting' || !page.url().includes('folder=')) break;
      console.log(`      the window loaded the folder again, not the workspace; Browse as Files again (${again} of 2)`);
      await workbench.waitForWorkbench();
      await page.keyboard.press('Escape');
      await workbench.runCommand('FD Refs: Browse as Files');
      await workbench.notifications.clickDialogButton('Continue');
    }
    await entered;
    await page.waitForLoadState('load', { timeout: RELOAD_TIMEOUT }).catch(() => {});
    // VS Code's web workbench sometimes shows the new untitled workspace with no folder although its file holds both
    // (seen on 1.100.3 and 1.139.1, with fdref installed or under development, more often on a busy machine);
    // loading the window again a few seconds later shows them, as a person would do.
    const fdrefFolder = explorer.row('FD Refs');
    for (let attempt = 1; ; attempt++) {
      await fdrefFolder.or(explorer.noFolder).waitFor({ timeout: RELOAD_TIMEOUT });
      if (!(await explorer.noFolder.isVisible()) || attempt > 3) break;
      console.log(`      the workspace opened with no folder; loading the window again in 3 s (${attempt} of 3)`);
      await page.waitForTimeout(3000);
      await page.reload();
      await workbench.waitForWorkbench();
    }
    await fdrefFolder.waitFor({ timeout: RELOAD_TIMEOUT });
    // The root lists its sessions by itself: no click on it.
    await explorer.row('Captured').waitFor({ timeout: 30_000 });
    if (!(await explorer.isExpanded('FD Refs'))) throw new Error('the FD Refs root is collapsed');
  });

  it('the editors open before Browse as Files are open again after the reload', async function () {
    const { workbench } = app();
    for (const name of [...EDITORS, CHAT_TAB]) await workbench.editors.waitForTab(name, 30_000);
    await workbench.editors.waitForActiveTab('notes.md');
    // The chat opened again shows its history.
    await workbench.editors.selectTab(CHAT_TAB);
    await workbench.chat.someFrameShows('section.ref-frame[aria-label="ref:greet"]');
    await workbench.editors.selectTab('notes.md');
  });

  it('a ref opens from the FD Refs folder in the Explorer', async function () {
    const { workbench } = app();
    const { explorer, editors } = workbench;
    // Every folder collapsed first, so the only refs/ row shown is the Captured session's (a chat's may be open).
    await workbench.runCommand('Collapse Folders in Explorer');
    await explorer.expand(/^FD Refs$/);
    await explorer.expand('Captured');
    await explorer.expand(/^refs$/);
    await explorer.row(/^parse_config\.py$/).click();
    await editors.waitForActiveTab(/^parse_config\.py/);
    // The breadcrumbs show where it lives: the session folder, then refs/.
    await editors.waitForBreadcrumb('refs');
    await editors.waitForText('def parse_config');
  });

  it('Ctrl+T lists the refs and descriptors with their session', async function () {
    const { workbench, page } = app();
    const { quickInput } = workbench;
    await workbench.editors.focus();
    await page.keyboard.press('Control+T');
    await quickInput.waitForInput();
    await quickInput.input.fill('#parse_config');
    await quickInput.row('ref:test_parse_config').first().waitFor({ timeout: STEP_TIMEOUT });
    await quickInput.row('Captured').first().waitFor({ timeout: STEP_TIMEOUT });
    await page.waitForTimeout(300); // the list settles before the screenshot
  });

  it('a ref picked in Ctrl+T opens as its fdref: document', async function () {
    const { workbench, page } = app();
    const { quickInput, editors } = workbench;
    // Alone (the test before failed or was not selected), Ctrl+T is opened here.
    if (!(await quickInput.row('ref:test_parse_config').first().isVisible())) {
      await workbench.dismiss();
      await editors.focus();
      await page.keyboard.press('Control+T');
      await quickInput.waitForInput();
      await quickInput.input.fill('#parse_config');
    }
    await quickInput.row('ref:test_parse_config').first().click();
    await editors.waitForActiveTab(/^test_parse_config\.py/);
    await editors.waitForText('def test_defaults');
  });

  it('Stop Browsing as Files removes the folder; Browse as Files adds it back with no warning and no reload', async function () {
    const { workbench, page } = app();
    const { explorer } = workbench;
    await page.keyboard.press('Escape');
    const fdrefFolder = explorer.row('FD Refs');
    let navigated = false;
    /** @param {import('playwright-core').Frame} frame */
    const onNavigation = (frame) => {
      if (frame === page.mainFrame()) navigated = true;
    };
    page.on('framenavigated', onNavigation);
    try {
      await workbench.runCommand('FD Refs: Stop Browsing as Files');
      await fdrefFolder.waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
      // A workspace already: the folder is added as it is.
      await workbench.runCommand('FD Refs: Browse as Files');
      await fdrefFolder.waitFor({ timeout: STEP_TIMEOUT });
      await explorer.row('Captured').waitFor({ timeout: STEP_TIMEOUT });
      if (await workbench.notifications.dialogShown()) throw new Error('a warning was shown');
      if (navigated) throw new Error('the window loaded again');
      await workbench.editors.waitForTab('notes.md');
    } finally {
      page.off('framenavigated', onNavigation);
    }
  });
});
