// Refs as a person handles them without a chat: captured from a model's answer, exported to a file through the quick
// pick, inserted at the cursor with its indentation, found again with Search Kept Output.
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { app } from '../app.mjs';
import { captureTranscript, capturedRefs } from '../fixtures.mjs';
import { STEP_TIMEOUT, waitForFile, waitUntil } from '../pages/waits.mjs';

describe('refs', function () {
  before(async function () {
    await app().workbench.dismiss();
  });

  it('capturing the refs of a selection reports them', async function () {
    await captureTranscript(app());
  });

  it('exporting a ref through the quick pick writes the file', async function () {
    const { workbench, server } = app();
    await capturedRefs(app());
    await workbench.dismiss();
    await workbench.runCommand('FD Refs: Export Ref to File...');
    await workbench.quickInput.row('test_parse_config').first().waitFor({ timeout: STEP_TIMEOUT });
    await workbench.quickInput.input.fill('test_parse_config');
    await workbench.page.keyboard.press('Enter');
    // The path box that follows the pick suggests a file name (the pick's filter already held the id).
    await workbench.quickInput.waitForValueContaining('test_parse_config.py');
    await workbench.page.keyboard.press('Enter');
    await waitForFile(path.join(server.workspace, 'test_parse_config.py'), 'def test_defaults');
    await workbench.notifications.waitForToast('test_parse_config.py');
  });

  it("Insert Ref at Cursor gives a ref of several lines the cursor line's indentation", async function () {
    const { workbench, server } = app();
    await capturedRefs(app());
    await workbench.dismiss();
    const file = path.join(server.workspace, 'indent_demo.py');
    writeFileSync(file, 'class Greeter:\n    # the ref goes here\n');
    await workbench.quickInput.quickOpen('indent_demo.py', file);
    await workbench.editors.goToLine(2);
    await workbench.page.keyboard.press('End');
    await workbench.page.keyboard.press('Shift+Home'); // selects the comment, after the indentation
    await workbench.runCommand('FD Refs: Insert Ref at Cursor');
    // The ref pick reads every session's refs before it shows: wait for it, not the palette on its way out.
    if (!(await workbench.quickInput.showsPlaceholder('Pick a ref'))) throw new Error('no ref pick showed');
    await workbench.quickInput.pickRow('ref:test_parse_config');
    await workbench.page.keyboard.press('Control+S');
    const want = '\n    def test_defaults(tmp_path):\n        config = tmp_path / ';
    await waitUntil(
      () => readFileSync(file, 'utf8').includes(want),
      () => `the inserted ref is not indented to the class body:\n${readFileSync(file, 'utf8')}`,
    );
    const text = readFileSync(file, 'utf8');
    if (!text.startsWith('class Greeter:\n    from parse_config import parse_config\n'))
      throw new Error(`the ref's first line did not replace the selection:\n${text}`);
  });

  it('Search Kept Output shows the matching lines of every session as you type', async function () {
    const { workbench } = app();
    await capturedRefs(app());
    await workbench.dismiss();
    await workbench.runCommand('FD Refs: Search Kept Output...');
    const placeholder = 'Type words to find in every kept output (plain text)';
    if (!(await workbench.quickInput.showsPlaceholder(placeholder))) throw new Error('no search pick showed');
    await workbench.quickInput.typeIntoInputBox('test_defaults');
    // Left open for the screenshot; the next test picks the line.
    await workbench.quickInput.row('def test_defaults(tmp_path)').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  it("picking a search result opens its ref's document", async function () {
    const { workbench } = app();
    await workbench.quickInput.row('def test_defaults(tmp_path)').first().click();
    await workbench.page.locator('.tab.active', { hasText: 'test_parse_config' }).waitFor({ timeout: STEP_TIMEOUT });
  });

  it('Search Kept Output says in the pick why a text without words cannot be searched', async function () {
    const { workbench } = app();
    await workbench.dismiss();
    await workbench.runCommand('FD Refs: Search Kept Output...');
    const placeholder = 'Type words to find in every kept output (plain text)';
    if (!(await workbench.quickInput.showsPlaceholder(placeholder))) throw new Error('no search pick showed');
    await workbench.quickInput.typeIntoInputBox('-- !!');
    await workbench.quickInput.row('Cannot search: ').first().waitFor({ timeout: STEP_TIMEOUT });
    await workbench.dismiss();
  });

  it('Show Store Usage shows the search index apart from the sessions, with its size on disk', async function () {
    const { workbench } = app();
    await workbench.dismiss();
    await workbench.runCommand('FD Refs: Show Store Usage...');
    await workbench.quickInput
      .row(/Search index.*on disk/)
      .first()
      .waitFor({ timeout: STEP_TIMEOUT });
  });
});
