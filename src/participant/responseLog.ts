import * as vscode from 'vscode';
import { Disposable } from '../common/lifecycle';
import { escapeMarkdown } from '../core/presentation/markdown';

/** A part the participant pushed to a Chat view response, as plain data. */
export type ParticipantPart =
  | { readonly kind: 'markdown'; readonly value: string }
  | {
      readonly kind: 'action';
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

/**
 * What the participant shows, each written to the Chat view and recorded. Only Markdown: VS Code 1.139 folds every
 * part before an answer's last Markdown that is not Markdown (progress, buttons) into a collapsed "Completed N steps",
 * which would hide the refs.
 */
export class ResponseOut {
  constructor(
    private readonly stream: vscode.ChatResponseStream,
    private readonly parts: ParticipantPart[],
  ) {}

  /** Untrusted Markdown: the Chat view runs no command link in it and renders no HTML. */
  markdown(value: string): void {
    if (value === '') return;
    const markdown = new vscode.MarkdownString(value);
    markdown.isTrusted = false;
    markdown.supportHtml = false;
    this.stream.markdown(markdown);
    const last = this.parts[this.parts.length - 1];
    // Consecutive Markdown is one block in the Chat view too.
    if (last?.kind === 'markdown') this.parts[this.parts.length - 1] = { kind: 'markdown', value: last.value + value };
    else this.parts.push({ kind: 'markdown', value });
  }

  /**
   * A line of command links after a ref: `label` (Markdown), then each action. Only this Markdown is trusted, and
   * only to run these commands (`stream.button`s would fold the answer away, see above).
   */
  actions(label: string, actions: readonly { title: string; command: string; arguments: readonly unknown[] }[]): void {
    const links = actions.map(
      (a) => `[${escapeMarkdown(a.title)}](command:${a.command}?${encodeURIComponent(JSON.stringify(a.arguments))})`,
    );
    const markdown = new vscode.MarkdownString(`${label} ${links.join(' · ')}\n\n`);
    markdown.isTrusted = { enabledCommands: [...new Set(actions.map((a) => a.command))] };
    markdown.supportHtml = false;
    this.stream.markdown(markdown);
    for (const a of actions) this.parts.push({ kind: 'action', ...a });
  }
}
