// The window as `npm start` opens it, and what fdref's activation costs it.
import { app } from '../app.mjs';

describe('workbench', function () {
  after(async function () {
    await app()
      .workbench.runningExtensions.close()
      .catch(() => {});
  });

  it('the workbench opens with the demo workspace', async function () {
    const { firstStart, workbench } = app();
    await workbench.waitForWorkbench();
    if (!firstStart.workspaceListed) throw new Error('the Explorer did not list chat-transcript.md on the first start');
    // npm start's demo does not greet a user with VS Code 1.139's own Chat view in the secondary side bar.
    if (firstStart.auxiliaryBarVisible)
      throw new Error("the secondary side bar (VS Code's own Chat view) is open on the demo's first start");
  });

  it('fdref activates quickly (Developer: Show Running Extensions)', async function () {
    const { runningExtensions } = app().workbench;
    await app().workbench.dismiss();
    await runningExtensions.open();
    // An installed extension is listed by its display name.
    const { ms, text } = await runningExtensions.activationTime('FD Refs');
    console.log(`      fdref activation time reported by VS Code: ${ms} ms (${text})`);
    if (ms > 1000) throw new Error(`activation took ${ms} ms`);
  });
});
