/**
 * The scrolling list of messages. On `init` every message gets an empty shell of about its height; only
 * the shells near the viewport are rendered (an IntersectionObserver renders the others as they come
 * close), so a chat of thousands of messages opens at the cost of what is on screen. The view follows the
 * end of the chat while the user has not scrolled away from it.
 */
import type { MessageView } from '../core/chat/protocol';
import { AssistantMessage } from './assistantMessage';
import { h } from './dom';
import { UserMessage } from './userMessage';
import { updateViewState } from './vscode';

type MessageComponent = UserMessage | AssistantMessage;

/** Within this many pixels of the end counts as at the end. */
const AT_BOTTOM_SLACK = 48;

export class MessageList {
  readonly element: HTMLElement;
  private readonly content = h('div', { class: 'messages-content' });
  private messages: MessageComponent[] = [];
  private readonly byId = new Map<string, MessageComponent>();
  private readonly observer: IntersectionObserver;
  private atBottom = true;
  /** When the user last did something that scrolls (wheel, touch, keys, a press on the scrollbar). */
  private lastScrollIntent = -Infinity;

  constructor() {
    this.element = h('main', { class: 'messages', attrs: { 'aria-label': 'Messages', tabindex: '-1' } }, this.content);
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), { root: this.element, rootMargin: '1500px 0px' });
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
    const intent = (): void => {
      this.lastScrollIntent = performance.now();
    };
    for (const type of ['wheel', 'touchmove', 'pointerdown', 'keydown']) this.element.addEventListener(type, intent, { passive: true });
    // Resize observers run after layout: reading the height there forces no extra layout, as a read in the
    // render loop would (every frame, over the whole chat).
    const resize = new ResizeObserver(() => this.followEnd());
    resize.observe(this.element);
    resize.observe(this.content);
  }

  get isEmpty(): boolean {
    return this.messages.length === 0;
  }

  /** Starts over with `views`; scrolls to the end, or to `scrollTop` when the user had scrolled away. */
  reset(views: readonly MessageView[], restore: { scrollTop?: number | undefined; atBottom?: boolean | undefined }): void {
    for (const message of this.messages) {
      message.dispose();
      this.observer.unobserve(message.element);
    }
    this.messages = views.map((view) => this.create(view));
    this.byId.clear();
    for (const message of this.messages) this.byId.set(message.id, message);
    const fragment = document.createDocumentFragment();
    for (const message of this.messages) {
      message.element.style.setProperty('min-height', `${message.estimateHeight()}px`);
      fragment.append(message.element);
    }
    this.content.replaceChildren(fragment);
    this.atBottom = restore.atBottom !== false || restore.scrollTop === undefined;
    if (this.atBottom) {
      // Render the last messages now, enough to fill the view, so the first paint shows them.
      let height = 0;
      const wanted = Math.max(this.element.clientHeight, 400) * 1.5;
      for (let i = this.messages.length - 1; i >= 0 && height < wanted; i--) {
        const message = this.messages[i] as MessageComponent;
        height += message.estimateHeight();
        this.materialize(message);
      }
      this.scrollToEnd();
    } else {
      this.scroll(restore.scrollTop ?? 0);
    }
    for (const message of this.messages) if (!message.materialized) this.observer.observe(message.element);
    this.markLastAnswer();
  }

  add(view: MessageView): void {
    const existing = this.byId.get(view.id);
    if (existing) {
      this.update(view);
      return;
    }
    const message = this.create(view);
    this.messages.push(message);
    this.byId.set(message.id, message);
    this.content.append(message.element);
    this.materialize(message);
    this.markLastAnswer();
    // A message the user sent brings the view back to the end.
    if (view.role === 'user') this.atBottom = true;
    this.followEnd();
  }

  update(view: MessageView): void {
    const message = this.byId.get(view.id);
    if (!message) {
      this.add(view);
      return;
    }
    if (message.role !== view.role) {
      // A message cannot change role; replace it wholesale.
      const replacement = this.create(view);
      message.dispose();
      message.element.replaceWith(replacement.element);
      this.messages[this.messages.indexOf(message)] = replacement;
      this.byId.set(view.id, replacement);
      this.materialize(replacement);
      return;
    }
    if (message instanceof UserMessage && view.role === 'user') message.update(view);
    else if (message instanceof AssistantMessage && view.role === 'assistant') message.update(view);
    this.followEnd();
  }

  /** Removes the message `fromId` and every message after it. */
  removeFrom(fromId: string): void {
    const index = this.messages.findIndex((m) => m.id === fromId);
    if (index === -1) return;
    for (const message of this.messages.splice(index)) {
      message.dispose();
      this.observer.unobserve(message.element);
      message.element.remove();
      this.byId.delete(message.id);
    }
    this.markLastAnswer();
  }

  answer(id: string): AssistantMessage | undefined {
    const message = this.byId.get(id);
    return message instanceof AssistantMessage ? message : undefined;
  }

  scrollToEnd(): void {
    this.atBottom = true;
    this.scroll(this.element.scrollHeight);
  }

  private create(view: MessageView): MessageComponent {
    return view.role === 'user' ? new UserMessage(view) : new AssistantMessage(view);
  }

  private materialize(message: MessageComponent): void {
    if (message.materialized) return;
    this.observer.unobserve(message.element);
    message.element.style.removeProperty('min-height');
    message.materialize();
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const message = this.byId.get((entry.target as HTMLElement).dataset['messageId'] ?? '');
      if (message) this.materialize(message);
    }
  }

  private onScroll(): void {
    // Only the user leaves the end: our own scrolls, scroll anchoring and content changing size move the
    // view too, but without a wheel, touch, key or pointer press just before.
    const el = this.element;
    if (el.scrollHeight - el.scrollTop - el.clientHeight <= AT_BOTTOM_SLACK) this.atBottom = true;
    else if (performance.now() - this.lastScrollIntent < 1000) this.atBottom = false;
    updateViewState({ scrollTop: Math.round(el.scrollTop), atBottom: this.atBottom });
  }

  private followEnd(): void {
    if (!this.atBottom) return;
    const el = this.element;
    const end = el.scrollHeight - el.clientHeight;
    if (el.scrollTop < end - 1) this.scroll(end);
  }

  private scroll(top: number): void {
    this.element.scrollTop = top;
  }

  /** Only the last answer offers Retry. */
  private markLastAnswer(): void {
    let last: AssistantMessage | undefined;
    for (let i = this.messages.length - 1; i >= 0 && !last; i--) {
      const message = this.messages[i];
      if (message instanceof AssistantMessage) last = message;
    }
    for (const element of this.content.querySelectorAll('.is-last-answer')) element.classList.remove('is-last-answer');
    last?.element.classList.add('is-last-answer');
  }
}
