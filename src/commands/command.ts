import type { ApiKeys } from '../chat/apiKeys';
import type { ChatConfiguration } from '../chat/chatConfiguration';
import type { ChatPanels } from '../chat/chatPanels';
import type { UserMessages } from '../common/userMessages';
import type { EntityService } from '../entities/entityService';
import type { FdrefFileSystem } from '../files/fdrefFileSystem';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { TerminalCapture } from '../terminal/terminalCapture';
import type { SessionTreeProvider } from '../tree/sessionTreeProvider';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';

export type { Command } from '../common/command';

/** The long-lived objects `registerCommands` hands out: each command takes only those it uses. */
export interface CommandServices {
  readonly registry: SessionRegistry;
  readonly writer: WorkspaceWriter;
  readonly messages: UserMessages;
  readonly tree: SessionTreeProvider;
  readonly entities: EntityService;
  readonly fileSystem: FdrefFileSystem;
  readonly chats: ChatPanels;
  readonly keys: ApiKeys;
  readonly configuration: ChatConfiguration;
  readonly terminal: TerminalCapture;
}
