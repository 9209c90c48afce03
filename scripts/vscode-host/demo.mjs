// The settings of `npm start`'s demo, which the UI test uses too, so it drives the workbench a user of the demo sees,
// and the environment of its VS Code.
import * as path from 'node:path';

/**
 * The demo VS Code's environment, from its temporary folder `root`: Connect an Agent writes agents' configurations
 * into `<root>/home` (FDREF_AGENT_HOME) instead of the real home folder, and says so; it goes with the demo.
 * @param {string} root
 */
export function demoEnvironment(root) {
  return { FDREF_AGENT_HOME: path.join(root, 'home') };
}

/**
 * @param {{ structsApi: string, models: { openaiBaseUrl: string, anthropicBaseUrl: string } }} servers the Structs
 *   API emulator's URL and the loopback model endpoint's base URLs
 */
export function demoSettings({ structsApi, models }) {
  return {
    // VS Code 1.139 opens its own Chat view in the secondary side bar on a first start, inviting a prompt into the
    // wrong chat (it needs a Copilot sign-in). The demo starts without it; View > Chat still opens it.
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    'fdref.entities.apiBaseUrl': structsApi,
    'fdref.chat.endpoints': [
      {
        name: 'Demo (OpenAI protocol)',
        protocol: 'openai',
        baseUrl: models.openaiBaseUrl,
        model: 'demo-model',
        demo: true,
      },
      {
        name: 'Demo (Anthropic protocol)',
        protocol: 'anthropic',
        baseUrl: models.anthropicBaseUrl,
        model: 'demo-claude',
        demo: true,
      },
    ],
  };
}
