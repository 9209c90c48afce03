/** A user message: its text as typed (cut for display when huge), a descriptor chip, Edit and Fork. */
import type { UserMessageView } from '../core/chat/protocol';
import { USER_TEXT_VIEW_LIMIT } from '../core/chat/protocolLimits';
import { descriptorChip } from './chips';
import { button, h } from './dom';
import { wrapEntityIds } from './entityIds';
import { formatCount, formatTime } from './format';
import { MessageElement } from './messageElement';
import { post } from './vscode';

export class UserMessage extends MessageElement<UserMessageView> {
  readonly role = 'user';
  private body: HTMLElement | undefined;

  constructor(view: UserMessageView) {
    super(view, 'message-user', 'Your message');
  }

  estimateHeight(): number {
    const chars = Math.min(this.view.text.length, USER_TEXT_VIEW_LIMIT);
    return Math.min(3000, 56 + Math.ceil(chars / 90) * 20 + (this.view.descriptor ? 28 : 0));
  }

  materialize(): void {
    if (this.built) return;
    this.built = true;
    this.render();
  }

  update(view: UserMessageView): void {
    this.view = view;
    if (this.built) this.render();
  }

  dispose(): void {}

  private render(): void {
    const actions = h(
      'div',
      { class: 'message-actions', attrs: { role: 'toolbar', 'aria-label': 'Message actions' } },
      button({ icon: 'edit', label: 'Edit and resend', onClick: () => this.startEdit() }),
      button({
        icon: 'repo-forked',
        label: 'Fork: a new chat up to this message',
        onClick: () => post({ type: 'fork', messageId: this.view.id }),
      }),
    );
    const header = h(
      'div',
      { class: 'message-header' },
      h('span', { class: 'message-role', text: 'You', title: formatTime(this.view.createdAt) }),
      actions,
    );
    this.body = h('div', { class: 'message-body' }, ...this.content());
    this.element.replaceChildren(header, this.body);
  }

  private content(): HTMLElement[] {
    const text = this.view.text;
    const shown = text.length > USER_TEXT_VIEW_LIMIT ? text.slice(0, USER_TEXT_VIEW_LIMIT) : text;
    const textElement = h('div', { class: 'user-text', text: shown });
    wrapEntityIds(textElement);
    const nodes = [textElement];
    if (shown.length < text.length) {
      nodes.push(
        h('div', {
          class: 'note',
          text: `Showing the first ${formatCount(USER_TEXT_VIEW_LIMIT)} of ${formatCount(text.length)} characters.`,
        }),
      );
    }
    if (this.view.descriptor) {
      nodes.push(
        h('div', { class: 'message-chips' }, descriptorChip(this.view.descriptor, 'sent to the model as a descriptor')),
      );
    }
    return nodes;
  }

  private startEdit(): void {
    if (!this.body) return;
    const textarea = h('textarea', { class: 'edit-text', attrs: { 'aria-label': 'Edit your message', rows: '3' } });
    textarea.value = this.view.text;
    const send = (): void => {
      const text = textarea.value;
      if (text.trim() === '') return;
      post({ type: 'editResend', messageId: this.view.id, text });
    };
    const cancel = (): void => {
      this.render();
      this.element.querySelector<HTMLElement>('.message-actions button')?.focus();
    };
    textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        send();
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        cancel();
      }
    });
    const buttons = h(
      'div',
      { class: 'edit-buttons' },
      h('span', { class: 'note', text: 'Enter to resend, Shift+Enter for a new line, Escape to cancel' }),
      button({ text: 'Cancel', label: 'Cancel editing', class: 'text-button secondary', onClick: cancel }),
      button({
        text: 'Resend',
        label: 'Resend the edited message (later messages are dropped)',
        class: 'text-button primary',
        onClick: send,
      }),
    );
    this.body.replaceChildren(textarea, buttons);
    textarea.style.setProperty('height', `${Math.min(textarea.scrollHeight + 4, 400)}px`);
    textarea.focus();
  }
}
