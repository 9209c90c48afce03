// The FD Refs side bar's Sessions tree: the captured session, its refs, a ref opened from it.
import { app } from '../app.mjs';
import { capturedRefs } from '../fixtures.mjs';
import { STEP_TIMEOUT } from '../pages/waits.mjs';

describe('tree', function () {
  before(async function () {
    await app().workbench.dismiss();
    await capturedRefs(app());
  });

  it('the FD Refs view lists the session and its refs', async function () {
    const { fdrefView } = app().workbench;
    await fdrefView.open();
    await fdrefView.expandSession('Captured');
    await fdrefView.row('parse_config').waitFor({ timeout: STEP_TIMEOUT });
    await fdrefView.row('test_parse_config').waitFor({ timeout: STEP_TIMEOUT });
  });

  it('clicking a ref opens it as a Python document', async function () {
    const { fdrefView, editors } = app().workbench;
    await fdrefView.row(/^parse_config/).click();
    await editors.waitForActiveTab('parse_config');
    await editors.waitForText('def parse_config');
    await editors.waitForStatus('Python');
  });
});
