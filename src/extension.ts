import type * as vscode from 'vscode';
import { registerLazyCommands } from './activation/lazyCommands';
import { registerLazyChatViews, registerLazyParticipant, registerLazyTools } from './activation/lazyChat';
import {
  registerLazyFileSystem,
  registerLazyHovers,
  registerLazyRetention,
  registerLazySymbols,
  registerLazyTree,
} from './activation/lazyProviders';
import { LazyWindow } from './activation/lazyWindow';
import { lazyTerminalEvents } from './activation/terminalEvents';
import { UserMessages } from './common/userMessages';
import { type FdrefMcpServerProvider, registerMcpServerProvider } from './agents/registerMcpServerProvider';
import type { FdrefApi } from './window/fdrefWindow';

export type { FdrefApi };

let window: LazyWindow | undefined;

/**
 * Registers every surface VS Code may ask for, as stand-ins: fdref's objects (`LazyWindow`, dist/window.js) are built
 * when the window first uses one, so a window that does not use fdref pays only for this file.
 */
export function activate(context: vscode.ExtensionContext): FdrefApi {
  const messages = new UserMessages();
  context.subscriptions.push(messages);
  const lazy = (window = new LazyWindow(context));
  lazy.surfaces = {
    messages,
    terminalEvents: lazyTerminalEvents(context, lazy),
    sessionsView: registerLazyTree(context, lazy),
    commandIds: registerLazyCommands(context, lazy),
    participant: registerLazyParticipant(context, lazy),
  };
  registerLazyRetention(context, lazy, messages);
  registerLazyFileSystem(context, lazy);
  registerLazyHovers(context, lazy);
  registerLazySymbols(context, lazy);
  registerLazyChatViews(context, lazy);
  registerLazyTools(context, lazy);
  const mcpProvider = registerMcpServerProvider(context, { launch: () => lazy.get().serverLaunch(), messages });
  return windowApi(lazy, messages, mcpProvider);
}

/** The tests' view of the window: reading any of its objects builds them. */
function windowApi(lazy: LazyWindow, messages: UserMessages, mcpProvider: FdrefMcpServerProvider): FdrefApi {
  return {
    messages,
    mcpProvider,
    get registry() {
      return lazy.get().registry;
    },
    get tree() {
      return lazy.get().tree;
    },
    get fileSystem() {
      return lazy.get().fileSystem;
    },
    get entities() {
      return lazy.get().entities;
    },
    get chats() {
      return lazy.get().chats;
    },
    get lmTools() {
      return lazy.get().lmTools;
    },
    get participant() {
      return lazy.get().participant;
    },
  };
}

/** Saves the sessions this window holds and gives up their writers, so another window or agent can take them. */
export async function deactivate(): Promise<void> {
  if (window?.isLoaded) await window.get().close();
}
