/** The chat view: header, welcome, messages and composer, and where each message from the extension goes. */
import type { ToWebview, UserMessageView } from '../core/chat/protocol';
import { Composer } from './composer';
import { flags, scheduler } from './context';
import { h } from './dom';
import { EntityTooltip } from './entityTooltip';
import { Header } from './header';
import { forgetHighlights } from './highlight';
import { routeLinks } from './links';
import { MessageList } from './messageList';
import { refreshRefActions } from './refFrame';
import { post, showingChat, updateViewState, viewState } from './vscode';
import { NewChatWelcome, welcomeView } from './welcome';

export class ChatApp {
  private readonly header = new Header();
  private readonly list = new MessageList();
  private readonly composer = new Composer();
  private readonly tooltip = new EntityTooltip();
  private readonly welcomeHost = h('div', { class: 'welcome-host' });
  private readonly newChat = new NewChatWelcome((prompt) => this.composer.fill(prompt));
  private readonly newChatHost = h('div', { class: 'welcome-host new-chat-host' }, this.newChat.element);
  /** No model can be used (the other welcome shows). */
  private noModel = false;

  constructor(root: HTMLElement) {
    this.welcomeHost.hidden = true;
    this.newChatHost.hidden = true;
    this.header.onModel = (model) => this.newChat.setModel(model);
    root.replaceChildren(
      this.header.element,
      this.welcomeHost,
      this.newChatHost,
      this.list.element,
      this.composer.element,
    );
    routeLinks();
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && flags.busy && !event.defaultPrevented) post({ type: 'stop' });
    });
    // The chat opened or came back to the front: typing goes to the composer unless something else has focus.
    window.addEventListener('focus', () => {
      if (document.activeElement === document.body || document.activeElement === null) this.composer.focus();
    });
  }

  handle(message: ToWebview): void {
    switch (message.type) {
      case 'init': {
        scheduler.clear();
        forgetHighlights();
        const state = viewState();
        const sameChat = state.chatId === message.chatId;
        // The draft the extension kept is the newest (the chat may have been typed in elsewhere since this page showed
        // it); without one (VS Code restarted), the page's own, when it showed this chat last.
        const draft = message.draft ?? (sameChat ? (state.draft ?? '') : '');
        showingChat(message.chatId, message.draft ?? '');
        if (!sameChat) updateViewState({ chatId: message.chatId, draft, scrollTop: undefined, atBottom: true });
        else updateViewState({ draft }); // the extension gets the page's own when it had none
        if (draft !== this.composer.draft) this.composer.setDraft(draft);
        this.header.setTitle(message.title);
        this.header.setModels(message.models, message.selectedModel);
        this.setWelcome(message.welcome);
        this.setTrusted(message.trusted);
        this.setBusy(message.busy);
        this.list.reset(message.messages, sameChat ? { scrollTop: state.scrollTop, atBottom: state.atBottom } : {});
        this.composer.setHistory(message.messages.flatMap((m) => (m.role === 'user' ? sentText(m) : [])));
        this.refreshNewChat();
        this.composer.focus();
        break;
      }
      case 'models':
        this.header.setModels(message.models, message.selectedModel);
        this.setWelcome(message.welcome);
        break;
      case 'title':
        this.header.setTitle(message.title);
        break;
      case 'busy':
        this.setBusy(message.busy);
        break;
      case 'messageAdded':
        this.list.add(message.message);
        if (message.message.role === 'user') for (const text of sentText(message.message)) this.composer.remember(text);
        this.refreshNewChat();
        break;
      case 'messageUpdated':
        this.list.update(message.message);
        break;
      case 'messagesRemoved':
        this.list.removeFrom(message.fromId);
        this.refreshNewChat();
        break;
      case 'roundStarted':
        this.list.answer(message.messageId)?.roundStarted(message.round);
        break;
      case 'textDelta':
        this.list.answer(message.messageId)?.textDelta(message.round, message.text);
        break;
      case 'refOpened':
        this.list.answer(message.messageId)?.refOpened(message.round, message.index, message.id, message.offset);
        break;
      case 'refClosed':
        this.list.answer(message.messageId)?.refClosed(message.round, message.index, message.offset, message.ref);
        break;
      case 'roundEnded':
        this.list.answer(message.messageId)?.roundEnded(message.round, message.refs, message.diagnostics);
        break;
      case 'toolCall':
        this.list.answer(message.messageId)?.toolCall(message.round, message.call);
        break;
      case 'entityDetails':
        this.tooltip.details(message.requestId, message.id, message.markdown);
        break;
      case 'trust':
        this.setTrusted(message.trusted);
        break;
    }
  }

  private setBusy(busy: boolean): void {
    flags.busy = busy;
    document.body.classList.toggle('is-busy', busy);
    this.composer.refresh();
  }

  private setTrusted(trusted: boolean): void {
    flags.trusted = trusted;
    document.body.classList.toggle('is-untrusted', !trusted);
    refreshRefActions();
  }

  private setWelcome(welcome: boolean): void {
    this.welcomeHost.hidden = !welcome;
    if (welcome && this.welcomeHost.childElementCount === 0) this.welcomeHost.append(welcomeView());
    this.composer.setUnavailable(welcome);
    this.noModel = welcome;
    this.refreshNewChat();
  }

  /** A chat with no message yet (and a model to answer) shows what it can do. */
  private refreshNewChat(): void {
    this.newChatHost.hidden = this.noModel || !this.list.isEmpty();
  }
}

/** A user message's text as sent, to recall with ArrowUp; none when the view holds only its start. */
function sentText(message: UserMessageView): string[] {
  return message.fullChars === undefined ? [message.text] : [];
}
