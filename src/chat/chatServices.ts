import type * as vscode from 'vscode';
import type { ChatMessageRecord } from '../core/session/transcript';
import type { Log, UserMessages } from '../common/userMessages';
import type { EntityService } from '../entities/entityService';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { ChatConfiguration } from './chatConfiguration';
import type { ModelCatalog } from './modelCatalog';

/** What a chat panel works with. */
export interface ChatServices {
  readonly extensionUri: vscode.Uri;
  readonly registry: SessionRegistry;
  readonly catalog: ModelCatalog;
  readonly configuration: ChatConfiguration;
  readonly entities: EntityService;
  readonly writer: WorkspaceWriter;
  readonly messages: UserMessages;
  /** Lines in the FD Refs output channel, at their levels (`messages.log`). */
  readonly log: Log;
  readonly chats: {
    fork(entry: SessionEntry, messages: ChatMessageRecord[]): Promise<unknown>;
    exportMarkdown(entry: SessionEntry): Promise<unknown>;
  };
}
