import * as vscode from 'vscode';
import { tableMarkAfter, type ChatMessageRecord } from '../core/session/transcript';
import { CHAT_VIEW_ID, CHAT_VIEW_TYPE, type ChatViewState, LAST_VIEW_CHAT } from '../common/chatViewType';
import { UserError } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import { showBesideChat } from '../common/showBesideChat';
import type { SessionEntry } from '../sessions/sessionEntry';
import { editorHost, viewHost, type ChatHost } from './chatHost';
import type { ChatPanel } from './runtime/chatPanel';
import { chatRuntime } from './chatRuntimeLoader';
import type { ChatServices } from './chatServices';

/** How long a chat waits for VS Code to show the side bar's view before it opens in an editor tab instead. */
const VIEW_WAIT_MS = 10_000;

/**
 * The chats shown now, one `ChatPanel` per chat session, each in one place: the Chat view of the FD Refs side bar
 * (one chat at a time: New Chat, Open Chat and Fork put theirs there) or an editor tab (Open in Editor moves the
 * view's chat to one). Restores editor tabs when VS Code restarts, and the view's last chat when it shows it again
 * (as the serializer and the view provider activation registers: src/activation/lazyChat.ts).
 */
export class ChatPanels
  extends Disposable
  implements vscode.WebviewPanelSerializer<ChatViewState>, vscode.WebviewViewProvider
{
  private readonly panels = new Map<string, ChatPanel>();
  private readonly services: ChatServices;
  /** The side bar's view once VS Code has resolved it. */
  private view: { readonly webviewView: vscode.WebviewView; readonly host: ChatHost } | undefined;
  /** Set while a chat waits for the view to resolve: VS Code resolving it then shows no chat of its own. */
  private awaitingView = 0;
  private readonly viewResolved = this._register(new vscode.EventEmitter<void>());

  constructor(
    services: Omit<ChatServices, 'chats'>,
    private readonly state: vscode.Memento,
  ) {
    super();
    this.services = { ...services, chats: this };
    this._register(services.registry.onDidChange((change) => void this.onSessionChange(change)));
    this._register(services.registry.keepSessions((id) => this.panels.has(id)));
  }

  /** The open chats (shown, or giving an answer while shown nowhere). */
  get all(): readonly ChatPanel[] {
    return [...this.panels.values()];
  }

  get(chatId: string): ChatPanel | undefined {
    return this.panels.get(chatId);
  }

  /** Whether VS Code has resolved the side bar's view (it has not yet, or the user hid it). */
  get hasView(): boolean {
    return this.view !== undefined;
  }

  /** The chat the side bar's view shows. */
  get inView(): ChatPanel | undefined {
    const host = this.view?.host;
    return host && this.all.find((panel) => panel.host === host);
  }

  /** The chat the user is in: the one whose editor tab has the focus, else the side bar's while the view shows. */
  get active(): ChatPanel | undefined {
    return this.all.find((panel) => panel.host?.kind === 'editor' && panel.active) ?? this.visibleInView();
  }

  private visibleInView(): ChatPanel | undefined {
    const panel = this.inView;
    return panel?.active === true ? panel : undefined;
  }

  /** Opens the chat as Markdown in an untitled document, as the Export button does. */
  async exportMarkdown(entry: SessionEntry): Promise<vscode.TextDocument> {
    const document = await vscode.workspace.openTextDocument({
      language: 'markdown',
      content: chatRuntime().chatToMarkdown(entry.metadata.name, entry.chat?.messages ?? []),
    });
    await showBesideChat(document);
    return document;
  }

  /** Opens a new chat in the side bar's view, with the model picker on the default model. */
  async newChat(): Promise<ChatPanel> {
    return this.open(await this.createChat());
  }

  /** Shows a chat session where it is shown already, else in the side bar's view (in place of the chat there). */
  async open(entry: SessionEntry): Promise<ChatPanel> {
    const existing = this.panels.get(entry.metadata.id);
    if (existing?.host?.kind === 'editor') {
      existing.reveal();
      return existing;
    }
    const view = await this.resolvedView();
    if (!view) {
      this.services.log.warn(
        `The Chat view did not show within ${VIEW_WAIT_MS / 1000} s; the chat opens in an editor tab.`,
      );
      return this.showInEditor(entry, existing);
    }
    const panel = this.showInView(entry, view);
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    return panel;
  }

  /** Shows the side bar's view with its chat (resolving it shows the last chat, or a new one) and focuses it. */
  async focus(): Promise<ChatPanel> {
    const view = await this.resolvedView(false);
    if (!view) throw new UserError('VS Code did not show the FD Refs Chat view.');
    const panel = this.inView ?? this.showInView(await this.createChat(), view);
    await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
    return panel;
  }

  /**
   * Moves a chat (by default the side bar's) to an editor tab in the active group, its answer going on; the view then
   * offers New Chat and Open Chat (an empty chat made unasked would be one more session to delete). A chat already in a
   * tab is revealed.
   */
  async openInEditor(chatId?: string): Promise<ChatPanel> {
    const panel = chatId === undefined ? this.inView : this.panels.get(chatId);
    if (!panel) {
      const entry = chatId === undefined ? undefined : await this.services.registry.get(chatId).catch(() => undefined);
      if (!entry?.chat) throw new UserError('There is no chat to open in an editor: the Chat view shows none.');
      return this.showInEditor(entry, undefined);
    }
    if (panel.host?.kind === 'editor') {
      panel.reveal();
      return panel;
    }
    const entry = await this.services.registry.get(panel.chatId);
    if (!entry) throw new UserError('That chat no longer exists.');
    return this.showInEditor(entry, panel);
  }

  /** A new chat with these messages and a fork of the session as it was after the last of them (its descriptors and refs then). */
  async fork(entry: SessionEntry, messages: ChatMessageRecord[]): Promise<ChatPanel> {
    const model = entry.chat?.model;
    const forked = await this.services.registry.create(
      `${entry.metadata.name} (fork)`,
      { kind: 'chat', forkedFrom: entry.metadata.id },
      entry.session.fork(tableMarkAfter(messages)),
      { messages, ...(model === undefined ? {} : { model }) },
    );
    return this.open(forked);
  }

  /** Called by VS Code for a chat panel that was open when it closed. */
  async deserializeWebviewPanel(panel: vscode.WebviewPanel, state: ChatViewState | undefined): Promise<void> {
    const chatId = typeof state?.chatId === 'string' ? state.chatId : undefined;
    const entry = chatId === undefined ? undefined : await this.services.registry.get(chatId).catch(() => undefined);
    const existing = entry && this.panels.get(entry.metadata.id);
    if (existing && existing.host?.kind !== 'editor') {
      // The chat was moved to this tab, but the side bar's view (restored first) or an answer shown nowhere has it:
      // it goes back to its tab, and the view offers New Chat and Open Chat.
      this.forgetViewChat(existing.chatId);
      existing.showIn(this.editorHost(panel));
      return;
    }
    if (!entry || existing) {
      panel.dispose();
      if (chatId !== undefined && !entry)
        this.services.log.info(`Chat ${chatId} no longer exists; its panel was not restored.`);
      return;
    }
    this.track(new (chatRuntime().ChatPanel)(this.editorHost(panel), entry, this.services));
  }

  /**
   * Called by VS Code when the side bar's Chat view is first shown: it shows the chat it showed last, else New Chat and
   * Open Chat links (no session is made before the user asks for a chat).
   */
  async resolveWebviewView(
    webviewView: vscode.WebviewView,
    // Its state names the chat the view's page showed last, which may have moved to a tab since: not used.
    _context: vscode.WebviewViewResolveContext<ChatViewState>,
  ): Promise<void> {
    const view = { webviewView, host: viewHost(webviewView) };
    this.view = view;
    webviewView.onDidDispose(() => {
      // The chat in this view: VS Code may have resolved a new view (dragged to another side bar) before this one went.
      const shown = this.all.find((panel) => panel.host === view.host);
      if (this.view === view) this.view = undefined;
      if (shown) this.putAway(shown);
    });
    try {
      if (this.awaitingView > 0) return; // `open` puts its chat there
      const last = this.state.get<string>(LAST_VIEW_CHAT);
      const entry = last === undefined ? undefined : await this.services.registry.get(last).catch(() => undefined);
      if (this.inView || this.view !== view) return; // a chat was put there meanwhile, or the view went away
      const shown = entry && this.panels.get(entry.metadata.id);
      if (entry?.chat && entry.readOnly === undefined && shown?.host?.kind !== 'editor') {
        this.showInView(entry, view);
        return;
      }
      view.host.release();
      if (entry?.readOnly !== undefined && !shown) {
        // Another window (or agent) writes it: that window shows it; this one offers New Chat and Open Chat.
        this.services.log.info(`The Chat view does not show "${entry.metadata.name}" again: ${entry.readOnly}.`);
        void this.services.registry.release(entry.metadata.id);
      }
    } finally {
      this.viewResolved.fire();
    }
  }

  private async createChat(): Promise<SessionEntry> {
    const name = `Chat ${new Date().toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
    return this.services.registry.create(name, { kind: 'chat' }, undefined, { messages: [] });
  }

  /**
   * The side bar's view, shown (and resolved) first if it has not been; undefined if VS Code does not show it. With
   * `putsChat`, the caller puts a chat there, so resolving it shows none of its own.
   */
  private async resolvedView(
    putsChat = true,
  ): Promise<{ webviewView: vscode.WebviewView; host: ChatHost } | undefined> {
    if (this.view) return this.view;
    if (putsChat) this.awaitingView++;
    try {
      const resolved = new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          listener.dispose();
          resolve();
        }, VIEW_WAIT_MS);
        const listener = this.viewResolved.event(() => {
          clearTimeout(timer);
          listener.dispose();
          resolve();
        });
      });
      await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`);
      await resolved;
    } finally {
      if (putsChat) this.awaitingView--;
    }
    return this.view;
  }

  /** Shows a chat in the view, in place of the one there (which is closed, or finishes its answer unseen first). */
  private showInView(entry: SessionEntry, view: { webviewView: vscode.WebviewView; host: ChatHost }): ChatPanel {
    const current = this.inView;
    if (current && current.chatId !== entry.metadata.id) this.putAway(current);
    const existing = this.panels.get(entry.metadata.id);
    let panel: ChatPanel;
    if (existing) {
      existing.showIn(view.host);
      panel = existing;
    } else panel = this.track(new (chatRuntime().ChatPanel)(view.host, entry, this.services));
    void this.state.update(LAST_VIEW_CHAT, entry.metadata.id);
    return panel;
  }

  /** Shows a chat in a new editor tab in the active group (moving it there if it is shown elsewhere). */
  private showInEditor(entry: SessionEntry, existing: ChatPanel | undefined): ChatPanel {
    const webviewPanel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      entry.metadata.name,
      { viewColumn: vscode.ViewColumn.Active, preserveFocus: false },
      {},
    );
    const host = this.editorHost(webviewPanel);
    if (existing) {
      this.forgetViewChat(existing.chatId);
      existing.showIn(host);
      return existing;
    }
    return this.track(new (chatRuntime().ChatPanel)(host, entry, this.services));
  }

  private editorHost(panel: vscode.WebviewPanel): ChatHost {
    return editorHost(panel, vscode.Uri.joinPath(this.services.extensionUri, 'media', 'fdref.svg'));
  }

  /** The view no longer shows this chat: it is not shown there again. */
  private forgetViewChat(chatId: string): void {
    if (this.state.get<string>(LAST_VIEW_CHAT) === chatId) void this.state.update(LAST_VIEW_CHAT, undefined);
  }

  /**
   * A chat no longer shown: closed now, or once the answer it is giving has ended (unless it is shown again). Tool
   * calls waiting for Allow or Deny are denied (no one could answer them), and the model goes on with that.
   */
  private putAway(panel: ChatPanel): void {
    panel.hide();
    const denied = panel.denyConfirmations();
    if (denied > 0)
      void this.services.messages.info(
        `"${panel.title}" was waiting for Allow or Deny when the Chat view stopped showing it, so ${denied === 1 ? 'that tool call was' : `its ${denied} tool calls were`} denied; Open Chat shows how it went on.`,
      );
    if (!panel.busy) {
      panel.dispose();
      return;
    }
    const listener = panel.onDidPost((message) => {
      if (message.type !== 'busy' || message.busy) return;
      listener.dispose();
      if (!panel.host) panel.dispose();
    });
    panel.onDidDispose(() => {
      listener.dispose();
    });
  }

  private track(panel: ChatPanel): ChatPanel {
    this.panels.set(panel.chatId, panel);
    panel.onDidDispose(() => {
      if (this.panels.get(panel.chatId) !== panel) return;
      this.panels.delete(panel.chatId);
      // Its last change saved, the session leaves memory and its writer is given up (another window may take it).
      void panel.stopped.then(() => {
        if (!this.panels.has(panel.chatId)) return this.services.registry.release(panel.chatId);
        return undefined;
      });
    });
    return panel;
  }

  private async onSessionChange(change: { kind: string; sessionId?: string }): Promise<void> {
    if (change.kind === 'removed' && change.sessionId !== undefined) {
      this.forgetViewChat(change.sessionId);
      this.panels.get(change.sessionId)?.dispose();
      return;
    }
    if (change.kind !== 'reloaded') return;
    // The panels open now (a chat opened meanwhile already has the entry read from disk), all at once.
    await Promise.all(
      [...this.panels.values()].map(async (panel) => {
        const entry = await this.services.registry.get(panel.chatId).catch(() => undefined);
        if (entry) await panel.rebind(entry);
        else panel.dispose();
      }),
    );
  }

  /**
   * The window is closing: every answer being given ends now, recorded as stopped (its last change handed to the
   * registry, which saves it before it closes). The panels stay, so VS Code restores their tabs.
   */
  async close(): Promise<void> {
    await Promise.all([...this.panels.values()].map((panel) => panel.stopAnswer()));
  }

  override dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    super.dispose();
  }
}
