/**
 * The message box at the bottom: grows with its text, Enter sends, Shift+Enter adds a line. While an
 * answer is generated the Send button is a Stop button and Escape stops. The draft is kept in the view state.
 */
import { flags } from './context';
import { h, icon } from './dom';
import { post, updateViewState, viewState } from './vscode';

/** The textarea grows up to this share of the window, then scrolls. */
const MAX_HEIGHT_SHARE = 0.4;

export class Composer {
  readonly element: HTMLElement;
  private readonly textarea = h('textarea', {
    class: 'composer-input',
    attrs: {
      rows: '1',
      'aria-label': 'Message',
      placeholder: 'Ask anything (Enter to send, Shift+Enter for a new line)',
    },
  });
  private readonly action = h('button', { class: 'composer-action', attrs: { type: 'button' } });
  private unavailable = false;

  constructor() {
    this.textarea.value = viewState().draft ?? '';
    this.textarea.addEventListener('input', () => {
      this.grow();
      this.refresh();
      updateViewState({ draft: this.textarea.value });
    });
    this.textarea.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        this.send();
      }
    });
    this.action.addEventListener('click', () => {
      if (flags.busy) post({ type: 'stop' });
      else this.send();
    });
    this.element = h('footer', { class: 'composer' }, h('div', { class: 'composer-box' }, this.textarea, this.action));
    this.refresh();
    requestAnimationFrame(() => this.grow());
  }

  /** No model: the box stays (the draft is kept) but cannot send. */
  setUnavailable(unavailable: boolean): void {
    this.unavailable = unavailable;
    this.textarea.placeholder = unavailable
      ? 'Configure a model to start chatting'
      : 'Ask anything (Enter to send, Shift+Enter for a new line)';
    this.refresh();
  }

  /** Restores the draft kept for this chat (after the panel came back). */
  setDraft(text: string): void {
    this.textarea.value = text;
    this.grow();
    this.refresh();
  }

  focus(): void {
    this.textarea.focus();
  }

  refresh(): void {
    const busy = flags.busy;
    const label = busy ? 'Stop (Escape)' : 'Send (Enter)';
    this.action.replaceChildren(icon(busy ? 'debug-stop' : 'send'));
    this.action.title = label;
    this.action.setAttribute('aria-label', label);
    this.action.classList.toggle('is-stop', busy);
    this.action.disabled = !busy && (this.unavailable || this.textarea.value.trim() === '');
  }

  private send(): void {
    const text = this.textarea.value;
    if (flags.busy || this.unavailable || text.trim() === '') return;
    post({ type: 'send', text });
    this.textarea.value = '';
    updateViewState({ draft: '' });
    this.grow();
    this.refresh();
  }

  private grow(): void {
    const textarea = this.textarea;
    textarea.style.setProperty('height', 'auto');
    const max = Math.max(80, window.innerHeight * MAX_HEIGHT_SHARE);
    textarea.style.setProperty('height', `${Math.min(textarea.scrollHeight, max)}px`);
  }
}
