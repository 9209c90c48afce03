import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { retentionLimits, SESSION_SETTINGS } from '../core/settings/sessionSettings';
import type { UserMessages } from '../common/userMessages';
import { WatchedSettings } from '../common/watchedSettings';
import { SessionRegistry } from './sessionRegistry';
import { SessionStore } from './sessionStore';

/**
 * The registry over this workspace's session store (see `workspaceKey`). Reads nothing yet; the retention
 * settings are applied when the store is first opened and again whenever they change.
 */
export function registerSessions(context: vscode.ExtensionContext, messages: UserMessages): SessionRegistry {
  const key = workspaceKey();
  const storage = context.globalStorageUri;
  const settings = new WatchedSettings(SESSION_SETTINGS, messages);
  const location = new SessionStore(
    vscode.Uri.joinPath(storage, 'store', key).fsPath,
    vscode.Uri.joinPath(storage, 'sessions', key).fsPath,
  );
  const registry = new SessionRegistry(location, messages, () => retentionLimits(settings.settings));
  context.subscriptions.push(
    settings,
    registry,
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (!event.affectsConfiguration(SESSION_SETTINGS.section)) return;
      registry
        .applyRetention()
        .catch((error: unknown) => messages.log.warn(`FD Refs could not apply the retention limits: ${String(error)}`));
    }),
  );
  return registry;
}

/**
 * Names this workspace's store: a hash of the first workspace folder (`global` when none is open). Not
 * `context.storageUri`: that changes when a single-folder window becomes a multi-root workspace (as `Browse as
 * Files` makes it), and the sessions would seem lost.
 */
function workspaceKey(): string {
  const first = vscode.workspace.workspaceFolders?.find((folder) => folder.uri.scheme !== 'fdref');
  return first ? createHash('sha256').update(first.uri.toString()).digest('hex').slice(0, 16) : 'global';
}
