/**
 * The message box at the bottom: grows with its text, Enter sends, Shift+Enter adds a line. While an
 * answer is generated the Send button is a Stop button and Escape stops. The draft is kept in the view state.
 * ArrowUp in an empty box (or with the caret at the start of a recalled prompt) recalls the prompts sent in this
 * chat, newest first; ArrowDown goes back towards an empty box.
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
  /** The prompts sent in this chat, oldest first. */
  private history: string[] = [];
  /** Which of them the box shows, while it is unchanged. */
  private recalled: number | undefined;

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
      } else if ((event.key === 'ArrowUp' || event.key === 'ArrowDown') && this.recall(event)) {
        event.preventDefault();
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

  /** The text in the box. */
  get draft(): string {
    return this.textarea.value;
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

  /** Puts `text` in the box (an example prompt), unsent, with the caret at its end. */
  fill(text: string): void {
    this.recalled = undefined;
    this.setDraft(text);
    updateViewState({ draft: text });
    this.textarea.focus();
    this.textarea.setSelectionRange(text.length, text.length);
  }

  /** The prompts sent in this chat so far, oldest first (a chat opened again). */
  setHistory(prompts: readonly string[]): void {
    this.history = [...prompts];
    this.recalled = undefined;
  }

  /** A prompt sent in this chat. */
  remember(prompt: string): void {
    if (this.history.at(-1) !== prompt) this.history.push(prompt);
    this.recalled = undefined;
  }

  /** ArrowUp / ArrowDown through the history; false when the key should move the caret instead. */
  private recall(event: KeyboardEvent): boolean {
    if (event.shiftKey || event.altKey || event.ctrlKey || event.metaKey || event.isComposing) return false;
    const box = this.textarea;
    const value = box.value;
    const showing = this.recalled !== undefined && this.history[this.recalled] === value;
    const collapsed = box.selectionStart === box.selectionEnd;
    let next: number | undefined;
    if (event.key === 'ArrowUp') {
      if (value === '' && this.history.length > 0) next = this.history.length - 1;
      else if (showing && collapsed && box.selectionStart === 0 && (this.recalled as number) > 0)
        next = (this.recalled as number) - 1;
      else return false;
    } else {
      if (!showing || !collapsed || box.selectionEnd !== value.length) return false;
      next = (this.recalled as number) + 1 < this.history.length ? (this.recalled as number) + 1 : undefined;
    }
    const text = next === undefined ? '' : (this.history[next] as string);
    this.setDraft(text);
    updateViewState({ draft: text });
    this.recalled = next;
    // Up leaves the caret at the start (Up again goes further back), Down at the end.
    const caret = event.key === 'ArrowUp' ? 0 : text.length;
    box.setSelectionRange(caret, caret);
    return true;
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
