import * as vscode from 'vscode';
import { validateChatSettings, type ChatSettings, type RawChatSettings } from '../core/settings/chatSettings';
import type { UserMessages } from '../common/userMessages';

/** Reads `fdref.chat.*`, validated; each problem is reported once per change of the settings. */
export class ChatConfiguration {
  private cached: ChatSettings | undefined;
  private readonly subscription: vscode.Disposable;

  constructor(private readonly messages: UserMessages) {
    this.subscription = vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration('fdref.chat')) this.cached = undefined;
    });
  }

  get settings(): ChatSettings {
    if (this.cached) return this.cached;
    const config = vscode.workspace.getConfiguration('fdref.chat');
    const keys: (keyof RawChatSettings)[] = ['endpoints', 'maxTokens', 'autoApproveWrites', 'maxToolOutputChars', 'maxInputChars', 'systemPrompt', 'requestTimeoutSeconds'];
    const raw: RawChatSettings = {};
    for (const key of keys) raw[key] = config.get(key);
    const { settings, problems } = validateChatSettings(raw);
    for (const problem of problems) void this.messages.warn(`FD Refs: ${problem}.`);
    this.cached = settings;
    return settings;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
