import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { entityUri } from '../files/fdrefUri';
import type { Command } from './command';
import { entityIdProblem } from './inputValidation';
import { showBesideChat } from '../common/showBesideChat';

/** Opens a Structs entity as a read-only JSON document with its references. */
export class OpenEntityCommand implements Command {
  readonly id = 'fdref.openEntity';

  async execute(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const id =
      typeof arg === 'string'
        ? arg
        : await vscode.window.showInputBox({
            title: 'Open Structs Entity',
            prompt: 'An entity id such as 2-1',
            validateInput: entityIdProblem,
          });
    if (id === undefined) return undefined;
    const problem = entityIdProblem(id);
    if (problem !== undefined) throw new UserError(problem);
    const document = await vscode.workspace.openTextDocument(entityUri(id.trim()));
    return showBesideChat(document, { preview: true });
  }
}
