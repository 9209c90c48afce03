/** The chat panels' webview type (`onWebviewPanel:fdref.chat` in package.json; the serializer restores them). */
export const CHAT_VIEW_TYPE = 'fdref.chat';

/** The chat's webview view in the FD Refs side bar (package.json `contributes.views`). */
export const CHAT_VIEW_ID = 'fdref.chatView';

/**
 * The workspace state key of the chat the side bar's view shows, shown again when VS Code restores the view (a reload,
 * the view hidden and shown): per workspace, so another window never takes this one's chat. Cleared when the chat
 * leaves the view (moved to a tab, deleted); the view's own webview state is not used, as nothing clears it when the
 * view's chat moves away. Browse as Files writes it for the workspace its reload opens.
 */
export const LAST_VIEW_CHAT = 'fdref.chatView.chatId';

/** What the webview keeps with `setState`; VS Code hands it back when it restores the panel or the view. */
export interface ChatViewState {
  readonly chatId?: string;
}
