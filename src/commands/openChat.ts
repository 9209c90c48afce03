import { UserError } from '../common/errors';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { ChatPanels } from '../chat/chatPanels';
import type { Command } from './command';
import { sessionFromArgumentOrPick } from './pickers';

/** Opens a chat session (from the tree, or picked) in its panel. */
export class OpenChatCommand implements Command {
  readonly id = 'fdref.openChat';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly chats: ChatPanels,
  ) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Open Chat');
    if (!session) return undefined;
    if (!session.chat) throw new UserError(`"${session.name}" holds captured refs, not a chat.`);
    const entry = await this.registry.get(session.id);
    if (!entry) throw new UserError(`There is no FD Refs session with id ${session.id}.`);
    return (await this.chats.open(entry)).chatId;
  }
}
