/** The chat view: header, welcome, messages and composer, and where each message from the extension goes. */
import type { ToWebview } from '../core/chat/protocol';
import { Composer } from './composer';
import { flags, scheduler } from './context';
import { h } from './dom';
import { EntityTooltip } from './entityTooltip';
import { Header } from './header';
import { forgetHighlights } from './highlight';
import { routeLinks } from './links';
import { MessageList } from './messageList';
import { refreshRefActions } from './refFrame';
import { post, updateViewState, viewState } from './vscode';
import { welcomeView } from './welcome';

export class ChatApp {
  private readonly header = new Header();
  private readonly list = new MessageList();
  private readonly composer = new Composer();
  private readonly tooltip = new EntityTooltip();
  private readonly welcomeHost = h('div', { class: 'welcome-host' });

  constructor(root: HTMLElement) {
    this.welcomeHost.hidden = true;
    root.replaceChildren(this.header.element, this.welcomeHost, this.list.element, this.composer.element);
    routeLinks();
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && flags.busy && !event.defaultPrevented) post({ type: 'stop' });
    });
  }

  handle(message: ToWebview): void {
    switch (message.type) {
      case 'init': {
        scheduler.clear();
        forgetHighlights();
        const state = viewState();
        const sameChat = state.chatId === message.chatId;
        if (!sameChat) {
          updateViewState({ chatId: message.chatId, draft: '', scrollTop: undefined, atBottom: true });
          this.composer.setDraft('');
        }
        this.header.setTitle(message.title);
        this.header.setModels(message.models, message.selectedModel);
        this.setWelcome(message.welcome);
        this.setTrusted(message.trusted);
        this.setBusy(message.busy);
        this.list.reset(message.messages, sameChat ? { scrollTop: state.scrollTop, atBottom: state.atBottom } : {});
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
        break;
      case 'messageUpdated':
        this.list.update(message.message);
        break;
      case 'messagesRemoved':
        this.list.removeFrom(message.fromId);
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
  }
}
