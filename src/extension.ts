import * as vscode from 'vscode';
import type { ChatPanels } from './chat/chatPanels';
import { registerChat } from './chat/registerChat';
import { registerCommands } from './commands/registerCommands';
import { UserMessages } from './common/userMessages';
import { EntityService } from './entities/entityService';
import { type FdrefFileSystem, registerFileSystem } from './files/fdrefFileSystem';
import { registerRefSymbols } from './files/refSymbolProvider';
import { registerBrowsing } from './files/registerBrowsing';
import { registerEntityHover } from './hover/entityHoverProvider';
import { registerRefHover } from './hover/refHoverProvider';
import { type FdrefLanguageModelTools, registerLanguageModelTools } from './lmTools/registerLanguageModelTools';
import { type FdrefMcpServerProvider, registerMcpServerProvider } from './lmTools/registerMcpServerProvider';
import type { SessionRegistry } from './sessions/sessionRegistry';
import { registerSessions } from './sessions/registerSessions';
import { registerTerminal } from './terminal/registerTerminal';
import type { TerminalCapture } from './terminal/terminalCapture';
import { type FdrefParticipant, registerParticipant } from './participant/participant';
import { registerTree, type SessionTreeProvider } from './tree/sessionTreeProvider';
import { WorkspaceWriter } from './workspace/workspaceWriter';

/** What `activate` returns; the integration tests reach the extension's state through it. */
export interface FdrefApi {
  readonly registry: SessionRegistry;
  readonly tree: SessionTreeProvider;
  readonly fileSystem: FdrefFileSystem;
  readonly messages: UserMessages;
  readonly entities: EntityService;
  readonly chats: ChatPanels;
  readonly lmTools: FdrefLanguageModelTools;
  readonly mcpProvider: FdrefMcpServerProvider;
  /** The `@fdref` Chat view participant; undefined where VS Code has no chat API. */
  readonly participant: FdrefParticipant | undefined;
}

let sessions: SessionRegistry | undefined;
let terminal: TerminalCapture | undefined;
let chatPanels: ChatPanels | undefined;

/** Builds the long-lived objects and registers the surfaces; sessions are read from disk on first use. */
export function activate(context: vscode.ExtensionContext): FdrefApi {
  const messages = new UserMessages();
  context.subscriptions.push(messages);
  const registry = registerSessions(context, messages);
  sessions = registry;
  const entities = new EntityService(messages);
  context.subscriptions.push(entities);
  const fileSystem = registerFileSystem(context, registry, entities);
  registerRefSymbols(context, registry);
  const tree = registerTree(context, registry);
  registerRefHover(context, registry);
  registerEntityHover(context, entities);
  const writer = new WorkspaceWriter();
  const { chats, keys, configuration } = registerChat(context, { registry, entities, writer, messages });
  chatPanels = chats;
  terminal = registerTerminal(context, registry, messages);
  const services = { registry, writer, messages, tree, entities, fileSystem, chats, keys, configuration, terminal };
  registerCommands(context, services);
  registerBrowsing(context, fileSystem, messages);
  const lmTools = registerLanguageModelTools(context, { registry, writer, messages });
  const mcpProvider = registerMcpServerProvider(context, { storeFolder: () => registry.storeFolder, messages });
  const participant = registerParticipant(context, registry, messages);
  return { registry, tree, fileSystem, messages, entities, chats, lmTools, mcpProvider, participant };
}

/** Saves the sessions this window holds and gives up their writers, so another window or agent can take them. */
export async function deactivate(): Promise<void> {
  try {
    await chatPanels?.close(); // an answer being given is recorded as stopped, not left streaming
    await terminal?.close(); // keeps what running commands wrote before the sessions close
  } finally {
    await sessions?.close(); // whatever happened to the terminal's commands
  }
}
