import * as vscode from 'vscode';
import { FDREF_SCHEME } from '../files/fdrefUri';

/**
 * The active editor, or, when that shows a read-only ref (the editor title menu), the first other visible editor of
 * the editor area. Editors outside it (no column: the refactor preview's diff in the panel) are never the target.
 */
export function targetEditor(): vscode.TextEditor | undefined {
  const usable = (e: vscode.TextEditor): boolean =>
    e.document.uri.scheme !== FDREF_SCHEME && e.viewColumn !== undefined;
  const active = vscode.window.activeTextEditor;
  if (active && usable(active)) return active;
  return vscode.window.visibleTextEditors.find(usable);
}
