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
    const entry = await sessionFromArgumentOrPick(this.registry, arg, 'Open Chat');
    if (!entry) return undefined;
    if (!entry.chat) throw new UserError(`"${entry.metadata.name}" holds captured refs, not a chat.`);
    return this.chats.open(entry).chatId;
  }
}
