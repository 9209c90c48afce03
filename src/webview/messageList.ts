/**
 * The scrolling list of messages. Messages live in groups of `GROUP_SIZE`; a group far from the viewport
 * is an empty placeholder of about its height, and its messages are put in and rendered when an
 * IntersectionObserver sees it come close. So opening a chat of thousands of messages costs what is on
 * screen, and the browser tracks a few dozen groups rather than every message. The view follows the end
 * of the chat while the user has not scrolled away from it.
 */
import type { MessageView } from '../core/chat/protocol';
import { AssistantMessage } from './assistantMessage';
import { h } from './dom';
import { UserMessage } from './userMessage';
import { updateViewState } from './vscode';

type MessageComponent = UserMessage | AssistantMessage;

interface Group {
  element: HTMLElement;
  messages: MessageComponent[];
  materialized: boolean;
}

const GROUP_SIZE = 20;
/** Within this many pixels of the end counts as at the end. */
const AT_BOTTOM_SLACK = 48;
/** Space between messages (as in chat.css), for the placeholders' heights. */
const MESSAGE_GAP = 14;

export class MessageList {
  readonly element: HTMLElement;
  private readonly content = h('div', { class: 'messages-content' });
  private groups: Group[] = [];
  private readonly byId = new Map<string, { message: MessageComponent; group: Group }>();
  private readonly observer: IntersectionObserver;
  private atBottom = true;
  /** When the user last did something that scrolls (wheel, touch, keys, a press on the scrollbar). */
  private lastScrollIntent = -Infinity;

  constructor() {
    this.element = h('main', { class: 'messages', attrs: { 'aria-label': 'Messages', tabindex: '-1' } }, this.content);
    this.observer = new IntersectionObserver((entries) => this.onIntersect(entries), {
      root: this.element,
      rootMargin: '1500px 0px',
    });
    this.element.addEventListener('scroll', () => this.onScroll(), { passive: true });
    const intent = (): void => {
      this.lastScrollIntent = performance.now();
    };
    for (const type of ['wheel', 'touchmove', 'pointerdown', 'keydown'])
      this.element.addEventListener(type, intent, { passive: true });
    // Resize observers run after layout: reading the height there forces no extra layout, as a read in the
    // render loop would (every frame, over the whole chat).
    const resize = new ResizeObserver(() => this.followEnd());
    resize.observe(this.element);
    resize.observe(this.content);
  }

  /** Starts over with `views`; shows the end, or `scrollTop` when the user had scrolled away. */
  reset(
    views: readonly MessageView[],
    restore: { scrollTop?: number | undefined; atBottom?: boolean | undefined },
  ): void {
    this.observer.disconnect();
    for (const group of this.groups) for (const message of group.messages) message.dispose();
    this.groups = [];
    this.byId.clear();
    for (const view of views) this.place(this.create(view));
    const fragment = document.createDocumentFragment();
    for (const group of this.groups) {
      group.element.style.setProperty('min-height', `${estimate(group)}px`);
      fragment.append(group.element);
    }
    this.content.replaceChildren(fragment);
    this.atBottom = restore.atBottom !== false || restore.scrollTop === undefined;
    if (this.atBottom) {
      // Enough of the end to fill the view, rendered now (last message first) so the first paint shows it.
      const wanted = Math.max(this.element.clientHeight, 400) * 1.5;
      let height = 0;
      for (let i = this.groups.length - 1; i >= 0 && height < wanted; i--) {
        const group = this.groups[i] as Group;
        height += estimate(group);
        this.materialize(group, true);
      }
      this.scroll(this.element.scrollHeight);
    } else {
      this.scroll(restore.scrollTop ?? 0);
    }
    for (const group of this.groups) if (!group.materialized) this.observer.observe(group.element);
    this.markLastAnswer();
  }

  add(view: MessageView): void {
    if (this.byId.has(view.id)) {
      this.update(view);
      return;
    }
    const message = this.create(view);
    const group = this.place(message);
    if (!group.element.isConnected) this.content.append(group.element);
    if (group.materialized) {
      group.element.append(message.element);
      message.materialize();
    } else {
      this.materialize(group, false);
    }
    this.markLastAnswer();
    // A message the user sent brings the view back to the end.
    if (view.role === 'user') this.atBottom = true;
    this.followEnd();
  }

  update(view: MessageView): void {
    const entry = this.byId.get(view.id);
    if (!entry) {
      this.add(view);
      return;
    }
    const { message, group } = entry;
    if (message.role !== view.role) {
      // A message cannot change role; replace it wholesale.
      const replacement = this.create(view);
      message.dispose();
      group.messages[group.messages.indexOf(message)] = replacement;
      this.byId.set(view.id, { message: replacement, group });
      if (group.materialized) {
        message.element.replaceWith(replacement.element);
        replacement.materialize();
      }
      this.markLastAnswer();
      return;
    }
    if (message instanceof UserMessage && view.role === 'user') message.update(view);
    else if (message instanceof AssistantMessage && view.role === 'assistant') message.update(view);
  }

  /** Removes the message `fromId` and every message after it. */
  removeFrom(fromId: string): void {
    const entry = this.byId.get(fromId);
    if (!entry) return;
    const groupIndex = this.groups.indexOf(entry.group);
    const removed: MessageComponent[] = entry.group.messages.splice(entry.group.messages.indexOf(entry.message));
    for (const group of this.groups.splice(groupIndex + 1)) {
      removed.push(...group.messages);
      this.observer.unobserve(group.element);
      group.element.remove();
    }
    for (const message of removed) {
      message.dispose();
      message.element.remove();
      this.byId.delete(message.id);
    }
    if (entry.group.messages.length === 0) {
      this.groups.pop();
      this.observer.unobserve(entry.group.element);
      entry.group.element.remove();
    }
    this.markLastAnswer();
    // Messages go only to be answered again (Retry, Edit and resend): the view goes to the end to show the new answer.
    this.atBottom = true;
    this.followEnd();
  }

  isEmpty(): boolean {
    return this.byId.size === 0;
  }

  /** The answer with this id, made ready for streaming events (rendered, wherever it is). */
  answer(id: string): AssistantMessage | undefined {
    const entry = this.byId.get(id);
    if (!entry || !(entry.message instanceof AssistantMessage)) return undefined;
    this.materialize(entry.group, false);
    return entry.message;
  }

  private create(view: MessageView): MessageComponent {
    return view.role === 'user' ? new UserMessage(view) : new AssistantMessage(view);
  }

  /** Puts a new message at the end: in the last group, or a new one when that is full. */
  private place(message: MessageComponent): Group {
    let group = this.groups.at(-1);
    if (!group || group.messages.length >= GROUP_SIZE) {
      group = { element: h('div', { class: 'message-group' }), messages: [], materialized: false };
      group.element.dataset['group'] = String(this.groups.length);
      this.groups.push(group);
    }
    group.messages.push(message);
    this.byId.set(message.id, { message, group });
    return group;
  }

  private materialize(group: Group, lastFirst: boolean): void {
    if (group.materialized) return;
    group.materialized = true;
    this.observer.unobserve(group.element);
    group.element.style.removeProperty('min-height');
    group.element.replaceChildren(...group.messages.map((m) => m.element));
    // Rendering is scheduled in this order: at the end of the chat, the last message should come first.
    const order = lastFirst ? [...group.messages].reverse() : group.messages;
    for (const message of order) message.materialize();
  }

  private onIntersect(entries: IntersectionObserverEntry[]): void {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      const group = this.groups[Number((entry.target as HTMLElement).dataset['group'])];
      if (group) this.materialize(group, entry.boundingClientRect.top < 0);
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
    for (let g = this.groups.length - 1; g >= 0 && !last; g--) {
      const messages = (this.groups[g] as Group).messages;
      for (let i = messages.length - 1; i >= 0 && !last; i--) {
        const message = messages[i];
        if (message instanceof AssistantMessage) last = message;
      }
    }
    for (const element of this.content.querySelectorAll('.is-last-answer')) element.classList.remove('is-last-answer');
    last?.element.classList.add('is-last-answer');
  }
}

function estimate(group: Group): number {
  let height = 0;
  for (const message of group.messages) height += message.estimateHeight() + MESSAGE_GAP;
  return height;
}
