import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import { FDREF_ROOT, FDREF_SCHEME } from '../files/fdrefUri';
import {
  forgetKeptEditors,
  keepEditors,
  MAX_UNTITLED_CHARS,
  reloadImpact,
  untitledTooLarge,
  type ReloadImpact,
} from '../files/keptEditors';
import type { Command } from './command';
import { commandArguments } from './commandArguments';

/** What Browse as Files did: showed the folder already there, added it, or nothing (the user cancelled). */
export type BrowseOutcome = 'shown' | 'added' | 'cancelled';

const CONTINUE = 'Continue';

/**
 * Adds `fdref:/` to the workspace, so the Explorer shows the refs as files. In a window that is not a multi-root
 * workspace, VS Code then loads the window again: the user is warned first (skipped with `{ confirmed: true }`), and
 * the open editors are kept to be opened again after the reload.
 */
export class BrowseAsFilesCommand implements Command {
  readonly id = 'fdref.browseAsFiles';

  constructor(
    private readonly state: vscode.Memento,
    private readonly messages: UserMessages,
    /** The chats in editor tabs, and the side bar view's. */
    private readonly openChats: () => { readonly tabs: readonly string[]; readonly view: string | undefined },
  ) {}

  async execute(arg?: unknown): Promise<BrowseOutcome> {
    const folders = vscode.workspace.workspaceFolders ?? [];
    if (folders.some((f) => f.uri.scheme === FDREF_SCHEME)) {
      await vscode.commands.executeCommand('workbench.view.explorer');
      return 'shown';
    }
    // A folder window (or an empty one) becomes an untitled multi-root workspace, which VS Code opens by loading
    // the window again; a workspace takes the folder as it is.
    const reloads = vscode.workspace.workspaceFile === undefined;
    if (reloads) {
      const impact = reloadImpact();
      if (impact.untitledChars > MAX_UNTITLED_CHARS) throw new UserError(untitledTooLarge(impact.untitledChars));
      if (commandArguments(arg).confirmed !== true) {
        const answer = await this.messages.ask(
          'warning',
          'Browse as Files loads this window again.',
          reloadDetail(impact),
          CONTINUE,
        );
        if (answer !== CONTINUE) return 'cancelled';
      }
      await keepEditors(this.state, this.openChats());
    }
    const added = vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: FDREF_ROOT, name: 'FD Refs' });
    if (!added) {
      if (reloads) await forgetKeptEditors(this.state);
      throw new UserError('VS Code did not add the FD Refs folder to the workspace.');
    }
    return 'added';
  }
}

/** The warning's detail: why the window loads again, and what happens to what is open. */
export function reloadDetail(impact: ReloadImpact): string {
  const lines = [
    'Adding the FD Refs folder makes this window a multi-root (untitled) workspace, and VS Code loads the window again to open it: this takes a few seconds.',
  ];
  const reopened: string[] = [];
  if (impact.editors > 0) reopened.push(`${counted(impact.editors, 'editor')} open now`);
  if (impact.untitledWithText > 0) reopened.push(`the text of ${counted(impact.untitledWithText, 'untitled editor')}`);
  if (reopened.length > 0) lines.push(`After the reload, FD Refs opens again: ${reopened.join(', ')}.`);
  if (impact.unsavedFiles > 0) lines.push(`${counted(impact.unsavedFiles, 'modified file')} will be saved first.`);
  lines.push('Sessions and open chats are kept. "FD Refs: Stop Browsing as Files" removes the folder.');
  return lines.join('\n\n');
}

function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}
