import { UserError } from '../common/errors';
import type { Command, CommandServices } from './command';
import { sessionFromArgumentOrPick } from './pickers';

/** Opens a chat session (from the tree, or picked) in its panel. */
export class OpenChatCommand implements Command {
  readonly id = 'fdref.openChat';

  constructor(private readonly services: CommandServices) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const entry = await sessionFromArgumentOrPick(this.services.registry, arg, 'Open Chat');
    if (!entry) return undefined;
    if (!entry.chat) throw new UserError(`"${entry.metadata.name}" holds captured refs, not a chat.`);
    return this.services.chats.open(entry).chatId;
  }
}
