import type * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import { AddEntityReferencesCommand } from './addEntityReferences';
import { AppendRefCommand } from './appendRef';
import { ApplyRefToSymbolCommand } from './applyRefToSymbol';
import { BrowseAsFilesCommand } from './browseAsFiles';
import { CaptureClipboardCommand } from './captureClipboard';
import { CaptureSelectionCommand } from './captureSelection';
import { ChooseChatToolsCommand } from './chooseChatTools';
import type { Command, CommandServices } from './command';
import { CompareRefWithPreviousCommand } from './compareRefWithPrevious';
import { CompareWithCommand } from './compareWith';
import { ConnectAgentCommand } from '../agents/connectAgent';
import { CopyRefCommand } from './copyRef';
import { DeleteSessionCommand } from './deleteSession';
import { ExportChatAsMarkdownCommand } from './exportChatAsMarkdown';
import { ExportRefCommand } from './exportRef';
import { ForkChatCommand } from './forkChat';
import { FocusChatCommand } from './focusChat';
import { InsertRefAtCursorCommand } from './insertRefAtCursor';
import { InsertRefAtLineCommand } from './insertRefAtLine';
import { KeepLastTerminalOutputCommand } from './keepLastTerminalOutput';
import { NewChatCommand } from './newChat';
import { OpenChatCommand } from './openChat';
import { OpenChatInEditorCommand } from './openChatInEditor';
import { OpenEntityCommand } from './openEntity';
import { OpenRefCommand } from './openRef';
import { SetPinnedCommand } from './pinSession';
import { RefreshEntityCommand } from './refreshEntity';
import { RefreshSessionsCommand } from './refreshSessions';
import { RenameSessionCommand } from './renameSession';
import { RetryChatCommand } from './retryChat';
import { SearchKeptOutputCommand } from './searchKeptOutput';
import { SetApiKeyCommand } from './setApiKey';
import { ShowStoreUsageCommand } from './showStoreUsage';
import { StopBrowsingAsFilesCommand } from './stopBrowsingAsFiles';
import { ScratchDocuments } from '../symbols/scratchDocuments';

/**
 * Every command of the extension, by id. Activation registers each id the manifest contributes
 * (src/activation/lazyCommands.ts); running one builds the window's objects and runs it here.
 */
export function fdrefCommands(
  context: vscode.ExtensionContext,
  services: CommandServices,
): ReadonlyMap<string, Command> {
  const { registry, writer, messages, tree, entities, fileSystem, chats, keys, configuration, terminal } = services;
  const connectAgent = new ConnectAgentCommand(context, () => registry.storeFolder, messages);
  const scratch = new ScratchDocuments();
  context.subscriptions.push(scratch);
  const commands: Command[] = [
    new CaptureSelectionCommand(registry, messages),
    new CaptureClipboardCommand(registry, messages),
    new BrowseAsFilesCommand(context.globalState, messages, () => ({
      tabs: chats.all.filter((panel) => panel.host?.kind === 'editor').map((panel) => panel.chatId),
      view: chats.inView?.chatId,
    })),
    new StopBrowsingAsFilesCommand(),
    new OpenRefCommand(registry, messages),
    new CopyRefCommand(registry, messages),
    new CompareRefWithPreviousCommand(registry, messages),
    new CompareWithCommand(registry),
    new ExportRefCommand(registry, writer, messages),
    new AppendRefCommand(registry, writer, messages),
    new InsertRefAtCursorCommand(registry, messages),
    new InsertRefAtLineCommand(registry, writer, messages),
    new ApplyRefToSymbolCommand(registry, writer, scratch, messages),
    new DeleteSessionCommand(registry, messages),
    new RenameSessionCommand(registry),
    new SetPinnedCommand(registry, true),
    new SetPinnedCommand(registry, false),
    new ShowStoreUsageCommand(registry, messages),
    new SearchKeptOutputCommand(registry),
    new RefreshSessionsCommand(tree),
    new OpenEntityCommand(),
    new RefreshEntityCommand(entities, fileSystem, messages),
    new AddEntityReferencesCommand(entities),
    new NewChatCommand(chats),
    new OpenChatCommand(registry, chats),
    new ForkChatCommand(registry, chats),
    new RetryChatCommand(registry, chats),
    new ExportChatAsMarkdownCommand(registry, chats),
    new OpenChatInEditorCommand(chats),
    new FocusChatCommand(chats),
    new ChooseChatToolsCommand(messages),
    new SetApiKeyCommand(configuration, keys, messages),
    connectAgent,
    connectAgent.disconnectCommand(),
    new KeepLastTerminalOutputCommand(terminal, messages),
  ];
  return new Map(commands.map((command) => [command.id, command]));
}

/** A failure becomes an error notification (not a rejected command), and the command returns undefined. */
export async function run(command: Command, messages: UserMessages, args: unknown[]): Promise<unknown> {
  try {
    return await command.execute(...args);
  } catch (error) {
    void messages.failure(command.id, error);
    return undefined;
  }
}
