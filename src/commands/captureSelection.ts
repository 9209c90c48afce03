import * as vscode from 'vscode';
import { UserError } from '../common/errors';
import { captureText, type CaptureResult } from './capture';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { UserMessages } from '../common/userMessages';
import type { Command } from './command';

/** Captures the refs in the active editor's selections (the whole document when nothing is selected). */
export class CaptureSelectionCommand implements Command {
  readonly id = 'fdref.captureSelection';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(): Promise<CaptureResult> {
    const editor = vscode.window.activeTextEditor;
    if (!editor) throw new UserError('Open an editor with a model response and select the text to capture refs from.');
    const selected = editor.selections.filter((s) => !s.isEmpty).map((s) => editor.document.getText(s));
    const text = selected.length > 0 ? selected.join('\n') : editor.document.getText();
    return captureText(this.registry, this.messages, text, selected.length > 0 ? 'selection' : 'document');
  }
}
