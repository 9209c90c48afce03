import * as vscode from 'vscode';
import { CHAT_VIEW_ID, CHAT_VIEW_TYPE, type ChatViewState } from '../common/chatViewType';
import { PARTICIPANT_ID } from '../participant/participantId';
import type { LazyWindow } from './lazyWindow';

/**
 * The chat tabs VS Code restores and the side bar's Chat view: registered at activation, as VS Code asks for them
 * as soon as it shows one; showing one builds the window's objects (and loads the chat's code).
 */
export function registerLazyChatViews(context: vscode.ExtensionContext, window: LazyWindow): void {
  context.subscriptions.push(
    vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, {
      deserializeWebviewPanel: (panel, state: ChatViewState | undefined) =>
        window.get().chats.deserializeWebviewPanel(panel, state),
    }),
    vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, {
      resolveWebviewView: (view, resolveContext: vscode.WebviewViewResolveContext<ChatViewState>) =>
        window.get().chats.resolveWebviewView(view, resolveContext),
    }),
  );
}

/**
 * The `@fdref` participant where VS Code has the chat API; the first question builds the window's objects and its
 * `FdrefParticipant` answers. Returns whether it was registered. VS Code 1.100 has the API but no Chat view, so it
 * is never asked there.
 */
export function registerLazyParticipant(context: vscode.ExtensionContext, window: LazyWindow): boolean {
  const chat = Reflect.get(vscode, 'chat') as Partial<typeof vscode.chat> | undefined;
  if (typeof chat?.createChatParticipant !== 'function') return false;
  const handle = chat.createChatParticipant(PARTICIPANT_ID, (request, chatContext, stream, token) => {
    const participant = window.get().participant;
    if (participant === undefined) throw new Error('The @fdref participant was not built with the window.');
    return participant.answer(request, chatContext, stream, token);
  });
  handle.iconPath = vscode.Uri.joinPath(context.extensionUri, 'media', 'fdref.svg');
  context.subscriptions.push(handle);
  return true;
}

/**
 * fdref's language model tools (`contributes.languageModelTools`), registered at activation by name; the first call
 * builds the window's objects, whose `FdrefLanguageModelTools` holds each tool.
 */
export function registerLazyTools(context: vscode.ExtensionContext, window: LazyWindow): void {
  const manifest = context.extension.packageJSON as { contributes?: { languageModelTools?: { name: string }[] } };
  for (const { name } of manifest.contributes?.languageModelTools ?? []) {
    const tool = (): vscode.LanguageModelTool<unknown> => {
      const registered = window.get().lmTools.tool(name);
      if (registered === undefined) throw new Error(`fdref has no language model tool ${name}.`);
      return registered;
    };
    context.subscriptions.push(
      vscode.lm.registerTool<unknown>(name, {
        prepareInvocation: (options, token) => tool().prepareInvocation?.(options, token),
        invoke: (options, token) => tool().invoke(options, token),
      }),
    );
  }
}
