import type { ChatPanels } from '../chat/chatPanels';
import type { Command } from './command';

/** Opens a new chat panel. */
export class NewChatCommand implements Command {
  readonly id = 'fdref.newChat';

  constructor(private readonly chats: ChatPanels) {}

  async execute(): Promise<string> {
    const panel = await this.chats.newChat();
    return panel.chatId;
  }
}
