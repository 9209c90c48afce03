import type { SessionTreeProvider } from '../tree/sessionTreeProvider';
import type { Command } from './command';

/** Redraws the sessions view. */
export class RefreshSessionsCommand implements Command {
  readonly id = 'fdref.refreshSessions';

  constructor(private readonly tree: SessionTreeProvider) {}

  execute(): void {
    this.tree.refresh();
  }
}
