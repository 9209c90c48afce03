import * as vscode from 'vscode';
import { errorMessage } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import type { FdrefFileSystem } from './fdrefFileSystem';
import { FDREF_SCHEME } from './fdrefUri';
import { reopenKeptEditors } from './keptEditors';

/**
 * In a window that browses the sessions as files (`fdref:/` is a workspace folder, after Browse as Files): the
 * Explorer is told of the sessions' folders, and the editors kept before the reload are opened again. Nothing is
 * done, or read, in other windows.
 */
export function registerBrowsing(
  context: vscode.ExtensionContext,
  fileSystem: FdrefFileSystem,
  messages: UserMessages,
): void {
  if (!(vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === FDREF_SCHEME)) return;
  fileSystem
    .announceSessions()
    .catch((error: unknown) =>
      messages.log.warn(`FD Refs could not list the sessions for the Explorer: ${errorMessage(error)}`),
    );
  reopenKeptEditors(context.globalState, context.workspaceState, messages).catch((error: unknown) =>
    messages.log.warn(`FD Refs could not open the editors kept before the reload: ${errorMessage(error)}`),
  );
}
