import * as vscode from 'vscode';
import { ToolError } from '../core/tools/toolError';
import { errorMessage, UserError } from '../common/errors';
import { AddEntityReferencesCommand } from './addEntityReferences';
import { AppendRefCommand } from './appendRef';
import { BrowseAsFilesCommand } from './browseAsFiles';
import { CaptureClipboardCommand } from './captureClipboard';
import { CaptureSelectionCommand } from './captureSelection';
import type { Command, CommandServices } from './command';
import { CompareRefWithPreviousCommand } from './compareRefWithPrevious';
import { CopyRefCommand } from './copyRef';
import { DeleteSessionCommand } from './deleteSession';
import { ExportRefCommand } from './exportRef';
import { InsertRefAtCursorCommand } from './insertRefAtCursor';
import { InsertRefAtLineCommand } from './insertRefAtLine';
import { NewChatCommand } from './newChat';
import { OpenChatCommand } from './openChat';
import { OpenEntityCommand } from './openEntity';
import { OpenRefCommand } from './openRef';
import { RefreshEntityCommand } from './refreshEntity';
import { RefreshSessionsCommand } from './refreshSessions';
import { RenameSessionCommand } from './renameSession';
import { SetApiKeyCommand } from './setApiKey';

/** Every command of the extension, registered in one place. */
export function registerCommands(context: vscode.ExtensionContext, services: CommandServices): void {
  const commands: Command[] = [
    new CaptureSelectionCommand(services),
    new CaptureClipboardCommand(services),
    new BrowseAsFilesCommand(),
    new OpenRefCommand(services),
    new CopyRefCommand(services),
    new CompareRefWithPreviousCommand(services),
    new ExportRefCommand(services),
    new AppendRefCommand(services),
    new InsertRefAtCursorCommand(services),
    new InsertRefAtLineCommand(services),
    new DeleteSessionCommand(services),
    new RenameSessionCommand(services),
    new RefreshSessionsCommand(services),
    new OpenEntityCommand(),
    new RefreshEntityCommand(services),
    new AddEntityReferencesCommand(services),
    new NewChatCommand(services),
    new OpenChatCommand(services),
    new SetApiKeyCommand(services),
  ];
  for (const command of commands) {
    context.subscriptions.push(vscode.commands.registerCommand(command.id, (...args: unknown[]) => run(command, services, args)));
  }
}

/** A failure becomes an error notification (not a rejected command), and the command returns undefined. */
async function run(command: Command, services: CommandServices, args: unknown[]): Promise<unknown> {
  try {
    return await command.execute(...args);
  } catch (error) {
    const expected = error instanceof UserError || error instanceof ToolError;
    void services.messages.error(expected ? errorMessage(error) : `FD Refs: ${command.id} failed: ${errorMessage(error)}`);
    return undefined;
  }
}
