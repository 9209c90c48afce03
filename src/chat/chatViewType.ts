/** The chat panels' webview type (`onWebviewPanel:fdref.chat` in package.json; the serializer restores them). */
export const CHAT_VIEW_TYPE = 'fdref.chat';

/** What the webview keeps with `setState`; VS Code hands it back when it restores the panel. */
export interface ChatViewState {
  readonly chatId?: string;
}
