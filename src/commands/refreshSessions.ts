import type { Command, CommandServices } from './command';

/** Redraws the sessions view. */
export class RefreshSessionsCommand implements Command {
  readonly id = 'fdref.refreshSessions';

  constructor(private readonly services: CommandServices) {}

  execute(): void {
    this.services.tree.refresh();
  }
}
