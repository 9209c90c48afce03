import * as vscode from 'vscode';
import { isEntityId } from '../core';
import { quoteInput } from '../core/quoteInput';
import { UserError } from '../common/errors';
import { entityUri } from '../files/fdrefUri';
import type { Command } from './command';

/** Opens a Structs entity as a read-only JSON document with its references. */
export class OpenEntityCommand implements Command {
  readonly id = 'fdref.openEntity';

  async execute(arg?: unknown): Promise<vscode.TextEditor | undefined> {
    const id =
      typeof arg === 'string'
        ? arg
        : await vscode.window.showInputBox({ title: 'Open Structs Entity', prompt: 'An entity id such as 2-1' });
    if (id === undefined) return undefined;
    if (!isEntityId(id)) {
      throw new UserError(
        `${quoteInput(id)} is not a Structs entity id: ids look like 2-1 (type code 0-11, then an index from 1).`,
      );
    }
    const document = await vscode.workspace.openTextDocument(entityUri(id));
    return vscode.window.showTextDocument(document, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  }
}
