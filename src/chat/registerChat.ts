import * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import type { EntityService } from '../entities/entityService';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import { ApiKeys } from './apiKeys';
import { ChatConfiguration } from './chatConfiguration';
import { ChatPanels } from './chatPanels';
import { ModelCatalog } from './modelCatalog';

/** The chat: its settings, API keys, models, the side bar's Chat view and the chat tabs (restored after a restart). */
export function registerChat(
  context: vscode.ExtensionContext,
  deps: { registry: SessionRegistry; entities: EntityService; writer: WorkspaceWriter; messages: UserMessages },
): { chats: ChatPanels; keys: ApiKeys; configuration: ChatConfiguration } {
  const keys = new ApiKeys(context.secrets);
  const configuration = new ChatConfiguration(deps.messages);
  const catalog = new ModelCatalog(configuration, keys);
  const chats = new ChatPanels(
    { extensionUri: context.extensionUri, catalog, configuration, log: deps.messages.log, ...deps },
    context.workspaceState,
  );
  context.subscriptions.push(keys, configuration, catalog, chats);
  return { chats, keys, configuration };
}
