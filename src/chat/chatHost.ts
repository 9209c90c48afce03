import * as vscode from 'vscode';

/**
 * Where a chat is shown: an editor tab (a `WebviewPanel`) or the Chat view in the FD Refs side bar (a
 * `WebviewView`, which shows one chat at a time). `ChatPanel` works with either through this.
 */
export interface ChatHost {
  readonly kind: 'editor' | 'view';
  readonly webview: vscode.Webview;
  /** The tab's column; undefined in the side bar. */
  readonly viewColumn: vscode.ViewColumn | undefined;
  /** The chat's name: the tab's title, or the description beside the view's title. */
  setTitle(title: string): void;
  /** A tab: whether it has the focus. The view: whether it shows (a view has no focus of its own to tell). */
  readonly active: boolean;
  /** Shows the chat and gives it the focus. */
  reveal(): void;
  /** Fires when the tab is closed or the view goes away (moved, or the window closing): it shows nothing any more. */
  readonly onDidClose: vscode.Event<void>;
  /** Lets go of the chat: a tab closes; the view stays, blank until another chat is put in it. */
  release(): void;
}

/** A chat in an editor tab. */
export function editorHost(panel: vscode.WebviewPanel, iconPath: vscode.Uri): ChatHost {
  panel.iconPath = iconPath;
  return {
    kind: 'editor',
    webview: panel.webview,
    get viewColumn() {
      return panel.viewColumn;
    },
    get active() {
      return panel.active;
    },
    setTitle: (title) => {
      panel.title = title;
    },
    reveal: () => {
      panel.reveal();
    },
    onDidClose: panel.onDidDispose,
    release: () => {
      panel.dispose();
    },
  };
}

/** A chat in the side bar's Chat view. */
export function viewHost(view: vscode.WebviewView): ChatHost {
  let gone = false;
  view.onDidDispose(() => (gone = true));
  return {
    kind: 'view',
    webview: view.webview,
    viewColumn: undefined,
    get active() {
      return !gone && view.visible;
    },
    setTitle: (title) => (view.description = title),
    reveal: () => view.show(false),
    onDidClose: view.onDidDispose,
    release: () => {
      if (gone) return;
      view.description = '';
      view.webview.options = { enableScripts: false, enableCommandUris: ['fdref.newChat', 'fdref.openChat'] };
      view.webview.html = NO_CHAT_HTML;
    },
  };
}

/** What the view shows once its chat is gone (its session deleted, say) until another is put in it. */
const NO_CHAT_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>body { padding: 8px 12px; } a { color: var(--vscode-textLink-foreground); }</style></head>
<body><p>No chat is shown here.</p>
<p><a href="command:fdref.newChat">New Chat</a> or <a href="command:fdref.openChat">Open Chat…</a></p></body></html>`;
