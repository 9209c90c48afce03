import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { diffBesideChat } from '../common/showBesideChat';
import { shownPath } from '../common/workspacePaths';
import { commandLabel, descriptorDescription, refDescription } from '../core/presentation/describe';
import { compareCandidates, compareTitle, type CompareSide } from '../core/presentation/compareWith';
import { descriptorUri } from '../files/fdrefUri';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';
import { utf8Size } from '../sessions/storedText';
import type { Command } from './command';
import { commandArguments, descriptorFromArgument } from './commandArguments';

const TITLE = 'Compare with...';
const MAX_LISTED_FILES = 5000;

type Candidate = CompareSide & { readonly found: FoundDescriptor; readonly versions?: number };
type Picked = { readonly found: FoundDescriptor } | { readonly file: vscode.Uri };

/**
 * Opens VS Code's diff editor between a descriptor or ref (the tree item, the `fdref:` editor, or the active one)
 * and another side the user picks: a descriptor or ref of any session, or a workspace file. The other side may be
 * given instead (`{ sessionId, descriptorId }` or `{ path }`, a workspace path), as tests and links do.
 */
export class CompareWithCommand implements Command {
  readonly id = 'fdref.compareWith';

  constructor(private readonly registry: SessionRegistry) {}

  async execute(arg?: unknown, other?: unknown): Promise<string | undefined> {
    const self = await descriptorFromArgument(this.registry, arg ?? vscode.window.activeTextEditor?.document.uri);
    if (!self) throw new UserError('Compare with... works on a descriptor or ref: open one or pick it in Sessions.');
    const picked = (await this.given(other)) ?? (await this.pick(self));
    if (!picked) return undefined;
    const modified = sideOf(self);
    if ('file' in picked) {
      const title = compareTitle(shownPath(picked.file), modified);
      await diffBesideChat(picked.file, descriptorUri(self.session, self.descriptor), title);
      return title;
    }
    const title = compareTitle(sideOf(picked.found), modified);
    await diffBesideChat(
      descriptorUri(picked.found.session, picked.found.descriptor),
      descriptorUri(self.session, self.descriptor),
      title,
    );
    return title;
  }

  /** The other side when the call names it. */
  private async given(other: unknown): Promise<Picked | undefined> {
    if (other === undefined) return undefined;
    const { path } = commandArguments(other);
    if (path === undefined) {
      const found = await descriptorFromArgument(this.registry, other);
      return found && { found };
    }
    const folder = vscode.workspace.workspaceFolders?.[0];
    if (!folder) throw new UserError('Open a folder to compare with one of its files.');
    return { file: vscode.Uri.joinPath(folder.uri, path) };
  }

  /** The other side as the user picks it: a workspace file, or a descriptor or ref of any session, newest first. */
  private async pick(self: FoundDescriptor): Promise<Picked | undefined> {
    const all: Candidate[] = [];
    for (const session of await this.registry.list()) {
      const reader = await this.registry.reader(session.id);
      if (!reader) continue;
      const listed = [...reader.descriptors().map((descriptor) => ({ descriptor })), ...reader.refs()];
      for (const { descriptor, ...ref } of listed) {
        const found = { session, reader, descriptor };
        all.push({ ...sideOf(found), createdAt: descriptor.createdAt, found, ...ref });
      }
    }
    const fileItem = { label: '$(file) A Workspace File...', alwaysShow: true };
    const items = await Promise.all(
      compareCandidates(all, sideOf(self)).map(async (candidate) => ({ ...(await itemOf(candidate)), candidate })),
    );
    const chosen = await vscode.window.showQuickPick<vscode.QuickPickItem & { candidate?: Candidate }>(
      [fileItem, ...items],
      {
        title: `${TITLE} ${self.descriptor.id} (${self.session.name})`,
        placeHolder: 'Pick a descriptor, a ref or a workspace file to compare with',
        matchOnDescription: true,
      },
    );
    if (chosen === undefined) return undefined;
    if (chosen.candidate) return { found: chosen.candidate.found };
    const file = await pickFile();
    return file && { file };
  }
}

function sideOf(found: FoundDescriptor): Omit<CompareSide, 'createdAt'> {
  return { sessionId: found.session.id, sessionName: found.session.name, id: found.descriptor.id };
}

async function itemOf(candidate: Candidate): Promise<vscode.QuickPickItem> {
  const { descriptor } = candidate.found;
  const command = descriptor.command;
  if (candidate.versions !== undefined) {
    const about = refDescription(descriptor, candidate.versions);
    return { label: descriptor.id, description: `${candidate.sessionName} · ${about}` };
  }
  // The same size as the Sessions tree shows.
  const label = command === undefined ? descriptor.id : commandLabel(descriptor.id, command);
  const size = await utf8Size(descriptor.content).catch(() => 0);
  return { label, description: `${candidate.sessionName} · ${descriptorDescription(descriptor, size)}` };
}

async function pickFile(): Promise<vscode.Uri | undefined> {
  const files = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', MAX_LISTED_FILES);
  const items = files
    .filter((uri) => uri.scheme === 'file')
    .map((uri) => ({ label: shownPath(uri), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return (await vscode.window.showQuickPick(items, { title: TITLE, placeHolder: 'Pick a workspace file' }))?.uri;
}
