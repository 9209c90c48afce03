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

/** What the view shows while it has no chat (none shown yet, or its chat moved to a tab or was deleted). */
const NO_CHAT_HTML = `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline';">
<style>
body { padding: 12px; line-height: 1.5; }
a.button { display: block; box-sizing: border-box; width: 100%; max-width: 300px; margin: 8px auto; padding: 4px 8px;
  text-align: center; text-decoration: none; border-radius: 2px; color: var(--vscode-button-foreground);
  background: var(--vscode-button-background); }
a.button:hover { background: var(--vscode-button-hoverBackground); }
a.button.secondary { color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
a.button:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
p { color: var(--vscode-descriptionForeground); }
</style></head>
<body><p>Chat with a model here: its refs and descriptors are kept in the FD Refs sessions below.</p>
<a class="button" href="command:fdref.newChat">New Chat</a>
<a class="button secondary" href="command:fdref.openChat">Open Chat…</a></body></html>`;
