import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import { commandArguments } from './commandArguments';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';
import { pickWorkspaceFile, refFromArgumentOrPick } from './pickers';
import { showBesideChat } from '../common/showBesideChat';

/** Appends a ref to a workspace file, adding a line break first when the file does not end with one. */
export class AppendRefCommand implements Command {
  readonly id = REF_COMMAND_IDS.append;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly writer: WorkspaceWriter,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<vscode.Uri | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Append Ref to File', this.messages);
    if (!found) return undefined;
    const label = found.descriptor.id;
    const path = commandArguments(arg).path ?? (await pickWorkspaceFile(this.writer, `Append ${label} to`, { label }));
    if (path === undefined) return undefined;
    const result = await this.writer.write({
      filePath: path,
      text: await found.descriptor.content.text(),
      mode: 'append',
      label: found.descriptor.id,
    });
    void this.messages.info(result.message, 'Open File').then((choice) => {
      if (choice === 'Open File') void showBesideChat(result.uri);
    });
    return result.uri;
  }
}
