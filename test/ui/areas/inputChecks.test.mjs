// Issue 14 §4: the commands' input boxes check what is typed before Enter.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { app } from '../app.mjs';
import { capturedRefs } from '../fixtures.mjs';

describe('inputChecks', function () {
  before(async function () {
    await app().workbench.dismiss();
    await capturedRefs(app());
  });

  beforeEach(async function () {
    await app().workbench.dismiss();
  });

  it('Insert Ref at Line says under the line box how many lines the file has', async function () {
    const { workbench, server } = app();
    await workbench.runCommand('FD Refs: Insert Ref at Line...');
    await workbench.quickInput.pickRow('ref:parse_config', 'test_parse_config');
    await workbench.quickInput.pickRow('notes.md');
    const lines = readFileSync(path.join(server.workspace, 'notes.md'), 'utf8').replace(/\n$/, '').split('\n').length;
    await workbench.quickInput.typeIntoInputBox('999');
    await workbench.quickInput.waitForValidationMessage(
      `Line 999 is outside the file. The file has ${lines} lines, so line must be 1-${lines + 1}`,
    );
  });

  it('Export Ref refuses a path outside the workspace while it is typed', async function () {
    const { workbench, server } = app();
    await workbench.runCommand('FD Refs: Export Ref to File...');
    await workbench.quickInput.pickRow('ref:parse_config', 'test_parse_config');
    await workbench.quickInput.typeIntoInputBox('../outside.py');
    await workbench.quickInput.waitForValidationMessage('outside the workspace');
    await workbench.page.keyboard.press('Enter'); // refused: the box stays open and nothing is written
    await workbench.quickInput.waitForValidationMessage('outside the workspace');
    if (existsSync(path.join(path.dirname(server.workspace), 'outside.py')))
      throw new Error('a file was written outside');
  });

  it('Export Ref warns while the path is typed that it will ask before replacing a file', async function () {
    const { workbench } = app();
    await workbench.runCommand('FD Refs: Export Ref to File...');
    await workbench.quickInput.pickRow('ref:parse_config', 'test_parse_config');
    await workbench.quickInput.typeIntoInputBox('notes.md');
    await workbench.quickInput.waitForValidationMessage('notes.md exists: Export will ask before replacing it');
  });
});
