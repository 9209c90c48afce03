import * as vscode from 'vscode';
import type { ChatModel } from '../core/chat/conversationHost';
import { ModelError } from '../core/chat/modelClient';
import type { ModelOption } from '../core/chat/protocol';
import { createAnthropicClient } from '../core/chat/providers/anthropic';
import { createOpenAiCompatibleClient } from '../core/chat/providers/openaiCompatible';
import type { EndpointSettings } from '../core/settings/chatSettings';
import { Disposable } from '../common/lifecycle';
import type { ApiKeys } from './apiKeys';
import type { ChatConfiguration } from './chatConfiguration';
import { VscodeLmClient } from './vscodeLmClient';

const LM_PREFIX = 'vscode-lm:';
const ENDPOINT_PREFIX = 'endpoint:';

/** The models a chat can use: VS Code's language models first, then the endpoints in the settings. */
export class ModelCatalog extends Disposable {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<void>());
  /** The list may have changed (models installed, settings or keys changed). */
  readonly onDidChange = this.changeEmitter.event;

  constructor(
    private readonly configuration: ChatConfiguration,
    private readonly keys: ApiKeys,
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

  /** The client for a picker key; a `ModelError` saying what to do when it cannot be used. */
  async resolve(key: string | undefined): Promise<ChatModel> {
    const settings = this.configuration.settings;
    const chosen = key ?? (await this.defaultKey());
    if (chosen === undefined) {
      throw new ModelError(
        'notFound',
        'No model is available. Install a chat model extension (such as GitHub Copilot), or add an endpoint in the "fdref.chat.endpoints" setting.',
      );
    }
    if (chosen.startsWith(LM_PREFIX)) {
      const id = chosen.slice(LM_PREFIX.length);
      const [model] = await vscode.lm.selectChatModels({ id });
      if (!model)
        throw new ModelError('notFound', `The language model "${id}" is no longer available. Pick another model.`);
      return {
        client: new VscodeLmClient(model),
        model: model.id,
        label: `${model.name} (${model.vendor})`,
        maxTokens: settings.maxTokens,
      };
    }
    const { endpoint, model } = this.endpointOf(chosen);
    const apiKey = await this.keys.get(endpoint.name);
    if (apiKey === undefined && endpoint.protocol === 'anthropic' && !endpoint.demo) {
      throw new ModelError('auth', `No API key is set for "${endpoint.name}". Set it with "FD Refs: Set API Key...".`);
    }
    const config = {
      label: endpoint.name,
      baseUrl: endpoint.baseUrl,
      timeoutMs: settings.requestTimeoutSeconds * 1000,
      ...(apiKey === undefined ? {} : { apiKey }),
    };
    const client =
      endpoint.protocol === 'anthropic' ? createAnthropicClient(config) : createOpenAiCompatibleClient(config);
    return { client, model, label: `${model} (${endpoint.name})`, maxTokens: settings.maxTokens };
  }

  private endpointOf(key: string): { endpoint: EndpointSettings; model: string } {
    for (const endpoint of this.configuration.settings.endpoints) {
      for (const model of endpoint.models) if (endpointKey(endpoint.name, model) === key) return { endpoint, model };
    }
    throw new ModelError(
      'notFound',
      `The model "${key.slice(ENDPOINT_PREFIX.length)}" is no longer in the "fdref.chat.endpoints" setting. Pick another model.`,
    );
  }

  private async languageModels(): Promise<vscode.LanguageModelChat[]> {
    try {
      return await vscode.lm.selectChatModels();
    } catch {
      return [];
    }
  }
}

function endpointKey(name: string, model: string): string {
  return `${ENDPOINT_PREFIX}${name}/${model}`;
}
