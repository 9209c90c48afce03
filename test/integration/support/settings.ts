import * as vscode from 'vscode';

/** Sets a user setting by its full key (`fdref.chat.endpoints`); `undefined` removes it. */
export async function setSetting(key: string, value: unknown): Promise<void> {
  await vscode.workspace.getConfiguration().update(key, value, vscode.ConfigurationTarget.Global);
}
