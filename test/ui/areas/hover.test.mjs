// Hovers in the editor: a ref named in a note, a Structs entity id answered from the API.
import { app } from '../app.mjs';
import { capturedRefs } from '../fixtures.mjs';

describe('hover', function () {
  before(async function () {
    await app().workbench.dismiss();
    await capturedRefs(app());
  });

  it('hovering ref:parse_config in a note shows its first lines', async function () {
    const { quickInput, editors } = app().workbench;
    await quickInput.quickOpen('notes.md');
    await editors.waitForLine('ref:parse_config');
    await editors.hover('ref:parse_config');
    await editors.waitForHover('def parse_config');
  });

  it('hovering a Structs entity id shows the entity from the API', async function () {
    const { page, quickInput, editors } = app().workbench;
    await page.keyboard.press('Escape');
    await quickInput.quickOpen('fleet.json');
    await editors.waitForLine('"owner"');
    await editors.hover('1-1');
    await editors.waitForHover('Player 1-1');
    await editors.waitForHover('Open as JSON');
  });
});
