import * as vscode from 'vscode';
import { displayPath, type NamedFolder } from '../core/files/displayPath';

/** The `file:` workspace folders with the names the editor shows for them. */
export function namedWorkspaceFolders(): NamedFolder[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => ({ path: folder.uri.fsPath, name: folder.name }));
}

/**
 * A file as every message names it: relative to its workspace folder (`folder/path` in a window with several),
 * absolute when outside them. Other schemes are named by their URI.
 */
export function shownPath(file: string | vscode.Uri): string {
  if (typeof file !== 'string' && file.scheme !== 'file') return file.toString(true);
  return displayPath(typeof file === 'string' ? file : file.fsPath, namedWorkspaceFolders());
}
