import { UserError } from '../common/errors';
import type { ChatPanels } from '../chat/chatPanels';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { chatFromArgumentOrActive, withChatEntry } from './chatTarget';

/** Forks a whole chat into a new one with its refs and descriptors, as the Fork button does at its last message. */
export class ForkChatCommand implements Command {
  readonly id = 'fdref.forkChat';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly chats: ChatPanels,
  ) {}

  /** Resolves to the new chat's id. */
  async execute(arg?: unknown): Promise<string | undefined> {
    const session = await chatFromArgumentOrActive(this.registry, this.chats, arg, 'Fork Chat');
    if (!session) return undefined;
    if (this.chats.get(session.id)?.busy === true)
      throw new UserError(`"${session.name}" is still answering: fork it when the answer has ended, or stop it.`);
    return withChatEntry(this.registry, this.chats, session, async (entry) => {
      const messages = entry.chat?.messages ?? [];
      if (messages.length === 0) throw new UserError(`"${session.name}" has no messages to fork yet.`);
      return (await this.chats.fork(entry, structuredClone(messages))).chatId;
    });
  }
}
