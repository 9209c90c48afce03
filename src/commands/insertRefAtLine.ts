import * as vscode from 'vscode';
import { commandArguments } from './commandArguments';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';
import { pickWorkspaceFile, refFromArgumentOrPick } from './pickers';
import { insertLineValidation, lineCountOfFile } from './inputValidation';
import { showBesideChat } from '../common/showBesideChat';

/** Inserts a ref before a line of a workspace file (the line after the last appends at the end). */
export class InsertRefAtLineCommand implements Command {
  readonly id = 'fdref.insertRefAtLine';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly writer: WorkspaceWriter,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<vscode.Uri | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Insert Ref at Line', this.messages);
    if (!found) return undefined;
    const args = commandArguments(arg);
    const label = found.descriptor.id;
    const request = { create: false, existOk: true, label };
    const path = args.path ?? (await pickWorkspaceFile(this.writer, `Insert ${label} into`, request));
    if (path === undefined) return undefined;
    // The file is checked before the line is asked for: a path the insert would refuse fails here.
    const target = await this.writer.check({ ...request, filePath: path });
    const line = args.line ?? (await askLine(label, target.shown, await lineCountOfFile(this.writer, target.target)));
    if (line === undefined) return undefined;
    const result = await this.writer.write({
      filePath: path,
      text: await found.descriptor.content.text(),
      mode: 'insert',
      line,
      existOk: true,
      create: false,
      label: found.descriptor.id,
    });
    void this.messages.info(result.message, 'Open File').then((choice) => {
      if (choice === 'Open File')
        void showBesideChat(result.uri, { selection: new vscode.Range(line - 1, 0, line - 1, 0) });
    });
    return result.uri;
  }
}

async function askLine(id: string, shown: string, totalLines: number | undefined): Promise<number | undefined> {
  const lines = totalLines === undefined ? '' : ` (it has ${totalLines} line${totalLines === 1 ? '' : 's'})`;
  const value = await vscode.window.showInputBox({
    title: `Insert ${id} into ${shown} before line`,
    prompt: `The 1-based line of ${shown} to insert before${lines}; one past the last line appends`,
    validateInput: insertLineValidation(totalLines),
  });
  return value === undefined ? undefined : Number(value.trim());
}
