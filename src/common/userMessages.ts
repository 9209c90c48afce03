import * as vscode from 'vscode';
import { errorMessage, UserError } from '../core/errors';
import { ToolError } from '../core/toolError';
import { Disposable } from './lifecycle';

export type MessageLevel = 'info' | 'warning' | 'error';

export interface ShownMessage {
  /** Counts every message shown since activation. */
  readonly seq: number;
  readonly level: MessageLevel;
  readonly text: string;
  /** A question the user must answer before going on (a modal dialog), not a notification. */
  readonly modal?: true;
}

/** Lines for the "FD Refs" output channel only, at a level the user can filter ("Developer: Set Log Level..."). */
export type Log = Pick<vscode.LogOutputChannel, 'trace' | 'debug' | 'info' | 'warn' | 'error'>;

const KEPT = 200;

/** The name every notification starts with (see `notificationText`). */
const PRODUCT = 'FD Refs';

/**
 * The one rule for naming FD Refs in a notification: it starts with "FD Refs", either as the subject of its own
 * sentence ("FD Refs could not save ...") or, when the sentence does not start so, as a "FD Refs: " prefix added
 * here. Callers write the sentence only. A modal question is not prefixed: it answers the command the user has just
 * run, in that command's words (and its answers are the buttons it names).
 */
export function notificationText(text: string): string {
  return text.startsWith(PRODUCT) ? text : `${PRODUCT}: ${text}`;
}

/**
 * The one way the extension tells the user something: notifications (shown without waiting for them to be
 * dismissed), modal questions, and the "FD Refs" log output channel, which gets every notification too. The recent
 * messages are kept so the integration tests can see what a user would have seen. Nothing else calls
 * `vscode.window.show*Message` (a unit test fails if something does).
 */
export class UserMessages extends Disposable {
  private readonly channel = this._register(vscode.window.createOutputChannel(PRODUCT, { log: true }));
  private readonly shown: ShownMessage[] = [];
  private nextSeq = 0;

  /** Lines in the output channel only (things worth knowing that need no notification), each at its level. */
  readonly log: Log = this.channel;

  /** The `seq` the next message will get. */
  get mark(): number {
    return this.nextSeq;
  }

  /** The kept messages shown from `mark` on. */
  since(mark: number): readonly ShownMessage[] {
    return this.shown.filter((m) => m.seq >= mark);
  }

  info(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('info', notificationText(text), {}, actions);
  }

  warn(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('warning', notificationText(text), {}, actions);
  }

  error(text: string, ...actions: string[]): Thenable<string | undefined> {
    return this.show('error', notificationText(text), {}, actions);
  }

  /**
   * A failure of `what` (a command's id, "The chat") as an error notification. A `UserError` or a `ToolError`
   * says itself what went wrong and what to do, so its message is shown alone; anything else is unforeseen and is
   * named as a failure of `what`. The one path from a thrown error to what the user reads.
   */
  failure(what: string, error: unknown): Thenable<string | undefined> {
    const expected = error instanceof UserError || error instanceof ToolError;
    return this.error(expected ? errorMessage(error) : `${what} failed: ${errorMessage(error)}`);
  }

  /**
   * A modal question (the user must answer before going on); resolves to the action chosen, undefined when the
   * dialog was dismissed. `level` sets its icon; a warning is for what cannot be undone or reloads the window.
   */
  ask(
    level: 'info' | 'warning',
    question: string,
    detail: string | undefined,
    ...actions: string[]
  ): Thenable<string | undefined> {
    return this.show(level, question, { modal: true, ...(detail === undefined ? {} : { detail }) }, actions);
  }

  private show(
    level: MessageLevel,
    text: string,
    options: vscode.MessageOptions,
    actions: string[],
  ): Thenable<string | undefined> {
    this.shown.push({ seq: this.nextSeq++, level, text, ...(options.modal === true ? { modal: true } : {}) });
    if (this.shown.length > KEPT) this.shown.shift();
    switch (level) {
      case 'info':
        this.channel.info(text);
        return vscode.window.showInformationMessage(text, options, ...actions);
      case 'warning':
        this.channel.warn(text);
        return vscode.window.showWarningMessage(text, options, ...actions);
      case 'error':
        this.channel.error(text);
        return vscode.window.showErrorMessage(text, options, ...actions);
    }
  }
}
