import * as vscode from 'vscode';
import { errorMessage, UserError } from '../common/errors';
import { LAST_VIEW_CHAT } from '../common/chatViewType';
import type { UserMessages } from '../common/userMessages';
import { FDREF_SCHEME } from './fdrefUri';

/**
 * The editors of a window that Browse as Files is about to load again as a multi-root workspace. VS Code's web
 * workbench (code-server, `npm start`) does not carry the editors of a folder into the workspace it becomes, and
 * desktop VS Code does only in part: they are kept here and opened again when fdref starts in that workspace.
 */
interface KeptEditorsRecord {
  /** The window's folders (URIs) before: the workspace to open them in holds them and `fdref:/`. */
  readonly folders: readonly string[];
  readonly savedAt: number;
  readonly tabs: readonly KeptTab[];
  /** Untitled editors with text (they have no file to open again). */
  readonly untitled: readonly { readonly text: string; readonly languageId: string }[];
  /** Chat sessions shown in editor tabs. */
  readonly chats: readonly string[];
  /** The chat the side bar's view shows (what it shows is kept per workspace, and the window becomes another). */
  readonly viewChat?: string;
}

type KeptTab =
  | { readonly kind: 'text'; readonly uri: string; readonly column: number; readonly active: boolean }
  | {
      readonly kind: 'diff';
      readonly original: string;
      readonly modified: string;
      readonly label: string;
      readonly column: number;
      readonly active: boolean;
    };

const KEY = 'fdref.browseAsFiles.keptEditors';
/** A record older than this is from a reload that never happened (or another window's): left unused. */
const KEPT_FOR_MS = 10 * 60 * 1000;
/** What untitled editors may carry across the reload, in characters (global state is not a file store). */
export const MAX_UNTITLED_CHARS = 1_000_000;

/** Why Browse as Files does not go on while untitled editors hold more than it carries. */
export function untitledTooLarge(chars: number): string {
  return `Untitled editors hold ${chars.toLocaleString('en-US')} characters, more than FD Refs carries across the reload (${MAX_UNTITLED_CHARS.toLocaleString('en-US')}): save them to files first, then Browse as Files.`;
}

/** What loading the window again would lose or change, said in the warning before it. */
export interface ReloadImpact {
  readonly editors: number;
  readonly unsavedFiles: number;
  readonly untitledWithText: number;
  readonly untitledChars: number;
}

/** The untitled editors that hold text: what the reload would lose, carried across by `keepEditors`. */
function untitledWithText(): vscode.TextDocument[] {
  return vscode.workspace.textDocuments.filter((d) => d.isUntitled && d.getText().length > 0);
}

export function reloadImpact(): ReloadImpact {
  const editors = vscode.window.tabGroups.all.reduce((sum, group) => sum + group.tabs.length, 0);
  const dirty = vscode.workspace.textDocuments.filter((d) => d.isDirty);
  const untitled = untitledWithText();
  return {
    editors,
    unsavedFiles: dirty.filter((d) => !d.isUntitled).length,
    untitledWithText: untitled.length,
    untitledChars: untitled.reduce((sum, d) => sum + d.getText().length, 0),
  };
}

/**
 * Saves the modified files, then keeps the open editors, the text of untitled ones and the open chats, for
 * `reopenKeptEditors` in the window that comes after the reload. A `UserError` when untitled editors hold more than
 * `MAX_UNTITLED_CHARS` (nothing is kept or saved then).
 */
export async function keepEditors(
  state: vscode.Memento,
  chats: { readonly tabs: readonly string[]; readonly view: string | undefined },
): Promise<void> {
  const untitledDocuments = untitledWithText();
  const untitledChars = untitledDocuments.reduce((sum, d) => sum + d.getText().length, 0);
  if (untitledChars > MAX_UNTITLED_CHARS) throw new UserError(untitledTooLarge(untitledChars));
  if (!(await vscode.workspace.saveAll(false)))
    throw new UserError('Some modified files could not be saved: save or revert them, then Browse as Files.');
  const tabs: KeptTab[] = [];
  for (const group of vscode.window.tabGroups.all) {
    for (const tab of group.tabs) {
      const active = tab.isActive && group.isActive;
      const { input } = tab;
      if (input instanceof vscode.TabInputText && !isUntitled(input.uri))
        tabs.push({ kind: 'text', uri: input.uri.toString(), column: group.viewColumn, active });
      else if (input instanceof vscode.TabInputTextDiff)
        tabs.push({
          kind: 'diff',
          original: input.original.toString(),
          modified: input.modified.toString(),
          label: tab.label,
          column: group.viewColumn,
          active,
        });
    }
  }
  const record: KeptEditorsRecord = {
    folders: ordinaryFolders(),
    savedAt: Date.now(),
    tabs,
    untitled: untitledDocuments.map((d) => ({ text: d.getText(), languageId: d.languageId })),
    chats: chats.tabs,
    ...(chats.view === undefined ? {} : { viewChat: chats.view }),
  };
  await state.update(KEY, record);
}

/** Forgets kept editors (the reload did not happen). */
export function forgetKeptEditors(state: vscode.Memento): Thenable<void> {
  return state.update(KEY, undefined);
}

/**
 * Opens the editors kept before Browse as Files loaded the window again, when this window is the workspace it
 * loaded: its folders are the ones kept and `fdref:/`. The record is removed first, so only one window uses it.
 * Resolves to how many editors were opened.
 */
export async function reopenKeptEditors(
  state: vscode.Memento,
  workspaceState: vscode.Memento,
  messages: UserMessages,
): Promise<number> {
  const record = state.get<KeptEditorsRecord>(KEY);
  if (!record || !isBrowsingWorkspace(record)) return 0;
  await state.update(KEY, undefined);
  if (Date.now() - record.savedAt > KEPT_FOR_MS) return 0;
  let opened = 0;
  const open = async (what: string, show: () => Thenable<unknown>) => {
    try {
      await show();
      opened++;
    } catch (error) {
      messages.log.warn(`FD Refs could not open ${what} again after the reload: ${errorMessage(error)}`);
    }
  };
  const show = (tab: KeptTab, preserveFocus: boolean) => {
    const options = { viewColumn: tab.column, preview: false, preserveFocus };
    return tab.kind === 'text'
      ? open(tab.uri, () => vscode.window.showTextDocument(vscode.Uri.parse(tab.uri), options))
      : open(tab.label, () =>
          vscode.commands.executeCommand(
            'vscode.diff',
            vscode.Uri.parse(tab.original),
            vscode.Uri.parse(tab.modified),
            tab.label,
            options,
          ),
        );
  };
  // In order, so each group keeps its tabs' order; then the active tab again, to give it the focus.
  for (const tab of record.tabs) await show(tab, true);
  for (const { text, languageId } of record.untitled)
    await open('an untitled editor', async () =>
      vscode.window.showTextDocument(await vscode.workspace.openTextDocument({ content: text, language: languageId }), {
        preview: false,
        preserveFocus: true,
      }),
    );
  for (const chat of record.chats)
    await open(`the chat of session ${chat}`, () => vscode.commands.executeCommand('fdref.openChatInEditor', chat));
  // The side bar view's chat is shown there when the view next shows, without taking the side bar from the Explorer
  // (which shows the FD Refs folder the user asked for).
  const viewChat = record.viewChat;
  if (typeof viewChat === 'string')
    await open(`the chat of session ${viewChat}`, () => workspaceState.update(LAST_VIEW_CHAT, viewChat));
  const active = record.tabs.find((t) => t.active);
  if (active) await show(active, false);
  return opened;
}

/** Whether this window's folders are exactly the record's and `fdref:/`. */
function isBrowsingWorkspace(record: KeptEditorsRecord): boolean {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (!folders.some((f) => f.uri.scheme === FDREF_SCHEME)) return false;
  const now = ordinaryFolders();
  return now.length === record.folders.length && now.every((uri, i) => uri === record.folders[i]);
}

function ordinaryFolders(): string[] {
  return (vscode.workspace.workspaceFolders ?? [])
    .filter((f) => f.uri.scheme !== FDREF_SCHEME)
    .map((f) => f.uri.toString());
}

function isUntitled(uri: vscode.Uri): boolean {
  return uri.scheme === 'untitled';
}
