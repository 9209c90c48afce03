import * as vscode from 'vscode';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { SessionTreeProvider } from './sessionTreeProvider';

export const SESSIONS_VIEW = 'fdref.sessions';

/** The sessions view; its items are read from the registry when the view is first shown. */
export function registerTree(context: vscode.ExtensionContext, registry: SessionRegistry): SessionTreeProvider {
  const provider = new SessionTreeProvider(registry);
  context.subscriptions.push(provider, vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: provider, showCollapseAll: true }));
  return provider;
}
