/** The chat panels' webview type (`onWebviewPanel:fdref.chat` in package.json; the serializer restores them). */
export const CHAT_VIEW_TYPE = 'fdref.chat';

/** The chat's webview view in the FD Refs side bar (package.json `contributes.views`). */
export const CHAT_VIEW_ID = 'fdref.chatView';

/** What the webview keeps with `setState`; VS Code hands it back when it restores the panel or the view. */
export interface ChatViewState {
  readonly chatId?: string;
}
