import * as vscode from 'vscode';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';
import { refFromArgumentOrPick } from './pickers';
import type { UserMessages } from '../common/userMessages';

/** Puts a ref's text on the clipboard. */
export class CopyRefCommand implements Command {
  readonly id = REF_COMMAND_IDS.copy;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<string | undefined> {
    const found = await refFromArgumentOrPick(this.registry, arg, 'Copy Ref', this.messages);
    if (!found) return undefined;
    await vscode.env.clipboard.writeText(await found.descriptor.content.text());
    void vscode.window.setStatusBarMessage(
      `Copied ${found.descriptor.id} (${found.descriptor.content.length} characters)`,
      3000,
    );
    return found.descriptor.id;
  }
}
