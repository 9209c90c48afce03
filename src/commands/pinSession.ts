import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { sessionFromArgumentOrPick } from './pickers';

/**
 * Pin Session (the retention settings never remove it) or Unpin Session (retention may remove it again once it is
 * past the limits). Resolves to whether the session is pinned now.
 */
export class SetPinnedCommand implements Command {
  readonly id: string;
  private readonly title: string;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly pinned: boolean,
  ) {
    this.id = pinned ? 'fdref.pinSession' : 'fdref.unpinSession';
    this.title = pinned ? 'Pin Session' : 'Unpin Session';
  }

  async execute(arg?: unknown): Promise<boolean | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, this.title);
    if (!session) return undefined;
    return (await this.registry.setPinned(session.id, this.pinned)).pinned;
  }
}
