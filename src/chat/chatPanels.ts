import * as vscode from 'vscode';
import { tableMarkAfter, type ChatMessageRecord } from '../core/session/transcript';
import { Disposable } from '../common/lifecycle';
import { showBesideChat } from '../common/showBesideChat';
import type { SessionEntry } from '../sessions/sessionEntry';
import type { ChatPanel } from './chatPanel';
import { chatRuntime } from './chatRuntimeLoader';
import { CHAT_VIEW_TYPE, type ChatViewState } from '../common/chatViewType';
import type { ChatServices } from './chatServices';

/** The open chat panels, one per chat session; restores them when VS Code restarts. */
export class ChatPanels extends Disposable implements vscode.WebviewPanelSerializer<ChatViewState> {
  private readonly panels = new Map<string, ChatPanel>();
  private readonly services: ChatServices;

  constructor(services: Omit<ChatServices, 'chats'>) {
    super();
    this.services = { ...services, chats: this };
    this._register(vscode.window.registerWebviewPanelSerializer(CHAT_VIEW_TYPE, this));
    this._register(services.registry.onDidChange((change) => void this.onSessionChange(change)));
    this._register(services.registry.keepSessions((id) => this.panels.has(id)));
  }

  /** The open panels. */
  get all(): readonly ChatPanel[] {
    return [...this.panels.values()];
  }

  get(chatId: string): ChatPanel | undefined {
    return this.panels.get(chatId);
  }

  /** The chat the user is in: the panel whose tab is active. */
  get active(): ChatPanel | undefined {
    return this.all.find((panel) => panel.active);
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

  /** Opens a new chat, with the model picker on the default model. */
  async newChat(): Promise<ChatPanel> {
    const name = `Chat ${new Date().toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}`;
    const entry = await this.services.registry.create(name, { kind: 'chat' }, undefined, { messages: [] });
    return this.open(entry);
  }

  /** Shows a chat session, in its panel when it already has one. */
  open(entry: SessionEntry, column = vscode.ViewColumn.Beside): ChatPanel {
    const existing = this.panels.get(entry.metadata.id);
    if (existing) {
      existing.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(
      CHAT_VIEW_TYPE,
      entry.metadata.name,
      { viewColumn: column, preserveFocus: false },
      {},
    );
    return this.track(new (chatRuntime().ChatPanel)(panel, entry, this.services));
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
    if (!entry || this.panels.has(entry.metadata.id)) {
      panel.dispose();
      if (chatId !== undefined && !entry)
        this.services.log(`Chat ${chatId} no longer exists; its panel was not restored.`);
      return;
    }
    this.track(new (chatRuntime().ChatPanel)(panel, entry, this.services));
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

  override dispose(): void {
    for (const panel of this.panels.values()) panel.dispose();
    super.dispose();
  }
}
