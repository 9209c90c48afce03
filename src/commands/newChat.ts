import type { Command, CommandServices } from './command';

/** Opens a new chat panel. */
export class NewChatCommand implements Command {
  readonly id = 'fdref.newChat';

  constructor(private readonly services: CommandServices) {}

  async execute(): Promise<string> {
    const panel = await this.services.chats.newChat();
    return panel.chatId;
  }
}
