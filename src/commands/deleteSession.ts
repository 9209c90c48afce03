import type { UserMessages } from '../common/userMessages';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { commandArguments } from './commandArguments';
import { sessionFromArgumentOrPick } from './pickers';

/** Deletes a session and its files after a modal confirmation (skipped with `{ confirmed: true }`). */
export class DeleteSessionCommand implements Command {
  readonly id = 'fdref.deleteSession';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<boolean> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Delete Session');
    if (!session) return false;
    if (commandArguments(arg).confirmed !== true) {
      const refs = (await this.registry.reader(session.id))?.refs().length ?? 0;
      const answer = await this.messages.ask(
        'warning',
        `Delete session "${session.name}" with its ${refs} ${refs === 1 ? 'ref' : 'refs'}?`,
        'This cannot be undone.',
        'Delete',
      );
      if (answer !== 'Delete') return false;
    }
    await this.registry.delete(session.id);
    return true;
  }
}
