// VS Code's own Chat view (1.104+): `@fdref` answering with refs and links that act on them, model text that must run
// nothing, and Copilot Chat's tool picker listing fdref's language model tools. The scripted chat model comes from
// the test-only extension test/fixtures/lm-extension.
import { existsSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { app, build, hasChatView, repo } from '../app.mjs';
import { STEP_TIMEOUT, waitUntil } from '../pages/waits.mjs';

/**
 * The names the tool picker shows for the language model tools fdref contributes (`toolReferenceName`, else `name`),
 * under the group "FD Refs".
 * @returns {string[]}
 */
function contributedTools() {
  const manifest = JSON.parse(readFileSync(path.join(repo, 'package.json'), 'utf8'));
  /** @type {{ name: string, toolReferenceName?: string }[]} */
  const tools = manifest.contributes?.languageModelTools ?? [];
  return tools.map((t) => t.toolReferenceName ?? t.name);
}

describe('participant', function () {
  if (!hasChatView) {
    console.log(`    - @fdref in the Chat view: skipped, VS Code ${build.vscode} has no Chat view`);
    return;
  }

  after(async function () {
    await app().page.keyboard.press('Escape'); // the tool picker, left open for the screenshot
  });

  before(async function () {
    const { workbench } = app();
    await workbench.dismiss();
    await workbench.runCommand('fdref test: Offer the Scripted Model');
    await workbench.runCommand('Chat: Open Chat');
  });

  it('@fdref in the Chat view answers with ref code blocks and links that act on them', async function () {
    const { vscodeChat } = app().workbench;
    await vscodeChat.askFdref('Write a config and a script that reads it, as two refs');
    const response = vscodeChat.lastResponse();
    await response.locator('text=jq .name config.json').first().waitFor({ timeout: 30_000 });
    await response.getByText('Both are kept as refs.').first().waitFor({ timeout: STEP_TIMEOUT });
    // Under each ref, a line of links that run the ref commands on it.
    await response.getByRole('link', { name: 'Export to File…' }).nth(1).waitFor({ timeout: STEP_TIMEOUT });
    await response.getByText('ref:pt_script').first().waitFor({ timeout: STEP_TIMEOUT });
  });

  it('Export to File under a ref in the Chat view writes the file', async function () {
    const { workbench, server } = app();
    await workbench.vscodeChat.lastResponse().getByRole('link', { name: 'Export to File…' }).first().click();
    await workbench.quickInput.waitForValueContaining('pt_config');
    await workbench.page.keyboard.press('Enter');
    const written = path.join(server.workspace, 'pt_config.json');
    await waitUntil(
      () => existsSync(written),
      () => `${written} was not written`,
    );
    const text = readFileSync(written, 'utf8');
    if (text !== '{ "name": "fdref", "refs": [1, 2, 3] }')
      throw new Error(`pt_config.json holds ${JSON.stringify(text)}`);
  });

  it('a command link and HTML in the model text of an @fdref answer run nothing', async function () {
    const { workbench, server, page } = app();
    await page.keyboard.press('Escape');
    await workbench.vscodeChat.askFdref('Show me a command link');
    const response = workbench.vscodeChat.lastResponse();
    await response.getByText('Done.').first().waitFor({ timeout: 30_000 });
    await response.getByText('Export everything').first().click();
    await page.waitForTimeout(2000); // time for a command the link would run to write its file
    if (existsSync(path.join(server.workspace, 'pwned.json')))
      throw new Error('the command link in model text ran fdref.exportRef');
    // The HTML is shown as text, not rendered.
    if ((await response.locator('img[src="x"], a[href^="command:"]').count()) > 0)
      throw new Error('raw HTML in model text was rendered');
    await response.getByText('onerror="document.title=1"').first().waitFor({ timeout: STEP_TIMEOUT });
    if ((await page.title()) === '1') throw new Error('an event handler in model text ran');
  });

  // Copilot Chat's tool picker opens without a GitHub sign-in; it lists the language model tools fdref contributes.
  const tools = contributedTools();
  if (tools.length === 0) {
    console.log("    - Copilot Chat's tool picker: skipped, fdref contributes no language model tools yet");
    return;
  }
  it("Copilot Chat's tool picker lists the fdref tools", async function () {
    const { workbench, page } = app();
    await page.keyboard.press('Escape');
    // The tools are grouped under the extension's name; the group is expanded with the keyboard.
    const picker = await workbench.vscodeChat.openToolPicker('FD Refs');
    for (const tool of tools) await picker.getByText(tool, { exact: true }).first().waitFor({ timeout: STEP_TIMEOUT });
  });
});
