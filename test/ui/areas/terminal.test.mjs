// The terminal: Keep Last Terminal Output keeps a command's output as a descriptor, which opens from its message.
import { app } from '../app.mjs';
import { STEP_TIMEOUT } from '../pages/waits.mjs';

/**
 * A command whose output does not hold its own text (printf fills the name in) and reaches the terminal apart from
 * the shell's command-start mark: VS Code can drop output that arrives in the same piece (see
 * test/integration/terminal.test.ts).
 */
const COMMAND = "sleep 0.3; printf 'fdref-ui-%s\\n' one two three; sleep 0.3";

describe('terminal', function () {
  before(async function () {
    await app().workbench.dismiss();
  });

  it('Keep Last Terminal Output keeps the output of the command run, and Open shows it', async function () {
    const { workbench } = app();
    const { terminal, notifications } = workbench;
    await terminal.create();
    const kept = notifications.toast(/kept the output of/);
    // The shell reports its commands once its integration has loaded, a moment after the prompt shows: a command
    // typed before is not seen (neither finished in the gutter nor by fdref); a person would run it again.
    for (let attempt = 1; ; attempt++) {
      const finished = await terminal.run(COMMAND).then(
        () => true,
        (/** @type {unknown} */ error) => {
          console.log(`      ${error instanceof Error ? error.message : error} (attempt ${attempt} of 3)`);
          return false;
        },
      );
      if (!finished && attempt < 3) continue;
      await workbench.runCommand('FD Refs: Keep Last Terminal Output');
      const refused = notifications.toast(/has seen no command start|no shell integration|printed nothing/);
      await kept.or(refused).first().waitFor({ timeout: STEP_TIMEOUT });
      if ((await kept.count()) > 0 || attempt >= 3) break;
      console.log(`      ${(await refused.first().innerText()).split('\n')[0]} (attempt ${attempt} of 3)`);
      await workbench.runCommand('Notifications: Clear All Notifications');
      await refused.first().waitFor({ state: 'detached', timeout: STEP_TIMEOUT });
    }
    await kept.first().waitFor({ timeout: STEP_TIMEOUT });
    await kept.first().getByRole('button', { name: 'Open', exact: true }).click();
    await workbench.editors.waitForText('fdref-ui-three');
  });
});
