import * as vscode from 'vscode';
import type { ModelOption } from '../core/chat/protocol';
import { Disposable } from '../common/lifecycle';
import type { ApiKeys } from './apiKeys';
import type { ChatConfiguration } from './chatConfiguration';
import { endpointKey, LM_PREFIX } from './modelKeys';

/**
 * The models a chat can use: VS Code's language models first, then the endpoints in the settings. A chat gets the
 * client for one with `resolveModel` (modelResolver.ts, loaded with the chat's code).
 */
export class ModelCatalog extends Disposable {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  /** The list may have changed (models installed, settings or keys changed). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    readonly configuration: ChatConfiguration,
    readonly keys: ApiKeys,
  ) {
    super();
    this._register(vscode.lm.onDidChangeChatModels(() => this.changeEmitter.fire()));
    this._register(
      vscode.workspace.onDidChangeConfiguration(
        (e) => e.affectsConfiguration('fdref.chat.endpoints') && this.changeEmitter.fire(),
      ),
    );
    this._register(keys.onDidChange(() => this.changeEmitter.fire()));
  }

  async options(): Promise<ModelOption[]> {
    const lm = (await this.languageModels()).map((m): ModelOption => ({
      key: `${LM_PREFIX}${m.id}`,
      label: m.name,
      provider: 'vscode-lm',
      detail: `${m.vendor} · VS Code language model`,
    }));
    const endpoints = this.configuration.settings.endpoints.flatMap((e) =>
      e.models.map((model): ModelOption => ({
        key: endpointKey(e.name, model),
        label: `${model} · ${e.name}`,
        provider: e.protocol,
        detail: e.demo ? `demo endpoint (scripted answers) at ${e.baseUrl}` : e.baseUrl,
        ...(e.demo ? { demo: true } : {}),
      })),
    );
    return [...lm, ...endpoints];
  }

  /** The model a new chat starts with: a VS Code language model when there is one, else the first endpoint. */
  async defaultKey(): Promise<string | undefined> {
    return (await this.options())[0]?.key;
  }

  private async languageModels(): Promise<vscode.LanguageModelChat[]> {
    try {
      return await vscode.lm.selectChatModels();
    } catch {
      return [];
    }
  }
}
