import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { commandArguments } from './commandArguments';
import { sessionFromArgumentOrPick } from './pickers';

/** Renames a session (`{ sessionId, name }` skips the questions). */
export class RenameSessionCommand implements Command {
  readonly id = 'fdref.renameSession';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Rename Session');
    if (!session) return undefined;
    const name =
      commandArguments(arg).name ??
      (await vscode.window.showInputBox({
        title: 'Rename Session',
        value: session.name,
        validateInput: (value) => (value.trim() === '' ? 'Enter a name' : undefined),
      }));
    if (name === undefined) return undefined;
    if (name.trim() === '') throw new UserError('A session name cannot be empty.');
    await this.registry.rename(session.id, name.trim());
    return name.trim();
  }
}
