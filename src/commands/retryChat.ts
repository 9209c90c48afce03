import { UserError } from '../common/errors';
import type { ChatPanels } from '../chat/chatPanels';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { chatFromArgumentOrActive } from './chatTarget';

/** Answers a chat's last message again, as the Retry button does, showing the chat (opened if it was not). */
export class RetryChatCommand implements Command {
  readonly id = 'fdref.retryChat';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly chats: ChatPanels,
  ) {}

  /** Resolves to the chat's id once the new answer has ended. */
  async execute(arg?: unknown): Promise<string | undefined> {
    const session = await chatFromArgumentOrActive(this.registry, this.chats, arg, 'Retry Chat');
    if (!session) return undefined;
    const entry = await this.registry.get(session.id);
    if (!entry) throw new UserError(`Chat "${session.name}" could not be read; see the FD Refs output.`);
    const panel = await this.chats.open(entry);
    await panel.retry();
    return panel.chatId;
  }
}
