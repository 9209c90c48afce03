import * as vscode from 'vscode';
import type { LazyWindow } from './lazyWindow';

/**
 * Every command the manifest contributes, registered at activation by id; the first one run builds the window's
 * objects, and each runs there (`FdrefWindow.runCommand`, which also says that every command it has is contributed).
 */
export function registerLazyCommands(context: vscode.ExtensionContext, window: LazyWindow): readonly string[] {
  const manifest = context.extension.packageJSON as { contributes?: { commands?: { command: string }[] } };
  const ids = (manifest.contributes?.commands ?? []).map((contributed) => contributed.command);
  for (const id of ids) {
    context.subscriptions.push(
      vscode.commands.registerCommand(id, (...args: unknown[]) => window.get().runCommand(id, args)),
    );
  }
  return ids;
}
