import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { ChatConfiguration } from '../chat/chatConfiguration';
import type { ApiKeys } from '../chat/apiKeys';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';
import { apiKeyProblem } from '../core/settings/apiKeyShape';
import { apiKeyValidation } from './inputValidation';

/**
 * Stores (or removes) the API key of an endpoint from `fdref.chat.endpoints` in SecretStorage.
 * Accepts `{ endpoint, key }` (tests, scripts); `key: ''` removes it.
 */
export class SetApiKeyCommand implements Command {
  readonly id = 'fdref.setApiKey';

  constructor(
    private readonly configuration: ChatConfiguration,
    private readonly keys: ApiKeys,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<boolean> {
    const given = typeof arg === 'object' && arg !== null ? (arg as { endpoint?: unknown; key?: unknown }) : {};
    const endpoints = this.configuration.settings.endpoints;
    if (endpoints.length === 0) {
      const choice = await this.messages.info(
        'There is no endpoint to set a key for. Add one to the "fdref.chat.endpoints" setting first (an Anthropic or OpenAI-compatible API).',
        'Open Settings',
      );
      if (choice === 'Open Settings')
        await vscode.commands.executeCommand('workbench.action.openSettings', 'fdref.chat.endpoints');
      return false;
    }
    let name = typeof given.endpoint === 'string' ? given.endpoint : undefined;
    if (name === undefined) {
      const picked = await vscode.window.showQuickPick(
        endpoints.map((e) => ({
          label: e.name,
          description: `${e.protocol === 'anthropic' ? 'Anthropic' : 'OpenAI-compatible'} · ${e.baseUrl}`,
        })),
        { title: 'Set API Key', placeHolder: 'The endpoint whose key to set' },
      );
      name = picked?.label;
    }
    if (name === undefined) return false;
    const endpoint = endpoints.find((e) => e.name === name);
    if (endpoint === undefined)
      throw new UserError(`There is no endpoint named "${name}" in the "fdref.chat.endpoints" setting.`);
    const key =
      typeof given.key === 'string'
        ? given.key
        : await vscode.window.showInputBox({
            title: `API key for ${name}`,
            prompt: "Kept in VS Code's secret storage, never in settings. Leave empty to remove the key.",
            password: true,
            ignoreFocusOut: true,
            validateInput: apiKeyValidation(name, endpoint.protocol),
          });
    if (key === undefined) return false;
    const problem = apiKeyProblem(key, endpoint.protocol);
    if (problem?.severity === 'error')
      throw new UserError(`The API key for "${name}" was not stored: ${problem.message}`);
    if (key.trim() === '') {
      await this.keys.delete(name);
      void this.messages.info(`FD Refs removed the API key of "${name}".`);
    } else {
      await this.keys.set(name, key.trim());
      void this.messages.info(`FD Refs stored the API key of "${name}" in VS Code's secret storage.`);
    }
    return true;
  }
}
