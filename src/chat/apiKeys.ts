import * as vscode from 'vscode';

/** API keys of the configured endpoints, kept in VS Code's SecretStorage (never in settings or logs). */
export class ApiKeys {
  private readonly changeEmitter = new vscode.EventEmitter<string>();
  /** Fires with the endpoint name whose key was set or removed. */
  readonly onDidChange = this.changeEmitter.event;

  constructor(private readonly secrets: vscode.SecretStorage) {}

  get(endpointName: string): Thenable<string | undefined> {
    return this.secrets.get(keyName(endpointName));
  }

  async set(endpointName: string, key: string): Promise<void> {
    await this.secrets.store(keyName(endpointName), key);
    this.changeEmitter.fire(endpointName);
  }

  async delete(endpointName: string): Promise<void> {
    await this.secrets.delete(keyName(endpointName));
    this.changeEmitter.fire(endpointName);
  }

  dispose(): void {
    this.changeEmitter.dispose();
  }
}

function keyName(endpointName: string): string {
  return `fdref.chat.apiKey/${endpointName}`;
}
