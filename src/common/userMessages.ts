import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  /** Counts every message shown since activation. */
  readonly seq: number;
  readonly level: MessageLevel;
  readonly text: string;
}

const KEPT = 200;

/**
 * Shows notifications without waiting for them to be dismissed, writes each to the "FD Refs" output
 * channel, and keeps the recent ones so the integration tests can see what a user would have seen.
 */
export class UserMessages extends Disposable {
  private readonly channel = this._register(vscode.window.createOutputChannel('FD Refs'));
  private readonly shown: ShownMessage[] = [];
  private nextSeq = 0;

  /** The `seq` the next message will get. */
  get mark(): number {
    return this.nextSeq;
  }

  /** The kept messages shown from `mark` on. */
  since(mark: number): readonly ShownMessage[] {
    return this.shown.filter((m) => m.seq >= mark);
  }

  info(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('info', text, actions);
  }

  warn(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('warning', text, actions);
  }

  error(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('error', text, actions);
  }

  /** A line in the output channel only (things worth knowing that need no notification). */
  log(text: string): void {
    this.channel.appendLine(`[log] ${text}`);
  }

  private show(level: MessageLevel, text: string, actions: string[]): Thenable<string | undefined> {
    this.shown.push({ seq: this.nextSeq++, level, text });
    if (this.shown.length > KEPT) this.shown.shift();
    this.channel.appendLine(`[${level}] ${text}`);
    switch (level) {
      case 'info':
        return vscode.window.showInformationMessage(text, ...actions);
      case 'warning':
        return vscode.window.showWarningMessage(text, ...actions);
      case 'error':
        return vscode.window.showErrorMessage(text, ...actions);
    }
  }
}
