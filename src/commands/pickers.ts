import * as vscode from 'vscode';
import type { UserMessages } from '../common/userMessages';
import { shownPath } from '../common/workspacePaths';
import { previewLine, refDescription } from '../core/presentation/describe';
import type { StoredSessionMeta } from '../core/store';
import type { FoundDescriptor, SessionRegistry } from '../sessions/sessionRegistry';
import { previewText } from '../sessions/storedText';
import type { WorkspaceWriter, WriteRequest } from '../workspace/workspaceWriter';
import { descriptorFromArgument, sessionFromArgument } from './commandArguments';
import { workspacePathValidation, type Validation } from './inputValidation';

const MAX_LISTED_FILES = 5000;

/** The descriptor named by the argument, or one the user picks among every session's refs (newest first). */
export async function refFromArgumentOrPick(
  registry: SessionRegistry,
  arg: unknown,
  title: string,
  messages: UserMessages,
): Promise<FoundDescriptor | undefined> {
  const given = await descriptorFromArgument(registry, arg);
  if (given) return given;
  const found: (vscode.QuickPickItem & FoundDescriptor)[] = [];
  for (const session of await registry.list()) {
    const reader = await registry.reader(session.id);
    for (const { descriptor, versions } of reader?.refs() ?? []) {
      if (!reader) break;
      found.push({
        label: descriptor.id,
        description: `${session.name} · ${refDescription(descriptor, versions)}`,
        detail: previewLine(await previewText(descriptor.content).catch(() => '')),
        session,
        reader,
        descriptor,
      });
    }
  }
  if (found.length === 0) {
    void messages.info('There are no refs yet. Capture some with "FD Refs: Capture Refs from Selection".');
    return undefined;
  }
  found.sort((a, b) => b.descriptor.createdAt.localeCompare(a.descriptor.createdAt));
  return vscode.window.showQuickPick(found, {
    title,
    placeHolder: 'Pick a ref',
    matchOnDescription: true,
    matchOnDetail: true,
  });
}

/** The session named by the argument, or one the user picks. */
export async function sessionFromArgumentOrPick(
  registry: SessionRegistry,
  arg: unknown,
  title: string,
): Promise<StoredSessionMeta | undefined> {
  const given = await sessionFromArgument(registry, arg);
  if (given) return given;
  const items = (await registry.list()).map((session) => ({
    label: session.name,
    description: `${session.pinned ? 'pinned · ' : ''}created ${new Date(session.createdAt).toLocaleString()}`,
    session,
  }));
  return (await vscode.window.showQuickPick(items, { title, placeHolder: 'Pick a session' }))?.session;
}

/**
 * A workspace file the user picks (or types a path for, checked as they type against what `request` allows);
 * the path is relative to the first folder when it can be.
 */
export async function pickWorkspaceFile(
  writer: WorkspaceWriter,
  title: string,
  request: Pick<WriteRequest, 'create' | 'existOk' | 'label'>,
): Promise<string | undefined> {
  const typeIt = { label: '$(edit) Enter a path…', alwaysShow: true };
  const files = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', MAX_LISTED_FILES);
  const items = files
    .filter((uri) => uri.scheme === 'file')
    .map((uri) => ({ label: shownPath(uri), uri }))
    .sort((a, b) => a.label.localeCompare(b.label));
  const picked = await vscode.window.showQuickPick<vscode.QuickPickItem & { uri?: vscode.Uri }>([typeIt, ...items], {
    title,
    placeHolder: 'Pick a workspace file',
  });
  if (picked === undefined) return undefined;
  if (picked.uri) return picked.uri.fsPath;
  return askWorkspacePath(title, '', workspacePathValidation(writer, request));
}

/** A path typed by the user, relative to the first workspace folder, checked by `validate` as they type. */
export async function askWorkspacePath(
  title: string,
  suggestion: string,
  validate: (value: string) => Promise<Validation>,
): Promise<string | undefined> {
  const typed = await vscode.window.showInputBox({
    title,
    prompt: 'Path of the file, relative to the first workspace folder',
    value: suggestion,
    valueSelection: [0, suggestion.lastIndexOf('.') > 0 ? suggestion.lastIndexOf('.') : suggestion.length],
    validateInput: validate,
  });
  return typed?.trim();
}
