import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { entityUri } from '../files/fdrefUri';
import type { EntityService } from '../entities/entityService';
import type { FdrefFileSystem } from '../files/fdrefFileSystem';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';

/** Fetches an entity again, bypassing the cache, and updates its open document. */
export class RefreshEntityCommand implements Command {
  readonly id = 'fdref.refreshEntity';

  constructor(
    private readonly entities: EntityService,
    private readonly fileSystem: FdrefFileSystem,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    if (typeof arg !== 'string') throw new UserError('Refresh Entity needs an entity id, e.g. 2-1.');
    const entity = await this.entities.resolver.resolve(arg, { refresh: true });
    this.fileSystem.entityChanged(entityUri(arg));
    if (entity.reference_status === 'resolved')
      vscode.window.setStatusBarMessage(`Refreshed ${entity.reference_type} ${arg}`, 3000);
    else void this.messages.error(`Could not refresh ${arg}: ${String(entity.error)}`);
    return entity.reference_status;
  }
}
