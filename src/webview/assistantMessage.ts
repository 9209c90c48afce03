/**
 * An answer: its rounds (text, then tool calls, then the next round), a Stopped note or an error box,
 * and Copy, Fork and (on the last answer) Retry. Streaming events go to the round they name.
 */
import type {
  AssistantMessageView,
  DiagnosticView,
  ErrorView,
  FromWebview,
  RefView,
  ToolCallView,
} from '../core/chat/protocol';
import { flash } from './codeBlocks';
import { formatTime } from './format';
import { button, h, icon } from './dom';
import { MessageElement } from './messageElement';
import { RoundComponent } from './round';
import { post } from './vscode';

/** The button an error box offers and the message it posts (its Retry posts what the answer's Retry button posts). */
const ERROR_ACTIONS: Record<NonNullable<ErrorView['action']>, { text: string; icon: string; message: FromWebview }> = {
  setApiKey: { text: 'Set API Key…', icon: 'key', message: { type: 'command', command: 'setApiKey' } },
  openSettings: { text: 'Open Settings', icon: 'settings-gear', message: { type: 'command', command: 'openSettings' } },
  retry: { text: 'Retry', icon: 'refresh', message: { type: 'retry' } },
};

export class AssistantMessage extends MessageElement<AssistantMessageView> {
  readonly role = 'assistant';
  private rounds: RoundComponent[] = [];
  // Set by materialize(), before anything uses them.
  private roundsElement!: HTMLElement;
  private statusElement!: HTMLElement;
  private modelElement!: HTMLElement;

  constructor(view: AssistantMessageView) {
    super(view, 'message-assistant', 'Answer');
  }

  estimateHeight(): number {
    let chars = 0;
    let calls = 0;
    for (const round of this.view.rounds) {
      chars += round.text.length;
      calls += round.toolCalls.length;
    }
    return Math.min(20_000, 56 + Math.ceil(chars / 90) * 20 + calls * 34);
  }

  materialize(): void {
    if (this.built) return;
    this.built = true;
    this.roundsElement = h('div', { class: 'rounds' });
    this.statusElement = h('div', { class: 'message-status' });
    this.modelElement = h('span', { class: 'message-model' });
    const actions = h(
      'div',
      { class: 'message-actions', attrs: { role: 'toolbar', 'aria-label': 'Answer actions' } },
      button({
        icon: 'copy',
        label: 'Copy the answer',
        onClick: (event) => {
          post({ type: 'copyText', text: this.text() });
          flash(event.currentTarget as HTMLElement);
        },
      }),
      button({
        icon: 'repo-forked',
        label: 'Fork: a new chat up to this answer',
        onClick: () => post({ type: 'fork', messageId: this.view.id }),
      }),
      button({
        icon: 'refresh',
        label: 'Retry: answer the last message again',
        class: 'icon-button retry',
        onClick: () => post({ type: 'retry' }),
      }),
    );
    const header = h(
      'div',
      { class: 'message-header' },
      h('span', { class: 'message-role', text: 'Assistant', title: formatTime(this.view.createdAt) }),
      this.modelElement,
      actions,
    );
    this.element.replaceChildren(header, this.roundsElement, this.statusElement);
    const streaming = this.view.status === 'streaming';
    this.rounds = this.view.rounds.map(
      (round, i) => new RoundComponent(round, streaming && i === this.view.rounds.length - 1),
    );
    this.roundsElement.append(...this.rounds.map((r) => r.element));
    this.renderStatus();
  }

  /** The answer's raw text, rounds separated by a blank line. */
  text(): string {
    if (!this.built) return this.view.rounds.map((r) => r.text).join('\n\n');
    return this.rounds
      .map((r) => r.text())
      .filter((t) => t !== '')
      .join('\n\n');
  }

  update(view: AssistantMessageView): void {
    this.view = view;
    if (!this.built) return;
    const streaming = view.status === 'streaming';
    view.rounds.forEach((round, i) => {
      const last = i === view.rounds.length - 1;
      const existing = this.rounds[i];
      if (existing) existing.update(round, streaming && last);
      else this.addRound(new RoundComponent(round, streaming && last));
    });
    for (const extra of this.rounds.splice(view.rounds.length)) {
      extra.dispose();
      extra.element.remove();
    }
    this.renderStatus();
  }

  // ---- streaming events --------------------------------------------------------------------------

  roundStarted(index: number): void {
    this.round(index);
  }

  textDelta(index: number, text: string): void {
    this.round(index).appendText(text);
  }

  refOpened(index: number, tag: number, id: string | undefined, offset: number): void {
    this.round(index).refOpened(tag, id, offset);
  }

  refClosed(index: number, tag: number, offset: number, ref: RefView | undefined): void {
    this.round(index).refClosed(tag, offset, ref);
  }

  roundEnded(index: number, refs: RefView[], diagnostics: DiagnosticView[]): void {
    this.round(index).end(refs, diagnostics);
  }

  toolCall(index: number, call: ToolCallView): void {
    this.round(index).toolCall(call);
  }

  dispose(): void {
    for (const round of this.rounds) round.dispose();
  }

  /** The round at `index`, made (with any before it) when it does not exist yet. */
  private round(index: number): RoundComponent {
    this.materialize();
    while (this.rounds.length <= index) this.addRound(new RoundComponent(undefined, true));
    return this.rounds[index] as RoundComponent;
  }

  private addRound(round: RoundComponent): void {
    this.rounds.push(round);
    this.roundsElement.append(round.element);
  }

  private renderStatus(): void {
    const view = this.view;
    this.modelElement.textContent = view.model ?? '';
    this.element.classList.toggle('is-streaming', view.status === 'streaming');
    const nodes: Node[] = [];
    if (view.status === 'streaming') {
      nodes.push(
        h(
          'div',
          { class: 'streaming-indicator', attrs: { role: 'status' } },
          icon('loading', 'codicon-modifier-spin'),
          h('span', { text: 'Generating…' }),
        ),
      );
    } else if (view.status === 'stopped') {
      nodes.push(
        h(
          'div',
          { class: 'stopped-note', attrs: { role: 'status' } },
          icon('debug-stop'),
          h('span', { text: 'Stopped' }),
        ),
      );
    }
    if (view.error) nodes.push(errorBox(view.error));
    this.statusElement.replaceChildren(...nodes);
  }
}

function errorBox(error: ErrorView): HTMLElement {
  const box = h(
    'div',
    { class: 'error-box', attrs: { role: 'alert' } },
    icon('error', 'error-icon'),
    h(
      'div',
      { class: 'error-text' },
      h('div', { class: 'error-message', text: error.message }),
      error.detail !== undefined && h('div', { class: 'error-detail', text: error.detail }),
    ),
  );
  if (error.action) {
    const spec = ERROR_ACTIONS[error.action];
    box.append(
      button({
        icon: spec.icon,
        text: spec.text,
        label: spec.text,
        class: 'text-button primary',
        onClick: () => post(spec.message),
      }),
    );
  }
  return box;
}
