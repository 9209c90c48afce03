import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import { languageInfo } from '../core/files/languages';
import { descriptorUri } from '../files/fdrefUri';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { refFromArgumentOrPick } from './pickers';
import { showBesideChat } from '../common/showBesideChat';
import type { UserMessages } from '../common/userMessages';

/** Opens a ref or descriptor as a read-only document in the language of its fence. */
export class OpenRefCommand implements Command {
  readonly id = REF_COMMAND_IDS.open;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Open Ref', this.messages);
    if (!found) return undefined;
    let document = await vscode.workspace.openTextDocument(descriptorUri(found.session, found.descriptor));
    const languageId = languageInfo(found.descriptor.language).languageId;
    // The extension picks the mode already; this covers fences whose extension another language claims.
    if (
      languageId !== undefined &&
      document.languageId !== languageId &&
      (await vscode.languages.getLanguages()).includes(languageId)
    ) {
      document = await vscode.languages.setTextDocumentLanguage(document, languageId);
    }
    return showBesideChat(document, { preview: true });
  }
}
