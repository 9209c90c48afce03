import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import { SessionRegistry } from './sessionRegistry';
import { SessionStore } from './sessionStore';

/** The registry over this workspace's session folder (see `sessionFolder`). Reads nothing yet. */
export function registerSessions(context: vscode.ExtensionContext, messages: UserMessages): SessionRegistry {
  const registry = new SessionRegistry(new SessionStore(sessionFolder(context)), messages);
  context.subscriptions.push(registry);
  return registry;
}

/**
 * Where this workspace's sessions are kept: a folder of the extension's storage named after the first
 * workspace folder (`global` when none is open). Not `context.storageUri`: that changes when a
 * single-folder window becomes a multi-root workspace (as `Browse as Files` makes it), and the sessions
 * would seem lost.
 */
function sessionFolder(context: vscode.ExtensionContext): vscode.Uri {
  const first = vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme !== 'fdref');
  const key = first ? createHash('sha256').update(first.uri.toString()).digest('hex').slice(0, 16) : 'global';
  return vscode.Uri.joinPath(context.globalStorageUri, 'sessions', key);
}
