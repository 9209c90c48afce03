import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { captureText, type CaptureResult } from './capture';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';

/** Captures the refs in the text on the clipboard. */
export class CaptureClipboardCommand implements Command {
  readonly id = 'fdref.captureClipboard';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(): Promise<CaptureResult> {
    const text = await vscode.env.clipboard.readText();
    if (text.trim() === '') throw new UserError('The clipboard holds no text to capture refs from.');
    return captureText(this.registry, this.messages, text, 'clipboard');
  }
}
