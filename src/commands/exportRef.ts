import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import { suggestedFileName } from '../core/files/fdrefPaths';
import { commandArguments } from './commandArguments';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { WorkspaceWriter } from '../workspace/workspaceWriter';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';
import { askWorkspacePath, refFromArgumentOrPick } from './pickers';
import { workspacePathValidation } from './inputValidation';
import { showBesideChat } from '../common/showBesideChat';

/**
 * Writes a ref to a workspace file. Asks (modally) before replacing a file unless the argument says
 * `overwrite: true`; `overwrite: false` refuses instead of asking.
 */
export class ExportRefCommand implements Command {
  readonly id = REF_COMMAND_IDS.export;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly writer: WorkspaceWriter,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<vscode.Uri | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Export Ref to File', this.messages);
    if (!found) return undefined;
    const { descriptor } = found;
    const args = commandArguments(arg);
    const label = descriptor.id;
    const path =
      args.path ??
      (await askWorkspacePath(
        `Export ${label} to`,
        suggestedFileName(descriptor.id, descriptor.language),
        workspacePathValidation(
          this.writer,
          { existOk: true, label },
          (shown) => `${shown} exists: Export will ask before replacing it.`,
        ),
      ));
    if (path === undefined) return undefined;
    const target = await this.writer.check({ filePath: path, existOk: args.overwrite ?? true, label });
    let existOk = args.overwrite ?? false;
    if (target.exists && args.overwrite === undefined) {
      const replace = await this.messages.ask(
        'warning',
        `${target.shown} already exists. Replace it with ${descriptor.id}?`,
        undefined,
        'Replace',
      );
      if (replace !== 'Replace') return undefined;
      existOk = true;
    }
    const result = await this.writer.write({
      filePath: target.uri.fsPath,
      text: await descriptor.content.text(),
      mode: 'write',
      existOk,
      label: descriptor.id,
    });
    void this.messages.info(result.message, 'Open File').then((choice) => {
      if (choice === 'Open File') void showBesideChat(result.uri);
    });
    return result.uri;
  }
}
