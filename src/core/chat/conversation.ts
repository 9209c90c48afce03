/**
 * The chat loop: sends the conversation to a model, streams each response into a round (`roundStream.ts`), runs
 * the tools it calls (`toolCalls.ts`) and goes on until the model answers without a tool call. Provider-neutral
 * and free of `vscode`: the host supplies the model client, the workspace and the confirmation.
 */
import { randomBytes } from 'node:crypto';
import type { Session } from '../session/session';
import type { ToolDefinition } from '../tools/toolTable';
import { toolDefinition } from '../tools/toolTable';
import type { ChatModel, ConversationHost, ConversationListener } from './conversationHost';
import { UserError } from '../errors';
import { errorRecord } from './errorRecord';
import { ModelError, type ModelRequest } from './modelClient';
import { toModelMessages } from './modelMessages';
import { streamRound } from './roundStream';
import { offeredTools, ToolCalls } from './toolCalls';
import type { AssistantMessageRecord, ChatMessageRecord, ChatRecord } from '../session/transcript';
import { messageView } from './views';

/** A model answer may call tools this many times in a row before the loop gives up. */
export const MAX_ROUNDS = 25;

/** One chat: its session (descriptors and refs), its saved messages and the loop that answers. */
export class Conversation {
  private abort: AbortController | undefined;
  private running: Promise<void> | undefined;
  private readonly tools: ToolCalls;

  constructor(
    readonly session: Session,
    readonly record: ChatRecord,
    private readonly host: ConversationHost,
    private readonly listener: ConversationListener,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.tools = new ToolCalls(session, host, listener);
  }

  get busy(): boolean {
    return this.running !== undefined;
  }

  /**
   * Adds a user message and answers it. Resolves when the answer has ended (completed, stopped or failed). Every
   * public action rejects with a `UserError` saying why when the chat cannot take it now.
   */
  async send(text: string): Promise<void> {
    this.requireIdle('send your message');
    this.addUserMessage(text);
    await this.answer();
  }

  /** Answers the last user message again, replacing the answers after it. */
  async retry(): Promise<void> {
    this.requireIdle('retry');
    const lastUser = findLastIndex(this.record.messages, (m) => m.role === 'user');
    if (lastUser === -1)
      throw new UserError(`"${this.host.chatName()}" has no answer to retry yet: send a message first.`);
    this.removeFrom(lastUser + 1);
    await this.answer();
  }

  /** Replaces a user message's text, drops everything after it and answers again. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    this.requireIdle('edit it');
    const index = this.record.messages.findIndex((m) => m.id === messageId);
    if (index === -1 || this.record.messages[index]?.role !== 'user')
      throw new UserError(`That message is no longer in "${this.host.chatName()}", so it cannot be edited.`);
    this.removeFrom(index);
    this.addUserMessage(text);
    await this.answer();
  }

  /** Stops the answer that is streaming; resolves when it has stopped. */
  async stop(): Promise<void> {
    this.abort?.abort();
    await this.running;
  }

  /** The messages up to and including `messageId`, for a forked chat (a deep copy; `tableMarkAfter` them gives its session). */
  messagesUpTo(messageId: string): ChatMessageRecord[] {
    const index = this.record.messages.findIndex((m) => m.id === messageId);
    if (index === -1) throw new UserError(`That message is no longer in "${this.host.chatName()}".`);
    return structuredClone(this.record.messages.slice(0, index + 1));
  }

  /** A `UserError` while an answer is being given: `then` says what the user can do once it is stopped. */
  private requireIdle(then: string): void {
    if (this.running) throw new UserError(`"${this.host.chatName()}" is still answering: stop it first, then ${then}.`);
  }

  private removeFrom(index: number): void {
    const removed = this.record.messages[index];
    if (removed === undefined) return;
    this.record.messages.splice(index);
    this.listener.post({ type: 'messagesRemoved', fromId: removed.id });
    this.listener.changed();
  }

  /** Adds `text` as a user message; a long one is paged into a descriptor, and the model gets a preview. */
  private addUserMessage(text: string): void {
    const paged = this.session.pageUserInputAsDescriptor(text, this.host.limits().maxInputChars);
    const descriptor = paged.descriptor;
    if (descriptor) this.listener.descriptorsAdded();
    const message: ChatMessageRecord = {
      role: 'user',
      id: newMessageId(),
      text,
      createdAt: this.now().toISOString(),
      nextFd: this.session.nextFd,
      ...(descriptor === undefined
        ? {}
        : {
            modelText: paged.text,
            descriptor: { id: descriptor.id, chars: text.length, lines: descriptor.content.totalLines },
          }),
    };
    this.record.messages.push(message);
    this.listener.post({ type: 'messageAdded', message: messageView(message) });
  }

  private answer(): Promise<void> {
    const abort = new AbortController();
    this.abort = abort;
    const run = this.runAnswer(abort.signal).finally(() => {
      this.abort = undefined;
      this.running = undefined;
      this.listener.post({ type: 'busy', busy: false });
    });
    this.running = run;
    this.listener.post({ type: 'busy', busy: true });
    return run;
  }

  /** Streams rounds until one calls no tool; the answer ends complete, stopped or failed, and is saved either way. */
  private async runAnswer(signal: AbortSignal): Promise<void> {
    const history = this.record.messages.slice();
    const message: AssistantMessageRecord = {
      role: 'assistant',
      id: newMessageId(),
      createdAt: this.now().toISOString(),
      status: 'streaming',
      rounds: [],
    };
    this.record.messages.push(message);
    this.listener.post({ type: 'messageAdded', message: messageView(message) });
    try {
      const model = await this.host.model();
      message.model = model.label;
      this.listener.post({ type: 'messageUpdated', message: messageView(message) });
      for (let round = 0; ; round++) {
        if (round >= MAX_ROUNDS) {
          throw new ModelError(
            'badRequest',
            `The model called tools ${MAX_ROUNDS} times in a row without answering, so FD Refs stopped it. Ask again, more specifically.`,
          );
        }
        // The round about to stream is not in `message` yet, so the request holds the rounds before it.
        const calls = await streamRound(
          model.client,
          this.request(model, history, message),
          message,
          this.session,
          this.listener,
          signal,
        );
        if (calls.length === 0) break;
        await this.tools.run(message, round, calls, signal);
        message.nextFd = this.session.nextFd;
        this.listener.changed();
      }
      message.status = 'complete';
    } catch (error) {
      if (signal.aborted || (error instanceof ModelError && error.kind === 'aborted')) {
        message.status = 'stopped';
      } else {
        message.status = 'error';
        message.error = errorRecord(error);
      }
    } finally {
      message.nextFd = this.session.nextFd;
      this.listener.post({ type: 'messageUpdated', message: messageView(message) });
      this.listener.changed();
    }
  }

  private request(
    model: ChatModel,
    history: readonly ChatMessageRecord[],
    message: AssistantMessageRecord,
  ): ModelRequest {
    return {
      model: model.model,
      system: this.systemPrompt(),
      messages: toModelMessages([...history, message]),
      tools: this.toolDefinitions(),
      maxTokens: model.maxTokens,
    };
  }

  /** The chat's own tools (`run_command` in a trusted workspace only), and the host's other tools. */
  private toolDefinitions(): ToolDefinition[] {
    const inlineChars = this.host.limits().maxToolOutputChars;
    const own = offeredTools(this.host.workspace().trusted).map((t) => toolDefinition(t, { inlineChars }));
    return [...own, ...this.host.extraTools().map((t) => t.definition)];
  }

  private systemPrompt(): string {
    const extra = this.host.systemPrompt().trim();
    return extra === '' ? this.session.systemPromptAdditions() : `${extra}\n\n${this.session.systemPromptAdditions()}`;
  }
}

function newMessageId(): string {
  return `m-${randomBytes(6).toString('hex')}`;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
