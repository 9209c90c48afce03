import * as vscode from 'vscode';
import type { ModelEndpoint } from '../../support/modelEndpoint';

/** Sets a user setting by its full key (`fdref.chat.endpoints`); `undefined` removes it. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}

/**
 * Mocha hooks: for the suite, `fdref.chat.endpoints` holds one demo endpoint served by the loopback model endpoint
 * (register them after `useModelEndpoint()`, whose server starts first), and nothing after it.
 */
export function useLoopbackChatEndpoint(
  endpoint: ModelEndpoint,
  { name, model, protocol }: { name: string; model: string; protocol: 'anthropic' | 'openai' },
): void {
  before(() =>
    setSetting('fdref.chat.endpoints', [
      {
        name,
        protocol,
        baseUrl: protocol === 'anthropic' ? endpoint.anthropicBaseUrl : endpoint.openaiBaseUrl,
        model,
        demo: true,
      },
    ]),
  );
  after(() => setSetting('fdref.chat.endpoints', undefined));
}
