import * as vscode from 'vscode';
import { shownPath } from '../../common/workspacePaths';
import { Conversation } from '../../core/chat/conversation';
import type { ConversationHost, ConversationListener } from '../../core/chat/conversationHost';
import { fromWebview, takenFromPage, type FromWebview, type ToWebview } from '../../core/chat/protocol';
import { PostQueue } from '../../core/chat/postQueue';
import { ChatDrafts } from '../../core/chat/chatDrafts';
import type { ConfirmationRecord } from '../../core/session/transcript';
import { messageView } from '../../core/chat/views';
import { UserError } from '../../common/errors';
import { REF_COMMAND_IDS } from '../../common/refCommandIds';
import { Disposable } from '../../common/lifecycle';
import { entityDetailsMarkdown } from '../../entities/entityDetails';
import type { SessionEntry } from '../../sessions/sessionEntry';
import { chatHtml, createNonce } from '../../core/presentation/chatHtml';
import type { ChatHost } from '../chatHost';
import type { ChatServices } from '../chatServices';
import { openLink } from './links';
import { openWrittenFile } from './writtenFiles';
import { resolveModel } from './modelResolver';
import { missingOtherTool, otherTools } from '../otherTools';
import { structsEntityTool } from './structsEntityTool';

/** Every chat's unsent text, whichever page posted it (a chat put away keeps its draft for when it is shown again). */
const drafts = new ChatDrafts();

/**
 * One chat panel: a webview showing a chat session, and the conversation that answers in it. Everything
 * the webview sends is validated against the protocol; what the conversation reports is batched to it.
 */
export class ChatPanel extends Disposable {
  private readonly postEmitter = this._register(new vscode.EventEmitter<ToWebview>());
  /** Every message for the webview, before batching (the tests watch this). */
  readonly onDidPost = this.postEmitter.event;
  private readonly disposeEmitter = this._register(new vscode.EventEmitter<void>());
  readonly onDidDispose = this.disposeEmitter.event;

  private conversation: Conversation;
  private ready = false;
  private readonly queue = new PostQueue((message) => void this.shownIn?.webview.postMessage(message));
  /** Where the chat is shown now; undefined while it is shown nowhere (an answer it was giving goes on). */
  private shownIn: ChatHost | undefined;
  /** The listeners on the host's webview, dropped when the chat moves. */
  private hostListeners: vscode.Disposable[] = [];
  private readonly confirmations = new Map<string, (allowed: boolean) => void>();
  private closed = false;
  /** Resolves once the conversation has stopped after the panel closed (its last change handed to the registry). */
  stopped: Promise<void> = Promise.resolve();

  constructor(
    host: ChatHost,
    private entry: SessionEntry,
    private readonly services: ChatServices,
  ) {
    super();
    this.conversation = this.createConversation(entry);
    this._register(vscode.workspace.onDidGrantWorkspaceTrust(() => this.post({ type: 'trust', trusted: true })));
    this._register(services.catalog.onDidChange(() => void this.postModels()));
    this.showIn(host);
    this.warnIfReadOnly();
  }

  /** Where the chat is shown: an editor tab, the side bar's Chat view, or nowhere (see `hide`). */
  get host(): ChatHost | undefined {
    return this.shownIn;
  }

  /**
   * Shows the chat in `host` (an editor tab, or the side bar's view), and nowhere else: the conversation, an answer
   * being streamed included, carries on; the page loads again and gets the whole state when it says it is ready.
   */
  showIn(host: ChatHost): void {
    if (this.closed || host === this.shownIn) return;
    this.hide();
    this.shownIn = host;
    const extensionUri = this.services.extensionUri;
    host.webview.options = {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [
        vscode.Uri.joinPath(extensionUri, 'dist', 'webview'),
        vscode.Uri.joinPath(extensionUri, 'media'),
      ],
    };
    host.setTitle(this.entry.metadata.name);
    this.hostListeners = [
      host.webview.onDidReceiveMessage((message: unknown) => {
        if (this.shownIn !== host) return;
        if (takenFromPage(this.ready, message)) void this.receive(message);
        else this.services.log.debug(`Chat ${this.chatId}: ignored a message the page shown before it posted.`);
      }),
    ];
    // A closed tab ends the chat; for a view that goes away, `ChatPanels` decides (an answer being given goes on).
    if (host.kind === 'editor') this.hostListeners.push(host.onDidClose(() => this.dispose()));
    host.webview.html = this.html(host.webview);
  }

  /** Shows the chat nowhere: the host is let go of (a tab closes; the view stays for another chat). */
  hide(): void {
    const host = this.shownIn;
    if (!host) return;
    for (const listener of this.hostListeners.splice(0)) listener.dispose();
    this.shownIn = undefined;
    this.ready = false;
    this.queue.clear();
    host.release();
  }

  get chatId(): string {
    return this.entry.metadata.id;
  }

  /** The chat session's name. */
  get title(): string {
    return this.entry.metadata.name;
  }

  get busy(): boolean {
    return this.conversation.busy;
  }

  /** Whether the answer waits for the user to allow or deny a tool call. */
  get awaitingConfirmation(): boolean {
    return this.confirmations.size > 0;
  }

  /** Denies every tool call waiting for the user (the model is told, and the answer goes on); how many there were. */
  denyConfirmations(): number {
    const pending = [...this.confirmations.values()];
    this.confirmations.clear();
    for (const resolve of pending) resolve(false);
    return pending.length;
  }

  /** Handles a message from the webview; anything that does not match the protocol is logged and ignored. */
  async receive(raw: unknown): Promise<void> {
    const parsed = fromWebview.safeParse(raw);
    if (!parsed.success) {
      this.services.log.warn(
        `Chat ${this.chatId}: ignored a malformed message from the webview (${parsed.error.issues[0]?.message ?? 'invalid'}).`,
      );
      return;
    }
    try {
      await this.handle(parsed.data);
    } catch (error) {
      void this.services.messages.failure(`The chat "${this.entry.metadata.name}"`, error);
    }
  }

  /** Sends a message as if typed in the panel; resolves when the answer has ended. */
  send(text: string): Promise<void> {
    return this.conversation.send(text);
  }

  /** Stops a streaming answer. */
  stop(): Promise<void> {
    return this.conversation.stop();
  }

  /** Shows the session again after the registry re-read it from disk (or another entry object replaced it). */
  async rebind(entry: SessionEntry): Promise<void> {
    if (entry === this.entry || this.closed) return;
    await this.conversation.stop();
    this.entry = entry;
    this.shownIn?.setTitle(entry.metadata.name);
    this.conversation = this.createConversation(entry);
    this.warnIfReadOnly();
    if (this.ready) await this.postInit();
  }

  reveal(): void {
    this.shownIn?.reveal();
  }

  /** Whether this chat is the one the user is in (its tab has the focus, or the side bar's view shows it). */
  get active(): boolean {
    return this.shownIn?.active ?? false;
  }

  /**
   * Answers the last message again, as the Retry button does; resolves when the answer has ended. A `UserError`
   * when the chat is read-only here, and the conversation's own when it is still answering or has nothing to retry.
   */
  async retry(): Promise<void> {
    this.requireWritable();
    await this.conversation.retry();
  }

  /**
   * Ends the answer being given, if any (the window is closing): it is recorded as stopped, not left streaming. A
   * tool call waiting for Allow or Deny is denied first, since nobody can answer it now.
   */
  stopAnswer(): Promise<void> {
    this.denyConfirmations();
    return this.conversation.stop().catch(() => undefined);
  }

  override dispose(): void {
    if (this.closed) return;
    this.closed = true;
    this.denyConfirmations();
    this.stopped = this.conversation.stop().catch(() => undefined);
    this.hide();
    this.disposeEmitter.fire();
    super.dispose();
  }

  private async handle(message: FromWebview): Promise<void> {
    const sessionId = this.chatId;
    switch (message.type) {
      case 'ready':
        this.ready = true;
        return this.postInit();
      case 'draft':
        drafts.set(message.chatId, message.text);
        return;
      case 'send':
        this.requireWritable();
        return this.conversation.send(message.text);
      case 'stop':
        return this.conversation.stop();
      case 'retry':
        return this.retry();
      case 'editResend':
        this.requireWritable();
        return this.conversation.editAndResend(message.messageId, message.text);
      case 'fork':
        await this.services.chats.fork(this.entry, this.conversation.messagesUpTo(message.messageId));
        return;
      case 'selectModel': {
        const chat = this.entry.chat;
        if (chat) chat.model = message.key;
        await this.services.registry.changed(sessionId);
        return;
      }
      case 'refAction':
        await vscode.commands.executeCommand(REF_COMMAND_IDS[message.action], { sessionId, descriptorId: message.ref });
        return;
      case 'openDescriptor':
        await vscode.commands.executeCommand(REF_COMMAND_IDS.open, { sessionId, descriptorId: message.descriptor });
        return;
      case 'openFile':
        return openWrittenFile(this.entry.chat?.messages ?? [], this.services.writer, message.callId);
      case 'confirm': {
        const resolve = this.confirmations.get(message.callId);
        this.confirmations.delete(message.callId);
        resolve?.(message.allow);
        return;
      }
      case 'openLink':
        return openLink(message.href, this.services.log);
      case 'entityHover': {
        const markdown = await entityDetailsMarkdown(this.services.entities, message.id);
        if (markdown !== undefined)
          this.post({ type: 'entityDetails', requestId: message.requestId, id: message.id, markdown });
        return;
      }
      case 'copyText':
        await vscode.env.clipboard.writeText(message.text);
        return;
      case 'exportMarkdown':
        await this.services.chats.exportMarkdown(this.entry);
        return;
      case 'command':
        switch (message.command) {
          case 'setApiKey':
            await vscode.commands.executeCommand('fdref.setApiKey');
            return;
          case 'openSettings':
            await vscode.commands.executeCommand('workbench.action.openSettings', 'fdref.chat');
            return;
          case 'newChat':
            await vscode.commands.executeCommand('fdref.newChat');
            return;
          case 'chooseTools':
            await vscode.commands.executeCommand('fdref.chat.chooseTools');
            return;
        }
    }
  }

  /** A chat another window or agent writes is shown, not continued: its answers would be lost. */
  private requireWritable(): void {
    const why = this.entry.readOnly;
    if (why !== undefined) throw new UserError(`"${this.entry.metadata.name}" is read-only in this window: ${why}.`);
  }

  private warnIfReadOnly(): void {
    const why = this.entry.readOnly;
    if (why !== undefined)
      void this.services.messages.warn(`"${this.entry.metadata.name}" is read-only in this window: ${why}.`);
  }

  private createConversation(entry: SessionEntry): Conversation {
    const chat = entry.chat ?? { messages: [] };
    const services = this.services;
    const host: ConversationHost = {
      chatName: () => entry.metadata.name,
      // A model that has gone (uninstalled, removed from the settings) falls back to the first one, as the picker shows.
      model: async () =>
        resolveModel(services.catalog, selected(chat.model, await services.catalog.options()).selectedModel),
      workspace: () => ({
        roots: services.writer.roots(),
        fileSystem: services.writer.fileSystem,
        trusted: vscode.workspace.isTrusted,
      }),
      confirm: (callId, confirmation, signal) => this.confirm(callId, confirmation, signal),
      autoApproveWrites: () => services.configuration.settings.autoApproveWrites,
      autoApproveCommands: () => vscode.workspace.isTrusted && services.configuration.settings.autoApproveCommands,
      streamOutput: () => services.registry.streamInto(entry.metadata.id),
      limits: () => services.configuration.settings,
      extraTools: () => [structsEntityTool(services.entities), ...otherTools(services.configuration.settings)],
      missingTool: (name) => missingOtherTool(services.configuration.settings, name),
      systemPrompt: () => services.configuration.settings.systemPrompt,
      displayPath: (path) => shownPath(path),
      storeSearch: () => services.registry.search.port(entry.metadata.id),
    };
    const sessionId = entry.metadata.id;
    const listener: ConversationListener = {
      post: (message) => this.post(message),
      refsRegistered: (ids) => void services.registry.changed(sessionId, { refIds: ids }),
      descriptorsAdded: () => void services.registry.changed(sessionId, { descriptors: true }),
      changed: () => void services.registry.changed(sessionId),
    };
    return new Conversation(entry.session, chat, host, listener);
  }

  private confirm(callId: string, _confirmation: ConfirmationRecord, signal: AbortSignal): Promise<boolean> {
    // Shown nowhere (put away while answering), no one could answer: the call is denied rather than wait for ever.
    if (this.closed || !this.shownIn) return Promise.resolve(false);
    return new Promise((resolve) => {
      const settle = (allowed: boolean) => {
        signal.removeEventListener('abort', onAbort);
        resolve(allowed);
      };
      const onAbort = () => {
        this.confirmations.delete(callId);
        settle(false);
      };
      signal.addEventListener('abort', onAbort);
      this.confirmations.set(callId, settle);
    });
  }

  private async postInit(): Promise<void> {
    const models = await this.services.catalog.options();
    const chat = this.entry.chat ?? { messages: [] };
    const draft = drafts.get(this.chatId);
    this.queue.clear();
    this.post({
      type: 'init',
      chatId: this.chatId,
      title: this.entry.metadata.name,
      messages: chat.messages.map(messageView),
      models,
      ...selected(chat.model, models),
      busy: this.conversation.busy,
      welcome: models.length === 0,
      trusted: vscode.workspace.isTrusted,
      ...(draft === undefined ? {} : { draft }),
    });
  }

  private async postModels(): Promise<void> {
    if (this.closed) return;
    const models = await this.services.catalog.options();
    this.post({ type: 'models', models, ...selected(this.entry.chat?.model, models), welcome: models.length === 0 });
  }

  private post(message: ToWebview): void {
    if (this.closed) return;
    this.postEmitter.fire(message);
    // Before `ready` the webview is not listening; `init` will carry the whole state.
    if (this.ready) this.queue.push(message);
  }

  private html(webview: vscode.Webview): string {
    const asset = (...path: string[]) =>
      webview.asWebviewUri(vscode.Uri.joinPath(this.services.extensionUri, ...path)).toString();
    return chatHtml({
      cspSource: webview.cspSource,
      nonce: createNonce(),
      scriptUri: asset('dist', 'webview', 'chat.js'),
      styleUris: [asset('media', 'chat.css')],
      codiconUri: asset('dist', 'webview', 'codicon.css'),
      title: this.entry.metadata.name,
    });
  }
}

function selected(chosen: string | undefined, models: readonly { key: string }[]): { selectedModel?: string } {
  const key = chosen !== undefined && models.some((m) => m.key === chosen) ? chosen : models[0]?.key;
  return key === undefined ? {} : { selectedModel: key };
}
