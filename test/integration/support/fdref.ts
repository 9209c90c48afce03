import * as vscode from 'vscode';
import type { FdrefApi } from '../../../src/extension';
import type { SessionEntry } from '../../../src/sessions/sessionEntry';

/** The running extension's test API (activating it if needed). */
export async function fdref(): Promise<FdrefApi> {
  const extension = vscode.extensions.getExtension<FdrefApi>('fdref.fdref');
  if (!extension) throw new Error('The fdref.fdref extension is not installed in this VS Code');
  return extension.activate();
}

let counter = 0;

/** An id no other test uses, so lookups across sessions cannot find another test's ref. */
export function uniqueId(prefix: string): string {
  counter += 1;
  return `${prefix}_${Date.now().toString(36)}_${counter}`;
}

/** A new session holding the refs of `message`. */
export async function sessionWith(message: string, name = 'Test session'): Promise<SessionEntry> {
  const api = await fdref();
  const entry = await api.registry.create(name, { kind: 'chat' });
  await api.registry.ingest(entry.metadata.id, message);
  return entry;
}

/** A ref block with a fenced body. */
export function refBlock(id: string, language: string, body: string): string {
  return `<ref id="${id}">\n\`\`\`${language}\n${body}\n\`\`\`\n</ref>`;
}

/** The first workspace folder (a temporary copy of test/fixtures/workspace). */
export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
  if (!folder) throw new Error('The integration tests need a workspace folder');
  return folder.uri;
}

export function inWorkspace(relative: string): vscode.Uri {
  return vscode.Uri.joinPath(workspaceRoot(), ...relative.split('/'));
}

export async function readText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** Polls `check` until it returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(
  check: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 5000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The notifications the extension showed from `mark` on. */
export async function messagesSince(mark: number): Promise<readonly { level: string; text: string }[]> {
  return (await fdref()).messages.since(mark);
}

export async function messageMark(): Promise<number> {
  return (await fdref()).messages.mark;
}

/** Closes every editor, discarding untitled text (closing it plainly would ask to save, and wait forever). */
export async function closeAllEditors(): Promise<void> {
  for (let i = 0; i < 100 && vscode.window.tabGroups.all.some((g) => g.tabs.length > 0); i++) {
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    if (!vscode.window.tabGroups.activeTabGroup.activeTab)
      await vscode.commands.executeCommand('workbench.action.focusNextGroup');
  }
}

/**
 * Moves the keyboard focus to the workbench page itself (its status bar). In the web workbench the clipboard is the
 * browser's, which refuses to read or write while the focus is inside a webview (a chat): the copy is lost and a
 * read gives ''. Desktop VS Code has no such rule; call this before a test copies and reads the clipboard.
 */
export async function focusWorkbench(): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.focusStatusBar');
}
