import * as vscode from 'vscode';
import { FDREF_SCHEME } from '../files/fdrefUri';

/** The active editor, or, when that shows a read-only ref (the editor title menu), the first other visible editor. */
export function targetEditor(): vscode.TextEditor | undefined {
  const active = vscode.window.activeTextEditor;
  if (active && active.document.uri.scheme !== FDREF_SCHEME) return active;
  return vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme !== FDREF_SCHEME);
}
