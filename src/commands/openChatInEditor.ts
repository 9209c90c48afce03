import type { ChatPanels } from '../chat/chatPanels';
import type { Command } from './command';

/** Moves the side bar's chat (or the chat whose id is given) to an editor tab; the view then shows a new chat. */
export class OpenChatInEditorCommand implements Command {
  readonly id = 'fdref.openChatInEditor';

  constructor(private readonly chats: ChatPanels) {}

  async execute(chatId?: unknown): Promise<string> {
    return (await this.chats.openInEditor(typeof chatId === 'string' ? chatId : undefined)).chatId;
  }
}
