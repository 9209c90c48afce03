import * as vscode from 'vscode';
import type { ChatModel } from '../../core/chat/conversationHost';
import { ModelError } from '../../core/chat/modelClient';
import { createAnthropicClient } from '../../core/chat/providers/anthropic';
import { createOpenAiCompatibleClient } from '../../core/chat/providers/openaiCompatible';
import type { ModelCatalog } from '../modelCatalog';
import { ENDPOINT_PREFIX, endpointOf, LM_PREFIX } from '../modelKeys';
import { VscodeLmClient } from '../vscodeLmClient';

/**
 * The client for a picker key; a `ModelError` saying what to do when it cannot be used. Part of the chat's lazily
 * loaded code (with the provider clients it creates), apart from the catalog, which lists models from activation on.
 */
export async function resolveModel(catalog: ModelCatalog, key: string | undefined): Promise<ChatModel> {
  const settings = catalog.configuration.settings;
  const chosen = key ?? (await catalog.defaultKey());
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
  const found = endpointOf(settings.endpoints, chosen);
  if (!found)
    throw new ModelError(
      'notFound',
      `The model "${chosen.slice(ENDPOINT_PREFIX.length)}" is no longer in the "fdref.chat.endpoints" setting. Pick another model.`,
    );
  const { endpoint, model } = found;
  const apiKey = await catalog.keys.get(endpoint.name);
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
