/**
 * The chat loop: sends the conversation to a model, streams the answer through the `<ref>` parser
 * (registering each ref as it closes), runs the tools the model calls (asking the user before any
 * write) and goes on until the model answers without a tool call. Provider-neutral and free of
 * `vscode`: the panel supplies the model client, the workspace and the confirmation.
 */
import { randomBytes } from 'node:crypto';
import type { FileSystemPort } from '../files/fileSystemPort';
import { RefStreamParser } from '../refs/extract';
import type { ExtractedRef, RefEvent } from '../refs/types';
import type { Session } from '../session/session';
import { DESCRIPTOR_TOOL_NAMES, type ToolDefinition, type ToolOutcome } from '../tools';
import { ToolError } from '../toolError';
import { quoteInput } from '../quoteInput';
import { ModelError, type ModelClient, type ModelToolCall } from './modelClient';
import { toModelMessages } from './modelMessages';
import type { ToWebview } from './protocol';
import type { AssistantMessageRecord, ChatMessageRecord, ChatRecord, ErrorRecord, RoundRecord, ToolCallRecord, WriteConfirmationRecord } from './transcript';
import { diagnosticView, messageView, refView, refViews, toolCallView } from './views';
import { errorMessage } from '../errors';

/** A model answer may call tools this many times in a row before the loop gives up. */
export const MAX_ROUNDS = 25;

/** A tool besides the four descriptor tools (its long outputs become descriptors). */
export interface ExtraTool {
  readonly definition: ToolDefinition;
  run(args: unknown, signal: AbortSignal): Promise<string>;
}

/** The model an answer uses, chosen when the answer starts. */
export interface ChatModel {
  readonly client: ModelClient;
  readonly model: string;
  /** As the chat shows it, e.g. `claude-sonnet-4-5 (Anthropic)`. */
  readonly label: string;
  readonly maxTokens: number;
}

/** What the conversation needs from its surroundings. */
export interface ConversationHost {
  /** The model for the next answer; throws `ModelError` (shown in the chat) when none can be used. */
  model(): Promise<ChatModel>;
  /** Where `fd_to_file` may write, and whether writing is allowed at all (a trusted workspace). */
  workspace(): { roots: readonly string[]; fileSystem: FileSystemPort; trusted: boolean };
  /** Asks the user whether the model may write; resolves false for a denial (or when `signal` aborts). */
  confirmWrite(callId: string, confirmation: WriteConfirmationRecord, signal: AbortSignal): Promise<boolean>;
  /** Whether writes are allowed without asking (a setting). */
  autoApproveWrites(): boolean;
  /** Tool outputs and user messages longer than these become descriptors. */
  limits(): { maxToolOutputChars: number; maxInputChars: number };
  readonly extraTools: readonly ExtraTool[];
  /** Extra system prompt text (the core's additions are always included). */
  systemPrompt(): string;
  /** Shows a relative path for an absolute one inside the workspace. */
  displayPath(absolutePath: string): string;
}

/** Where the conversation reports what happened. */
export interface ConversationListener {
  /** Something for the webview. */
  post(message: ToWebview): void;
  /** Refs were registered in the session (one call per ref, as it closes). */
  refsRegistered(ids: readonly string[]): void;
  /** New `fd:` descriptors exist (a paged message, a wrapped tool output, an extraction). */
  descriptorsAdded(): void;
  /** The transcript changed in a way worth saving (not called for every streamed chunk). */
  changed(): void;
}

/** One chat: its session (descriptors and refs), its saved messages and the loop that answers. */
export class Conversation {
  private abort: AbortController | undefined;
  private running: Promise<void> | undefined;

  constructor(
    readonly session: Session,
    readonly record: ChatRecord,
    private readonly host: ConversationHost,
    private readonly listener: ConversationListener,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get busy(): boolean {
    return this.running !== undefined;
  }

  /** Adds a user message and answers it. Resolves when the answer has ended (completed, stopped or failed). */
  async send(text: string): Promise<void> {
    this.requireIdle();
    const message = this.userMessage(text);
    this.record.messages.push(message);
    this.listener.post({ type: 'messageAdded', message: messageView(message) });
    await this.answer();
  }

  /** Answers the last user message again, replacing the answers after it. */
  async retry(): Promise<void> {
    this.requireIdle();
    const lastUser = findLastIndex(this.record.messages, (m) => m.role === 'user');
    if (lastUser === -1) throw new Error('There is no message to answer again.');
    this.removeFrom(lastUser + 1);
    await this.answer();
  }

  /** Replaces a user message's text, drops everything after it and answers again. */
  async editAndResend(messageId: string, text: string): Promise<void> {
    this.requireIdle();
    const index = this.record.messages.findIndex((m) => m.id === messageId);
    if (index === -1 || this.record.messages[index]?.role !== 'user') throw new Error('That message can no longer be edited.');
    this.removeFrom(index);
    const message = this.userMessage(text);
    this.record.messages.push(message);
    this.listener.post({ type: 'messageAdded', message: messageView(message) });
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
    if (index === -1) throw new Error('That message is no longer in the chat.');
    return structuredClone(this.record.messages.slice(0, index + 1));
  }

  private requireIdle(): void {
    if (this.running) throw new Error('The model is still answering. Stop it first.');
  }

  private removeFrom(index: number): void {
    const removed = this.record.messages[index];
    if (removed === undefined) return;
    this.record.messages.splice(index);
    this.listener.post({ type: 'messagesRemoved', fromId: removed.id });
    this.listener.changed();
  }

  private userMessage(text: string): ChatMessageRecord {
    const paged = this.session.pageUserInputAsDescriptor(text, this.host.limits().maxInputChars);
    const descriptor = paged.descriptor;
    if (descriptor) this.listener.descriptorsAdded();
    return {
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
          throw new ModelError('badRequest', `The model called tools ${MAX_ROUNDS} times in a row without answering, so FD Refs stopped it. Ask again, more specifically.`);
        }
        const calls = await this.streamRound(model, history, message, round, signal);
        if (calls.length === 0) break;
        await this.runTools(message, round, calls, signal);
        message.nextFd = this.session.nextFd;
        this.listener.changed();
      }
      message.status = 'complete';
    } catch (error) {
      if (signal.aborted || (error instanceof ModelError && error.kind === 'aborted')) {
        message.status = 'stopped';
      } else {
        message.status = 'error';
        message.error = errorView(error);
      }
    } finally {
      message.nextFd = this.session.nextFd;
      this.listener.post({ type: 'messageUpdated', message: messageView(message) });
      this.listener.changed();
    }
  }

  /** Streams one model response into a new round; returns the tool calls it made. */
  private async streamRound(
    model: ChatModel,
    history: readonly ChatMessageRecord[],
    message: AssistantMessageRecord,
    round: number,
    signal: AbortSignal,
  ): Promise<ModelToolCall[]> {
    const record: RoundRecord = { text: '', refVersions: [], toolCalls: [] };
    message.rounds.push(record);
    this.listener.post({ type: 'roundStarted', messageId: message.id, round });
    const parser = new RefStreamParser();
    const registered = new Map<number, number>(); // ref start offset -> version
    const calls: ModelToolCall[] = [];
    const request = {
      model: model.model,
      system: this.systemPrompt(),
      messages: toModelMessages([...history, message]),
      tools: this.toolDefinitions(),
      maxTokens: model.maxTokens,
    };
    // The round being streamed is empty in `message` at this point and is left out of the request.
    const onEvents = (events: readonly RefEvent[]) => this.handleRefEvents(events, message.id, round, registered);
    try {
      for await (const event of model.client.stream(request, signal)) {
        if (event.type === 'text') {
          if (event.text === '') continue;
          record.text += event.text;
          this.listener.post({ type: 'textDelta', messageId: message.id, round, text: event.text });
          const events = parser.push(event.text);
          if (events.length > 0) onEvents(events);
        } else if (event.type === 'toolCall') {
          calls.push(event.call);
        }
      }
    } finally {
      // Also for a stopped or failed stream: the refs that closed are kept, the text so far is shown.
      const { result, events } = parser.endWithEvents();
      onEvents(events);
      const fresh: string[] = [];
      for (const ref of result.refs) {
        if (!registered.has(ref.start)) {
          registered.set(ref.start, this.session.registerRef(ref));
          fresh.push(ref.id);
        }
      }
      if (fresh.length > 0) this.listener.refsRegistered(fresh);
      record.refVersions = result.refs.map((ref) => registered.get(ref.start) ?? 1);
      this.listener.post({
        type: 'roundEnded',
        messageId: message.id,
        round,
        refs: refViews(result.refs, record.refVersions),
        diagnostics: result.diagnostics.map(diagnosticView),
      });
    }
    record.toolCalls = calls.map((call) => ({ callId: call.id, name: call.name, arguments: call.arguments, status: 'running' }));
    return calls;
  }

  private handleRefEvents(events: readonly RefEvent[], messageId: string, round: number, registered: Map<number, number>): void {
    const fresh: string[] = [];
    for (const event of events) {
      if (event.type === 'open') {
        this.listener.post({
          type: 'refOpened',
          messageId,
          round,
          index: event.index,
          offset: event.offset,
          ...(event.id === undefined ? {} : { id: event.id }),
        });
      } else if (event.type === 'close') {
        const ref: ExtractedRef | undefined = event.ref;
        let version: number | undefined;
        if (ref && !registered.has(ref.start)) {
          version = this.session.registerRef(ref);
          registered.set(ref.start, version);
          fresh.push(ref.id);
        }
        this.listener.post({
          type: 'refClosed',
          messageId,
          round,
          index: event.index,
          offset: event.offset,
          // Nesting is settled by `roundEnded`; while streaming a closed ref is shown where it opened.
          ...(ref === undefined ? {} : { ref: refView(ref, registered.get(ref.start) ?? version ?? 1, false) }),
        });
      }
    }
    if (fresh.length > 0) this.listener.refsRegistered(fresh);
  }

  private async runTools(message: AssistantMessageRecord, round: number, calls: readonly ModelToolCall[], signal: AbortSignal): Promise<void> {
    const record = message.rounds[round] as RoundRecord;
    for (const [i, call] of calls.entries()) {
      const entry = record.toolCalls[i] as ToolCallRecord;
      this.postCall(message.id, round, entry);
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      const before = this.session.descriptors().length;
      const outcome = await this.runTool(call, entry, message.id, round, signal);
      entry.status = outcome.status;
      entry.result = outcome.result;
      if (outcome.descriptor !== undefined) entry.descriptor = outcome.descriptor;
      if (this.session.descriptors().length !== before) this.listener.descriptorsAdded();
      this.postCall(message.id, round, entry);
    }
  }

  private async runTool(
    call: ModelToolCall,
    entry: ToolCallRecord,
    messageId: string,
    round: number,
    signal: AbortSignal,
  ): Promise<{ status: 'done' | 'error' | 'denied'; result: string; descriptor?: string }> {
    let args: unknown;
    try {
      args = call.arguments.trim() === '' ? {} : JSON.parse(call.arguments);
    } catch {
      return failed(new ToolError('invalid_argument', `The arguments of ${quoteInput(call.name)} are not valid JSON: ${quoteInput(call.arguments)}`));
    }
    if (call.name === 'fd_to_file') return this.runWrite(args, entry, messageId, round, signal);
    if (DESCRIPTOR_TOOL_NAMES.has(call.name)) return settled(await this.session.runTool(call.name, args));
    const extra = this.host.extraTools.find((t) => t.definition.name === call.name);
    if (!extra) {
      const names = [...DESCRIPTOR_TOOL_NAMES, ...this.host.extraTools.map((t) => t.definition.name)].join(', ');
      return failed(new ToolError('invalid_argument', `There is no tool ${quoteInput(call.name)}. The tools are ${names}.`));
    }
    let output: string;
    try {
      output = await extra.run(args, signal);
    } catch (error) {
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      return failed(new ToolError('invalid_argument', `${call.name} failed: ${errorMessage(error)}`));
    }
    const wrapped = this.session.wrapToolOutputAsDescriptor(call.name, output, this.host.limits().maxToolOutputChars);
    return { status: 'done', result: wrapped.text, ...(wrapped.descriptor ? { descriptor: wrapped.descriptor.id } : {}) };
  }

  /** `fd_to_file`: checked, shown to the user, written only when allowed. */
  private async runWrite(
    args: unknown,
    entry: ToolCallRecord,
    messageId: string,
    round: number,
    signal: AbortSignal,
  ): Promise<{ status: 'done' | 'error' | 'denied'; result: string }> {
    const workspace = this.host.workspace();
    if (!workspace.trusted) {
      return failed(
        new ToolError('permission_denied', 'This workspace is not trusted (Restricted Mode), so files cannot be written. Show the content in your answer instead.'),
      );
    }
    const environment = { workspaceRoots: workspace.roots, fileSystem: workspace.fileSystem };
    let confirmation: WriteConfirmationRecord;
    try {
      const preview = await this.session.previewWrite(args, environment);
      confirmation = {
        source: preview.source,
        path: this.host.displayPath(preview.target),
        mode: preview.mode,
        ...(preview.line === undefined ? {} : { line: preview.line }),
        chars: preview.chars,
        bytes: preview.bytes,
        replacesFile: preview.mode === 'write' && preview.fileExists,
        fileExists: preview.fileExists,
      };
    } catch (error) {
      if (error instanceof ToolError) return failed(error);
      throw error;
    }
    entry.confirmation = confirmation;
    if (!this.host.autoApproveWrites()) {
      entry.status = 'awaitingConfirmation';
      this.postCall(messageId, round, entry);
      this.listener.changed();
      const allowed = await this.host.confirmWrite(entry.callId, confirmation, signal);
      if (signal.aborted) throw new ModelError('aborted', 'Stopped.');
      if (!allowed) {
        const denied = new ToolError(
          'permission_denied',
          `The user denied writing ${confirmation.source} to ${confirmation.path}. Do not try this write again unless the user asks for it; ` +
            'tell the user where the content is (it stays available as ' + confirmation.source + ').',
          confirmation.source,
        );
        return { status: 'denied', result: denied.toXml() };
      }
      entry.status = 'running';
      this.postCall(messageId, round, entry);
    }
    return settled(await this.session.runTool('fd_to_file', args, environment));
  }

  private postCall(messageId: string, round: number, entry: ToolCallRecord): void {
    this.listener.post({ type: 'toolCall', messageId, round, call: toolCallView(entry) });
  }

  private toolDefinitions(): ToolDefinition[] {
    return [...this.session.toolDefinitions(), ...this.host.extraTools.map((t) => t.definition)];
  }

  private systemPrompt(): string {
    const extra = this.host.systemPrompt().trim();
    return extra === '' ? this.session.systemPromptAdditions() : `${extra}\n\n${this.session.systemPromptAdditions()}`;
  }
}

function failed(error: ToolError): { status: 'error'; result: string } {
  return { status: 'error', result: error.toXml() };
}

function settled(outcome: ToolOutcome): { status: 'done' | 'error'; result: string } {
  return { status: outcome.ok ? 'done' : 'error', result: outcome.text };
}

/** How a failure is shown in the chat: a `ModelError`'s message as written, anything else as unexpected. */
export function errorView(error: unknown): ErrorRecord {
  if (error instanceof ModelError) {
    const action =
      error.kind === 'auth' || error.kind === 'permission'
        ? 'setApiKey'
        : error.kind === 'notFound' || error.kind === 'unreachable'
          ? 'openSettings'
          : error.kind === 'contextTooLong'
            ? undefined
            : 'retry';
    return {
      message: error.message,
      ...(error.options.detail === undefined ? {} : { detail: error.options.detail }),
      ...(action === undefined ? {} : { action }),
    };
  }
  const message = errorMessage(error);
  return { message: `Something went wrong while answering: ${message}`, action: 'retry' };
}

function newMessageId(): string {
  return `m-${randomBytes(6).toString('hex')}`;
}

function findLastIndex<T>(items: readonly T[], test: (item: T) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) if (test(items[i] as T)) return i;
  return -1;
}
