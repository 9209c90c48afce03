import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { commandArguments } from './commandArguments';
import { sessionFromArgumentOrPick } from './pickers';
import { sessionNameProblem, sessionsByName } from './inputValidation';

/** Renames a session (`{ sessionId, name }` skips the questions). */
export class RenameSessionCommand implements Command {
  readonly id = 'fdref.renameSession';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const session = await sessionFromArgumentOrPick(this.registry, arg, 'Rename Session');
    if (!session) return undefined;
    const others = sessionsByName(await this.registry.list());
    const name =
      commandArguments(arg).name ??
      (await vscode.window.showInputBox({
        title: `Rename Session "${session.name}"`,
        value: session.name,
        validateInput: (value) => sessionNameProblem(value, session, others),
      }));
    if (name === undefined) return undefined;
    const problem = sessionNameProblem(name, session, sessionsByName(await this.registry.list()));
    if (problem !== undefined) throw new UserError(problem);
    await this.registry.rename(session.id, name.trim());
    return name.trim();
  }
}
