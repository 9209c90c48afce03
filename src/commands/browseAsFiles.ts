import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { FDREF_ROOT, FDREF_SCHEME } from '../files/fdrefUri';
import type { Command } from './command';

/** Adds `fdref:/` to the workspace, so the Explorer, search and Quick Open see the refs as files. */
export class BrowseAsFilesCommand implements Command {
  readonly id = 'fdref.browseAsFiles';

  execute(): boolean {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.some((f) => f.uri.scheme === FDREF_SCHEME)) {
      void vscode.commands.executeCommand('workbench.view.explorer');
      return true;
    }
    const added = vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: FDREF_ROOT, name: 'FD Refs' });
    if (!added) throw new UserError('VS Code did not add the FD Refs folder to the workspace.');
    return true;
  }
}
