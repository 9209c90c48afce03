import * as vscode from 'vscode';
import { VscodeLmClient } from '../chat/vscodeLmClient';
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import { REF_COMMAND_IDS } from '../common/refCommandIds';
import type { UserMessages } from '../common/userMessages';
import { refDescriptorId } from '../core/ids';
import { ModelError, type ModelMessage } from '../core/chat/modelClient';
import { fenceFor, previewLine } from '../core/presentation/describe';
import { escapeMarkdown } from '../core/presentation/markdown';
import type { ExtractedRef } from '../core/refs/types';
import { Session } from '../core/session/session';
import { REF_MARKING } from '../core/session/systemPrompt';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { AnswerLayout, type AnswerPart } from './answerLayout';
import { ResponseLog, type ResponseOut } from './responseLog';

import { PARTICIPANT_ID } from './participantId';

export { PARTICIPANT_ID };

/** What the participant tells the model (as the first message: VS Code's models have no system role). */
export const PARTICIPANT_PROMPT = `<fdref_instructions>
You answer in VS Code's Chat view as @fdref.
${REF_MARKING}
The user sees each ref as a code block with links that export it to a file, insert it at the cursor, copy it or open it, and finds it later under its id in the FD Refs sessions. Reusing an id with changed content makes a new version. Tags inside code blocks or inline code are not refs.
</fdref_instructions>`;

/** Unused by VS Code's models (they choose their own output length); a `ModelRequest` needs one. */
const MAX_OUTPUT_TOKENS = 16_384;

/** The links under each ref: the chat panel's ref actions, by their command ids. */
const ACTIONS = [
  { action: 'export', title: 'Export to File…' },
  { action: 'insertAtCursor', title: 'Insert at Cursor' },
  { action: 'applyToSymbol', title: 'Apply to Symbol…' },
  { action: 'copy', title: 'Copy' },
  { action: 'open', title: 'Open' },
] as const;

/** What each answer keeps in its result's `metadata`, read back from the Chat view's history. */
interface AnswerMetadata {
  /** The FD Refs session this conversation's refs are in, once it has one. */
  readonly sessionId?: string;
  /** The answer as the model wrote it, tags and all, sent back to the model with the history. */
  readonly answer: string;
}

/**
 * The `@fdref` chat participant: answers in VS Code's Chat view with the model the user picked, and turns the
 * `<ref>` blocks of its answers into refs as they stream, kept in one FD Refs session per Chat view conversation
 * (origin `participant`, made on its first ref) and shown as code blocks with links that run the ref commands.
 */
export class FdrefParticipant extends Disposable {
  /** What the participant showed in its last answers (the tests read it). */
  readonly log = this._register(new ResponseLog());

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {
    super();
  }

  async answer(
    request: vscode.ChatRequest,
    context: vscode.ChatContext,
    stream: vscode.ChatResponseStream,
    token: vscode.CancellationToken,
  ): Promise<vscode.ChatResult> {
    const { response, out } = this.log.start(request.prompt, stream);
    const history = conversationOf(context.history);
    const refs = new ConversationRefs(this.registry, history.sessionId, request.prompt);
    const abort = new AbortController();
    const onCancel = token.onCancellationRequested(() => abort.abort());
    const layout = new AnswerLayout();
    let text = '';
    let errorDetails: vscode.ChatErrorDetails | undefined;
    try {
      await refs.open();
      const client = new VscodeLmClient(request.model);
      const messages: ModelMessage[] = [...history.messages, { role: 'user', text: request.prompt }];
      const events = client.stream(
        { model: request.model.id, system: PARTICIPANT_PROMPT, messages, tools: [], maxTokens: MAX_OUTPUT_TOKENS },
        abort.signal,
      );
      for await (const event of events) {
        if (event.type !== 'text' || event.text === '') continue;
        text += event.text;
        await this.show(layout.push(event.text), out, refs);
      }
    } catch (error) {
      if (!(error instanceof ModelError && error.kind === 'aborted')) {
        const message = error instanceof ModelError ? error.message : `@fdref failed: ${errorMessage(error)}`;
        errorDetails = { message };
        if (!(error instanceof ModelError)) this.messages.log.error(`@fdref failed: ${errorMessage(error)}`);
      }
    } finally {
      onCancel.dispose();
    }
    // Also for a stopped or failed answer: the refs that closed are kept, the text so far is shown.
    const { parts, result } = layout.end();
    await this.show(parts, out, refs);
    if (result.diagnostics.length > 0) {
      out.markdown(`\n\n---\n${result.diagnostics.map((d) => `- ${escapeMarkdown(d.message)}`).join('\n')}\n`);
    }
    const metadata: AnswerMetadata = {
      answer: text,
      ...(refs.sessionId === undefined ? {} : { sessionId: refs.sessionId }),
    };
    const chatResult: vscode.ChatResult = errorDetails === undefined ? { metadata } : { metadata, errorDetails };
    this.log.end(response, chatResult);
    return chatResult;
  }

  private async show(parts: readonly AnswerPart[], out: ResponseOut, refs: ConversationRefs): Promise<void> {
    for (const part of parts) {
      switch (part.kind) {
        case 'markdown':
          out.markdown(part.text);
          break;
        case 'block':
          await this.showBlock(part, out, refs);
          break;
      }
    }
  }

  private async showBlock(
    block: Extract<AnswerPart, { kind: 'block' }>,
    out: ResponseOut,
    refs: ConversationRefs,
  ): Promise<void> {
    out.markdown(block.outer ? codeBlock(block.outer) : block.text);
    if (block.refs.length === 0) return;
    let saved: { sessionId: string; versions: number[] };
    try {
      saved = await refs.add(block.refs);
    } catch (error) {
      this.messages.log.error(
        `@fdref could not keep ${block.refs.map((r) => refDescriptorId(r.id)).join(', ')}: ${errorMessage(error)}`,
      );
      out.markdown(`\n\n*FD Refs could not keep this ref: ${escapeMarkdown(errorMessage(error))}*\n\n`);
      return;
    }
    block.refs.forEach((ref, i) => {
      const refId = refDescriptorId(ref.id, saved.versions[i]);
      out.actions(
        `**${escapeMarkdown(refDescriptorId(ref.id))}**`,
        ACTIONS.map(({ action, title }) => ({
          title,
          command: REF_COMMAND_IDS[action],
          arguments: [{ sessionId: saved.sessionId, refId }],
        })),
      );
    });
  }
}

/**
 * The FD Refs session of one Chat view conversation: the one an earlier answer named in its metadata when this
 * window can still write it, otherwise a new one, made when the first ref arrives.
 */
class ConversationRefs {
  private entry: SessionEntry | undefined;
  private session = new Session();

  constructor(
    private readonly registry: SessionRegistry,
    private readonly previousId: string | undefined,
    private readonly prompt: string,
  ) {}

  get sessionId(): string | undefined {
    return this.entry?.metadata.id;
  }

  /** Opens the conversation's session, if it has one this window can write. */
  async open(): Promise<void> {
    if (this.previousId === undefined) return;
    const entry = await this.registry.get(this.previousId);
    if (entry && entry.readOnly === undefined) {
      this.entry = entry;
      this.session = entry.session;
    }
  }

  /** Registers `refs` in the session (made now if needed) and saves it; returns each ref's version. */
  async add(refs: readonly ExtractedRef[]): Promise<{ sessionId: string; versions: number[] }> {
    const versions = refs.map((ref) => this.session.registerRef(ref));
    this.entry ??= await this.registry.create(
      `@fdref ${previewLine(this.prompt, 60)}`,
      { kind: 'participant' },
      this.session,
    );
    const sessionId = this.entry.metadata.id;
    await this.registry.changed(sessionId, { refIds: refs.map((r) => r.id) });
    return { sessionId, versions };
  }
}

/** The earlier turns of this conversation as model messages, and the session its refs are kept in. */
function conversationOf(history: vscode.ChatContext['history']): { sessionId?: string; messages: ModelMessage[] } {
  const messages: ModelMessage[] = [];
  let sessionId: string | undefined;
  for (const turn of history) {
    if (turn.participant !== PARTICIPANT_ID) continue;
    if (turn instanceof vscode.ChatRequestTurn) {
      messages.push({ role: 'user', text: turn.prompt });
    } else {
      const metadata = answerMetadata(turn.result.metadata);
      if (metadata?.sessionId !== undefined) sessionId = metadata.sessionId;
      const text = metadata?.answer ?? shownText(turn.response);
      if (text !== '') messages.push({ role: 'assistant', text, toolCalls: [] });
    }
  }
  return sessionId === undefined ? { messages } : { sessionId, messages };
}

/** The metadata an answer of this participant left, checked (the Chat view keeps it across restarts). */
function answerMetadata(metadata: unknown): AnswerMetadata | undefined {
  if (typeof metadata !== 'object' || metadata === null) return undefined;
  const answer: unknown = Reflect.get(metadata, 'answer');
  const sessionId: unknown = Reflect.get(metadata, 'sessionId');
  if (typeof answer !== 'string') return undefined;
  return typeof sessionId === 'string' ? { answer, sessionId } : { answer };
}

/** The Markdown of a response, for an answer without metadata. */
function shownText(response: vscode.ChatResponseTurn['response']): string {
  return response
    .flatMap((part) => (part instanceof vscode.ChatResponseMarkdownPart ? [part.value.value] : []))
    .join('');
}

/** A ref as a fenced code block with its language; no text in it can close the fence. */
function codeBlock(ref: ExtractedRef): string {
  const fence = fenceFor(ref.content);
  const language = ref.language !== undefined && /^[\w#+.-]+$/.test(ref.language) ? ref.language : '';
  const body = ref.content === '' ? '' : `${ref.content}\n`;
  return `\n\n${fence}${language}\n${body}${fence}\n\n`;
}
