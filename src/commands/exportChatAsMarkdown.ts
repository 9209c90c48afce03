import type * as vscode from 'vscode';
import type { ChatPanels } from '../chat/chatPanels';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { chatFromArgumentOrActive, withChatEntry } from './chatTarget';

/** Opens a chat as Markdown in an untitled document, as the Export button does. */
export class ExportChatAsMarkdownCommand implements Command {
  readonly id = 'fdref.exportChatAsMarkdown';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly chats: ChatPanels,
  ) {}

  /** Resolves to the document opened. */
  async execute(arg?: unknown): Promise<vscode.TextDocument | undefined> {
    const session = await chatFromArgumentOrActive(this.registry, this.chats, arg, 'Export Chat as Markdown');
    if (!session) return undefined;
    return withChatEntry(this.registry, this.chats, session, (entry) => this.chats.exportMarkdown(entry));
  }
}
