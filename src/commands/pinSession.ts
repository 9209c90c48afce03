import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { sessionFromArgumentOrPick } from './pickers';

/** Pins a session: the retention settings never remove it. Resolves to whether it is pinned now. */
export class PinSessionCommand implements Command {
  readonly id = 'fdref.pinSession';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown): Promise<boolean | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Pin Session');
    if (!session) return undefined;
    return (await this.registry.setPinned(session.id, true)).pinned;
  }
}

/** Unpins a session: retention may remove it again once it is past the limits. Resolves to whether it is pinned now. */
export class UnpinSessionCommand implements Command {
  readonly id = 'fdref.unpinSession';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown): Promise<boolean | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Unpin Session');
    if (!session) return undefined;
    return (await this.registry.setPinned(session.id, false)).pinned;
  }
}
