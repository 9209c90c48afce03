import type { ChatPanels } from '../chat/chatPanels';
import type { Command } from './command';

/** Shows the chat and puts the focus in it: the side bar's Chat view (with its last chat, or a new one). */
export class FocusChatCommand implements Command {
  readonly id = 'fdref.focusChat';

  constructor(private readonly chats: ChatPanels) {}

  async execute(): Promise<string> {
    return (await this.chats.focus()).chatId;
  }
}
