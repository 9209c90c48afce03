/**
 * The providers VS Code may call from the start (the `fdref:` files, the sessions view, hovers, workspace symbols),
 * registered at activation as stand-ins that build the window's objects (`LazyWindow`) on their first real call and
 * hand every call on to them. Their events are VS Code's from registration on, so each stand-in owns an emitter
 * that repeats the real provider's events once it exists.
 */
import * as vscode from 'vscode';
import { findEntityIdsInText } from '../core/entities/findEntityIdsInText';
import { idsAtOffset } from '../core/refs/idAtPosition';
import { SESSION_SETTINGS } from '../core/settings/sessionSettings';
import type { UserMessages } from '../common/userMessages';
import { FDREF_SCHEME } from '../files/fdrefUri';
import { SESSIONS_VIEW, type TreeNode } from '../tree/treeNodes';
import type { FdrefWindow } from '../window/fdrefWindow';
import type { LazyWindow } from './lazyWindow';

/** Repeats `source`'s events on `target` for as long as the extension runs. */
function repeat<T>(context: vscode.ExtensionContext, source: vscode.Event<T>, target: vscode.EventEmitter<T>): void {
  context.subscriptions.push(source((event) => target.fire(event)));
}

/** The `fdref:` file system (read-only); a window whose workspace holds an `fdref:` folder builds it at once. */
export function registerLazyFileSystem(context: vscode.ExtensionContext, window: LazyWindow): void {
  const changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  window.onLoad((w) => repeat(context, w.fileSystem.onDidChangeFile, changed));
  const fs = (): vscode.FileSystemProvider => window.get().fileSystem;
  const provider: vscode.FileSystemProvider = {
    onDidChangeFile: changed.event,
    watch: (uri, options) => fs().watch(uri, options),
    stat: (uri) => fs().stat(uri),
    readDirectory: (uri) => fs().readDirectory(uri),
    readFile: (uri) => fs().readFile(uri),
    createDirectory: (uri) => fs().createDirectory(uri),
    writeFile: (uri, content, options) => fs().writeFile(uri, content, options),
    delete: (uri, options) => fs().delete(uri, options),
    rename: (from, to, options) => fs().rename(from, to, options),
  };
  context.subscriptions.push(
    changed,
    vscode.workspace.registerFileSystemProvider(FDREF_SCHEME, provider, { isReadonly: true, isCaseSensitive: true }),
  );
  // Browse as Files: the Explorer lists the sessions and the editors kept across its reload open again now.
  if ((vscode.workspace.workspaceFolders ?? []).some((folder) => folder.uri.scheme === FDREF_SCHEME)) window.get();
}

/** The sessions view; VS Code asks for its items only once it is shown. Returns the view for the window's objects. */
export function registerLazyTree(context: vscode.ExtensionContext, window: LazyWindow): vscode.TreeView<TreeNode> {
  const changed = new vscode.EventEmitter<TreeNode | undefined>();
  window.onLoad((w) => repeat(context, w.tree.onDidChangeTreeData, changed));
  const tree = (): FdrefWindow['tree'] => window.get().tree;
  const provider: vscode.TreeDataProvider<TreeNode> = {
    onDidChangeTreeData: changed.event,
    getChildren: (node) => tree().getChildren(node),
    getTreeItem: (node) => tree().getTreeItem(node),
    getParent: (node) => tree().getParent(node),
  };
  const view = vscode.window.createTreeView(SESSIONS_VIEW, { treeDataProvider: provider, showCollapseAll: true });
  context.subscriptions.push(changed, view);
  return view;
}

/**
 * Hovers over `ref:x` / `fd:N` and over Structs entity ids (`2-1`) in any text. A line holding neither is answered
 * here, so hovering in an ordinary file builds nothing.
 */
export function registerLazyHovers(context: vscode.ExtensionContext, window: LazyWindow): void {
  const hover = (
    holdsId: (line: string, character: number) => boolean,
    provider: () => vscode.HoverProvider,
  ): vscode.HoverProvider => ({
    provideHover: (document, position, token) =>
      holdsId(document.lineAt(position.line).text, position.character)
        ? provider().provideHover(document, position, token)
        : undefined,
  });
  const files = (schemes: string[]) => schemes.map((scheme) => ({ scheme, language: '*' }));
  context.subscriptions.push(
    vscode.languages.registerHoverProvider(
      files(['file', 'untitled']),
      hover(
        (line, character) => idsAtOffset(line, character).length > 0,
        () => window.get().refHover,
      ),
    ),
    vscode.languages.registerHoverProvider(
      files(['file', 'untitled', FDREF_SCHEME]),
      hover(
        (line, character) => findEntityIdsInText(line).some((id) => id.start <= character && character <= id.end),
        () => window.get().entityHover,
      ),
    ),
  );
}

/** Refs as workspace symbols (Go to Symbol in Workspace). */
export function registerLazySymbols(context: vscode.ExtensionContext, window: LazyWindow): void {
  context.subscriptions.push(
    vscode.languages.registerWorkspaceSymbolProvider({
      provideWorkspaceSymbols: (query, token) => window.get().symbols.provideWorkspaceSymbols(query, token),
    }),
  );
}

/**
 * A retention setting (`fdref.sessions.*`) changed before the window used fdref: the store is pruned now, as the
 * window's own listener (`registerSessions`) does once it exists.
 */
export function registerLazyRetention(
  context: vscode.ExtensionContext,
  window: LazyWindow,
  messages: UserMessages,
): void {
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (window.isLoaded || !event.affectsConfiguration(SESSION_SETTINGS.section)) return;
      window
        .get()
        .registry.applyRetention()
        .catch((error: unknown) => messages.log.warn(`FD Refs could not apply the retention limits: ${String(error)}`));
    }),
  );
}
