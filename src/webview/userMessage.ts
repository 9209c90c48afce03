/** A user message: its text as typed (cut for display when huge), a descriptor chip, Edit and Fork. */
import type { UserMessageView } from '../core/chat/protocol';
import { USER_TEXT_VIEW_LIMIT } from '../core/chat/protocolLimits';
import { isDescriptorId } from '../core/ids';
import { descriptorChip } from './chips';
import { button, h, setDisabled } from './dom';
import { wrapEntityIds } from './entityIds';
import { countLines, formatCount, formatTime, plural, previewLines } from './format';
import { MessageElement } from './messageElement';
import { post } from './vscode';

/** A message of more lines than this (or stored as a descriptor) shows its first `PREVIEW_LINES` and Show more. */
const LONG_LINES = 40;
const PREVIEW_LINES = 12;
/** Lines each Show more adds (within the part of the message the view holds). */
const MORE_LINES = 200;
/** A longer line is shown cut, with a marker saying how much is left out. */
const LINE_CHARS = 400;

export class UserMessage extends MessageElement<UserMessageView> {
  readonly role = 'user';
  private body: HTMLElement | undefined;
  private shownLines = PREVIEW_LINES;

  constructor(view: UserMessageView) {
    super(view, 'message-user', 'Your message');
  }

  estimateHeight(): number {
    const view = this.view;
    if (view.descriptor !== undefined || view.fullChars !== undefined) return 56 + 28 + 32 + PREVIEW_LINES * 20;
    const chars = Math.min(view.text.length, USER_TEXT_VIEW_LIMIT);
    return Math.min(3000, 56 + Math.ceil(chars / 90) * 20);
  }

  materialize(): void {
    if (this.built) return;
    this.built = true;
    this.render();
  }

  update(view: UserMessageView): void {
    if (view.text !== this.view.text) this.shownLines = PREVIEW_LINES;
    this.view = view;
    if (this.built) this.render();
  }

  dispose(): void {}

  private render(): void {
    const actions = h(
      'div',
      { class: 'message-actions', attrs: { role: 'toolbar', 'aria-label': 'Message actions' } },
      this.editButton(),
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
    const view = this.view;
    const text = view.text;
    const totalLines = view.descriptor?.lines ?? countLines(text);
    const long = view.descriptor !== undefined || view.fullChars !== undefined || totalLines > LONG_LINES;
    if (!long) {
      const textElement = h('div', { class: 'user-text', text });
      wrapEntityIds(textElement);
      return [textElement];
    }
    const nodes: HTMLElement[] = [];
    const chars = view.descriptor?.chars ?? view.fullChars ?? text.length;
    if (view.descriptor) {
      const chip = descriptorChip(view.descriptor.id);
      chip.title = `Open ${view.descriptor.id} (the model got it as a descriptor and a preview of its start)`;
      chip.classList.add('stored-chip');
      const label = chip.querySelector('span');
      if (label) label.textContent = `Stored as ${view.descriptor.id}, ${plural(chars, 'character')}`;
      chip.setAttribute(
        'aria-label',
        `Open ${view.descriptor.id}: ${plural(chars, 'character')}, ${plural(totalLines, 'line')}`,
      );
      nodes.push(h('div', { class: 'message-chips stored-top' }, chip));
    }
    const { rows, rest } = previewLines(text, this.shownLines, LINE_CHARS);
    const textElement = h('div', { class: 'user-text is-preview' });
    rows.forEach((row, i) => {
      const line = h('div', { class: 'user-line', text: row.text === '' ? '\u200b' : row.text });
      if (row.omitted > 0)
        line.append(
          h('span', { class: 'cut-marker', text: ` … ${plural(row.omitted, 'more character')} on this line` }),
        );
      else if (!rest && i === rows.length - 1 && view.fullChars !== undefined)
        line.append(h('span', { class: 'cut-marker', text: ' … (the view stops here)' }));
      textElement.append(line);
    });
    wrapEntityIds(textElement);
    nodes.push(textElement);
    const footer = h('div', { class: 'user-more' });
    const shown = rows.length;
    const whole = !rest && view.fullChars === undefined;
    footer.append(
      h('span', {
        class: 'note',
        text: whole
          ? `All ${plural(shown, 'line')} shown.`
          : `Showing lines 1–${formatCount(shown)} of ${formatCount(totalLines)}.`,
      }),
    );
    if (rest)
      footer.append(
        button({
          text: 'Show more',
          label: `Show ${formatCount(MORE_LINES)} more lines`,
          class: 'text-button secondary show-more',
          onClick: () => {
            this.shownLines += MORE_LINES;
            this.render();
          },
        }),
      );
    const id = view.descriptor?.id;
    if (id !== undefined && !whole)
      footer.append(
        button({
          icon: 'go-to-file',
          text: `Open ${id}`,
          label: `Open all of it (${id}) in an editor`,
          class: 'text-button secondary open-stored',
          onClick: () => {
            if (isDescriptorId(id)) post({ type: 'openDescriptor', descriptor: id });
          },
        }),
      );
    nodes.push(footer);
    return nodes;
  }

  /** A message cut for the view cannot be edited here: resending the cut text would lose the rest. */
  private editButton(): HTMLButtonElement {
    const edit = button({ icon: 'edit', label: 'Edit and resend', onClick: () => this.startEdit() });
    if (this.view.fullChars !== undefined)
      setDisabled(
        edit,
        true,
        `the view holds only its first ${formatCount(USER_TEXT_VIEW_LIMIT)} characters, so it cannot be edited here`,
        'Edit and resend',
      );
    return edit;
  }

  private startEdit(): void {
    if (!this.body || this.view.fullChars !== undefined) return;
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
