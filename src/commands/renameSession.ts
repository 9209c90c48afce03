import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { Command, CommandServices } from './command';
import { commandArguments } from './commandArguments';
import { sessionFromArgumentOrPick } from './pickers';

/** Renames a session (`{ sessionId, name }` skips the questions). */
export class RenameSessionCommand implements Command {
  readonly id = 'fdref.renameSession';

  constructor(private readonly services: CommandServices) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const entry = await sessionFromArgumentOrPick(this.services.registry, arg, 'Rename Session');
    if (!entry) return undefined;
    const name =
      commandArguments(arg).name ??
      (await vscode.window.showInputBox({
        title: 'Rename Session',
        value: entry.metadata.name,
        validateInput: (value) => (value.trim() === '' ? 'Enter a name' : undefined),
      }));
    if (name === undefined) return undefined;
    if (name.trim() === '') throw new UserError('A session name cannot be empty.');
    await this.services.registry.rename(entry.metadata.id, name.trim());
    return name.trim();
  }
}
