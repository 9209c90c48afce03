/**
 * The frame around a top-level ref: a header with its id, language, size, version and actions, the body
 * (its content as Markdown; a lone fenced block shows as that code block), and chips for nested refs.
 */
import type { RefAction, RefView } from '../core/chat/protocol';
import { refDescriptorId } from '../core/ids';
import { flags, scheduler } from './context';
import { button, h, icon, setDisabled } from './dom';
import { formatCount, plural } from './format';
import { MarkdownStream } from './markdownStream';
import { showMenu, type MenuItem } from './menu';
import { versionedRefId } from './segments';
import { post } from './vscode';

interface ActionSpec {
  action: RefAction;
  icon: string;
  label: string;
  needsTrust?: boolean;
}

const ACTIONS: ActionSpec[] = [
  { action: 'open', icon: 'go-to-file', label: 'Open' },
  { action: 'copy', icon: 'copy', label: 'Copy' },
  { action: 'insertAtCursor', icon: 'insert', label: 'Insert at Cursor' },
  { action: 'applyToSymbol', icon: 'symbol-method', label: 'Apply to Symbol…' },
  { action: 'export', icon: 'save-as', label: 'Export to File…', needsTrust: true },
  { action: 'append', icon: 'diff-added', label: 'Append to File…', needsTrust: true },
];

const UNTRUSTED = 'unavailable in Restricted Mode: the workspace is not trusted';
const NOT_READY = 'available once the ref is complete';

function runAction(action: RefAction, ref: RefView): void {
  post({ type: 'refAction', action, ref: versionedRefId(ref) });
}

/** The actions of a ref as menu items (nested refs' chips). */
function menuItems(ref: RefView): MenuItem[] {
  const items: MenuItem[] = ACTIONS.map((spec) => ({
    label: spec.label,
    icon: spec.icon,
    disabledReason: spec.needsTrust && !flags.trusted ? `${spec.label} is ${UNTRUSTED}` : undefined,
    run: () => runAction(spec.action, ref),
  }));
  if (ref.version > 1)
    items.push({ label: `Compare with v${ref.version - 1}`, icon: 'diff', run: () => runAction('compare', ref) });
  return items;
}

/** Updates every ref action button after the workspace's trust changed. */
export function refreshRefActions(): void {
  for (const element of document.querySelectorAll<HTMLButtonElement>('button[data-ref-action]')) applyState(element);
}

function applyState(element: HTMLButtonElement): void {
  const ready = element.dataset['ready'] === 'true';
  const needsTrust = element.dataset['needsTrust'] === 'true';
  const label = element.dataset['label'] ?? '';
  const reason = !ready ? NOT_READY : needsTrust && !flags.trusted ? UNTRUSTED : undefined;
  setDisabled(element, reason !== undefined, reason, label);
}

export class RefFrame {
  readonly element: HTMLElement;
  private stream: MarkdownStream;
  private readonly bodyHost: HTMLElement;
  private ref: RefView | undefined;
  private readonly version: HTMLButtonElement;
  private readonly meta = h('span', { class: 'ref-meta' });
  private readonly nestedList = h('div', { class: 'ref-nested-list' });
  private readonly footer: HTMLElement;
  private readonly actionButtons: HTMLButtonElement[];
  private nested: RefView[] = [];

  constructor(id: string) {
    this.stream = new MarkdownStream(scheduler);
    this.version = button({
      text: '',
      label: 'Compare with the previous version',
      class: 'ref-version',
      onClick: () => this.ref && runAction('compare', this.ref),
    });
    this.version.hidden = true;
    this.actionButtons = ACTIONS.map((spec) => {
      const element = button({
        icon: spec.icon,
        label: spec.label,
        onClick: () => this.ref && runAction(spec.action, this.ref),
      });
      element.dataset['refAction'] = spec.action;
      element.dataset['label'] = spec.label;
      element.dataset['needsTrust'] = String(spec.needsTrust === true);
      element.dataset['ready'] = 'false';
      applyState(element);
      return element;
    });
    const writing = h(
      'span',
      { class: 'ref-writing', attrs: { 'aria-live': 'polite' } },
      icon('loading', 'codicon-modifier-spin'),
      h('span', { text: 'writing…' }),
    );
    const header = h(
      'div',
      { class: 'ref-header' },
      icon('file-code', 'ref-icon'),
      h('span', { class: 'ref-id', text: refDescriptorId(id) }),
      this.version,
      this.meta,
      writing,
      h(
        'div',
        { class: 'ref-actions', attrs: { role: 'toolbar', 'aria-label': `Actions for ${refDescriptorId(id)}` } },
        ...this.actionButtons,
      ),
    );
    this.footer = h(
      'div',
      { class: 'ref-nested' },
      h('span', { class: 'ref-nested-label', text: 'Nested refs' }),
      this.nestedList,
    );
    this.footer.hidden = true;
    this.bodyHost = h('div', { class: 'ref-body' }, this.stream.element);
    this.element = h(
      'section',
      { class: 'ref-frame is-writing', attrs: { 'aria-label': refDescriptorId(id) } },
      header,
      this.bodyHost,
      this.footer,
    );
  }

  /** The body: the ref's content as Markdown (streamed into while the ref is written). */
  get body(): MarkdownStream {
    return this.stream;
  }

  /** Renders the body again from `text` (when streaming cut other nested tags than the final refs say). */
  replaceBody(text: string): void {
    this.stream.dispose();
    this.stream = new MarkdownStream(scheduler);
    this.stream.append(text);
    this.stream.finish();
    this.bodyHost.replaceChildren(this.stream.element);
  }

  /** The ref as registered (header, version, actions); undefined while it is still being written. */
  setRef(ref: RefView | undefined): void {
    this.ref = ref;
    if (ref) {
      const parts = [ref.language, plural(ref.lines, 'line'), `${formatCount(ref.chars)} chars`].filter(
        (p) => p !== undefined && p !== '',
      );
      this.meta.textContent = parts.join(' · ');
      this.version.hidden = ref.version <= 1;
      this.version.querySelector('span')!.textContent = `v${ref.version}`;
      this.version.title = `${versionedRefId(ref)}: compare with v${ref.version - 1}`;
      this.version.setAttribute('aria-label', this.version.title);
    }
    for (const element of this.actionButtons) {
      element.dataset['ready'] = String(ref !== undefined);
      applyState(element);
    }
  }

  setWriting(writing: boolean): void {
    this.element.classList.toggle('is-writing', writing);
  }

  setNested(refs: readonly RefView[]): void {
    this.nested = [];
    this.nestedList.replaceChildren();
    for (const ref of refs) this.addNested(ref);
    this.footer.hidden = this.nested.length === 0;
  }

  addNested(ref: RefView): void {
    this.nested.push(ref);
    const name = refDescriptorId(ref.id, ref.version > 1 ? ref.version : undefined);
    const open = button({
      text: name,
      label: `Open ${name}`,
      class: 'chip-main',
      onClick: () => runAction('open', ref),
    });
    const more = button({
      icon: 'ellipsis',
      label: `Actions for ${name}`,
      class: 'icon-button chip-menu',
      onClick: () => showMenu(more, `Actions for ${name}`, menuItems(ref)),
    });
    more.setAttribute('aria-haspopup', 'menu');
    more.setAttribute('aria-expanded', 'false');
    this.nestedList.append(
      h('span', { class: 'chip ref-chip', title: versionedRefId(ref) }, icon('file-code'), open, more),
    );
    this.footer.hidden = false;
  }

  dispose(): void {
    this.stream.dispose();
  }
}
