/**
 * Everything fdref holds for a window, built the first time the window uses it (src/activation/lazyWindow.ts): this
 * file is bundled alone as dist/window.js, which activation does not load. Activation registers every surface VS
 * Code may ask for; what they hand on lands here.
 */
import * as vscode from 'vscode';
import type { ChatPanels } from '../chat/chatPanels';
import { registerChat } from '../chat/registerChat';
import type { Command } from '../commands/command';
import { agentServerLaunch } from '../agents/serverLauncher';
import { fdrefCommands, run } from '../commands/registerCommands';
import type { UserMessages } from '../common/userMessages';
import type { ServerLaunch } from '../core/agents/serverLaunch';
import { EntityService } from '../entities/entityService';
import { FdrefFileSystem } from '../files/fdrefFileSystem';
import { RefSymbolProvider } from '../files/refSymbolProvider';
import { registerBrowsing } from '../files/registerBrowsing';
import { EntityHoverProvider } from '../hover/entityHoverProvider';
import { RefHoverProvider } from '../hover/refHoverProvider';
import { type FdrefLanguageModelTools, registerLanguageModelTools } from '../lmTools/registerLanguageModelTools';
import type { FdrefMcpServerProvider } from '../agents/registerMcpServerProvider';
import { FdrefParticipant } from '../participant/participant';
import { registerSessions } from '../sessions/registerSessions';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { registerTerminal } from '../terminal/registerTerminal';
import type { TerminalEvents } from '../terminal/terminalCapture';
import { registerTree, type SessionTreeProvider } from '../tree/sessionTreeProvider';
import type { TreeNode } from '../tree/treeNodes';
import { WorkspaceWriter } from '../workspace/workspaceWriter';

/** What `activate` returns (src/extension.ts); the integration tests reach the extension's state through it. */
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

/** What activation made that the window's objects use. */
export interface WindowSurfaces {
  readonly messages: UserMessages;
  readonly sessionsView: vscode.TreeView<TreeNode>;
  readonly terminalEvents: TerminalEvents;
  /** Whether the `@fdref` participant was registered (VS Code has the chat API). */
  readonly participant: boolean;
  /** The command ids activation registered: every command here must be one of them. */
  readonly commandIds: readonly string[];
}

/** The window's objects: what activation's providers hand on to, and the integration tests' `FdrefApi`. */
export interface FdrefWindow extends Omit<FdrefApi, 'messages' | 'mcpProvider'> {
  readonly refHover: vscode.HoverProvider;
  readonly entityHover: vscode.HoverProvider;
  readonly symbols: vscode.WorkspaceSymbolProvider;
  runCommand(id: string, args: unknown[]): Promise<unknown>;
  /** How Connect an Agent (and VS Code's MCP client) starts fdref's MCP server. */
  serverLaunch(): Promise<ServerLaunch>;
  /** Saves the sessions this window holds and gives up their writers (see `deactivate`). */
  close(): Promise<void>;
}

/** Builds the long-lived objects; sessions are read from disk on first use. */
export function openWindow(context: vscode.ExtensionContext, surfaces: WindowSurfaces): FdrefWindow {
  const { messages } = surfaces;
  const own = <T extends vscode.Disposable>(disposable: T): T => {
    context.subscriptions.push(disposable);
    return disposable;
  };
  const registry = registerSessions(context, messages);
  const entities = own(new EntityService(messages));
  const fileSystem = own(new FdrefFileSystem(registry, entities));
  const tree = registerTree(context, registry, surfaces.sessionsView);
  const writer = new WorkspaceWriter();
  const { chats, keys, configuration } = registerChat(context, { registry, entities, writer, messages });
  const terminal = registerTerminal(context, registry, messages, surfaces.terminalEvents);
  const services = { registry, writer, messages, tree, entities, fileSystem, chats, keys, configuration, terminal };
  const commands = fdrefCommands(context, services);
  const uncontributed = [...commands.keys()].filter((id) => !surfaces.commandIds.includes(id));
  if (uncontributed.length > 0) throw new Error(`Commands missing from the manifest: ${uncontributed.join(', ')}`);
  registerBrowsing(context, fileSystem, messages);
  return {
    registry,
    tree,
    fileSystem,
    entities,
    chats,
    lmTools: registerLanguageModelTools(context, { registry, writer, messages }),
    participant: surfaces.participant ? own(new FdrefParticipant(registry, messages)) : undefined,
    refHover: new RefHoverProvider(registry),
    entityHover: new EntityHoverProvider(entities),
    symbols: own(new RefSymbolProvider(registry)),
    runCommand: async (id, args) => {
      const command: Command | undefined = commands.get(id);
      if (command === undefined) throw new Error(`fdref has no command ${id}.`);
      return run(command, messages, args);
    },
    serverLaunch: () => agentServerLaunch(context, registry.storeFolder, process.env['PATH']),
    close: async () => {
      try {
        await chats.close(); // an answer being given is recorded as stopped, not left streaming
        await terminal.close(); // keeps what running commands wrote before the sessions close
      } finally {
        await registry.close(); // whatever happened to the terminal's commands
      }
    },
  };
}
