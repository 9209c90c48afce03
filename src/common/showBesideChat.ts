import * as vscode from 'vscode';
import { documentColumn } from '../core/presentation/documentColumn';
import { CHAT_VIEW_TYPE } from './chatViewType';

/** A webview tab's view type as VS Code reports it (`mainThreadWebview-fdref.chat` on the versions tested). */
function isChatTab(tab: vscode.Tab | undefined): boolean {
  const input = tab?.input;
  return (
    input instanceof vscode.TabInputWebview &&
    (input.viewType === CHAT_VIEW_TYPE || input.viewType.endsWith(`-${CHAT_VIEW_TYPE}`))
  );
}

/**
 * The column for a document opened from a chat, or by a command the chat runs: the rule in `documentColumn` over
 * the editor groups as they are now (a chat tab in a group counts when it is that group's active tab).
 */
export function columnBesideChat(): vscode.ViewColumn {
  const activeGroup = vscode.window.tabGroups.activeTabGroup;
  const column = documentColumn(
    vscode.window.tabGroups.all.map((group) => ({
      column: group.viewColumn,
      active: group === activeGroup,
      showsChat: isChatTab(group.activeTab),
    })),
  );
  return column === 'beside' ? vscode.ViewColumn.Beside : column;
}

/** Shows a document where `columnBesideChat` says. */
export function showBesideChat(
  document: vscode.TextDocument | vscode.Uri,
  options: Omit<vscode.TextDocumentShowOptions, 'viewColumn'> = {},
): Thenable<vscode.TextEditor> {
  const shown = { ...options, viewColumn: columnBesideChat() };
  return document instanceof vscode.Uri
    ? vscode.window.showTextDocument(document, shown)
    : vscode.window.showTextDocument(document, shown);
}

/** Opens VS Code's diff editor where `columnBesideChat` says. */
export function diffBesideChat(left: vscode.Uri, right: vscode.Uri, title: string): Thenable<unknown> {
  return vscode.commands.executeCommand('vscode.diff', left, right, title, { viewColumn: columnBesideChat() });
}
