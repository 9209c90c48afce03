import * as vscode from 'vscode';
import { commandArguments } from './commandArguments';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';
import { pickWorkspaceFile, refFromArgumentOrPick } from './pickers';

/** Inserts a ref before a line of a workspace file (the line after the last appends). */
export class InsertRefAtLineCommand implements Command {
  readonly id = 'fdref.insertRefAtLine';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly writer: WorkspaceWriter,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<vscode.Uri | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Insert Ref at Line');
    if (!found) return undefined;
    const args = commandArguments(arg);
    const path = args.path ?? (await pickWorkspaceFile(this.writer, `Insert ${found.descriptor.id} into`));
    if (path === undefined) return undefined;
    const line = args.line ?? (await askLine(found.descriptor.id));
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
        void vscode.window.showTextDocument(result.uri, { selection: new vscode.Range(line - 1, 0, line - 1, 0) });
    });
    return result.uri;
  }
}

async function askLine(id: string): Promise<number | undefined> {
  const value = await vscode.window.showInputBox({
    title: `Insert ${id} before line`,
    prompt: 'The 1-based line to insert before (one past the last line appends)',
    validateInput: (text) => (/^[1-9][0-9]*$/.test(text.trim()) ? undefined : 'Enter a line number, 1 or more'),
  });
  return value === undefined ? undefined : Number(value.trim());
}
