import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';

/** A part the participant pushed to a Chat view response, as plain data. */
export type ParticipantPart =
  | { readonly kind: 'markdown'; readonly value: string }
  | { readonly kind: 'progress'; readonly value: string }
  | {
      readonly kind: 'button';
      readonly title: string;
      readonly command: string;
      readonly arguments: readonly unknown[];
    };

/** One answer of the participant: what it showed, and its result once it ended. */
export interface ParticipantResponse {
  readonly prompt: string;
  readonly parts: ParticipantPart[];
  result?: vscode.ChatResult;
}

/** How many answers the log keeps (the newest). */
const KEPT_RESPONSES = 20;

/**
 * The participant's last answers as it streamed them into the Chat view, which an extension cannot read back: the
 * integration tests check what the user saw through it (`FdrefApi.participant`). Bounded, so it costs nothing as
 * the conversation grows.
 */
export class ResponseLog extends Disposable {
  private readonly kept: ParticipantResponse[] = [];
  private readonly endEmitter = this._register(new vscode.EventEmitter<ParticipantResponse>());
  /** Fires when an answer ended (its `result` set), however it ended. */
  readonly onDidEnd = this.endEmitter.event;

  /** The kept answers, oldest first. */
  get responses(): readonly ParticipantResponse[] {
    return this.kept;
  }

  /** Starts recording an answer; returns the stream to write it to, which writes through to `stream`. */
  start(prompt: string, stream: vscode.ChatResponseStream): { response: ParticipantResponse; out: ResponseOut } {
    const response: ParticipantResponse = { prompt, parts: [] };
    this.kept.push(response);
    if (this.kept.length > KEPT_RESPONSES) this.kept.shift();
    return { response, out: new ResponseOut(stream, response.parts) };
  }

  end(response: ParticipantResponse, result: vscode.ChatResult): void {
    response.result = result;
    this.endEmitter.fire(response);
  }
}

/** The three kinds of part the participant shows, each written to the Chat view and recorded. */
export class ResponseOut {
  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly parts: ParticipantPart[],
  ) {}

  /** Untrusted Markdown: the Chat view runs no command link in it and renders no HTML. */
  markdown(value: string): void {
    if (value === '') return;
    this.stream.markdown(value);
    const last = this.parts[this.parts.length - 1];
    // Consecutive Markdown is one block in the Chat view too.
    if (last?.kind === 'markdown') this.parts[this.parts.length - 1] = { kind: 'markdown', value: last.value + value };
    else this.parts.push({ kind: 'markdown', value });
  }

  progress(value: string): void {
    this.stream.progress(value);
    this.parts.push({ kind: 'progress', value });
  }

  button(title: string, command: string, args: readonly unknown[]): void {
    this.stream.button({ title, command, arguments: [...args] });
    this.parts.push({ kind: 'button', title, command, arguments: args });
  }
}
