import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { FDREF_SCHEME } from '../files/fdrefUri';
import type { Command } from './command';

/**
 * Removes the `fdref:/` folder Browse as Files added. The window stays the workspace it is (VS Code does not load
 * it again for a folder removed); its other folders and editors stay open.
 */
export class StopBrowsingAsFilesCommand implements Command {
  readonly id = 'fdref.stopBrowsingAsFiles';

  execute(): boolean {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const index = folders.findIndex((f) => f.uri.scheme === FDREF_SCHEME);
    if (index === -1) throw new UserError('The FD Refs folder is not in this workspace: there is nothing to stop.');
    if (!vscode.workspace.updateWorkspaceFolders(index, 1))
      throw new UserError('VS Code did not remove the FD Refs folder from the workspace.');
    return true;
  }
}
