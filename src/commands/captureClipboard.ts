import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { captureText, type CaptureResult } from './capture';
import type { Command, CommandServices } from './command';

/** Captures the refs in the text on the clipboard. */
export class CaptureClipboardCommand implements Command {
  readonly id = 'fdref.captureClipboard';

  constructor(private readonly services: CommandServices) {}

  async execute(): Promise<CaptureResult> {
    const text = await vscode.env.clipboard.readText();
    if (text.trim() === '') throw new UserError('The clipboard holds no text to capture refs from.');
    return captureText(this.services, text, 'clipboard');
  }
}
