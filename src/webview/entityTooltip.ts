/**
 * Hovering or focusing a Structs entity id for a moment asks the extension about it (`entityHover`) and
 * shows the answer's Markdown in a tooltip; its `command:` links go back through `openLink` like any link.
 */
import { isHoverableEntityId } from '../core/ids';
import { h } from './dom';
import { highlightLater } from './highlight';
import { renderMarkdown } from './markdown';
import { post } from './vscode';

const HOVER_DELAY_MS = 300;
const HIDE_DELAY_MS = 250;
/** Answers are reused this long (the extension's resolver has its own cache; this saves the round trip). */
const CACHE_MS = 30_000;
/** The extension answers only when it knows the entity; past this, the tooltip says so. */
const ANSWER_TIMEOUT_MS = 5_000;

export class EntityTooltip {
  private readonly element = h('div', {
    class: 'entity-tooltip',
    attrs: { role: 'tooltip', id: 'fdref-entity-tooltip' },
  });
  private anchor: HTMLElement | undefined;
  private showTimer: ReturnType<typeof setTimeout> | undefined;
  private hideTimer: ReturnType<typeof setTimeout> | undefined;
  private nextRequestId = 1;
  private pending: { requestId: number; id: string } | undefined;
  private answerTimer: ReturnType<typeof setTimeout> | undefined;
  private readonly cache = new Map<string, { markdown: string; at: number }>();

  constructor() {
    this.element.hidden = true;
    document.body.append(this.element);
    document.addEventListener('mouseover', (event) => this.enter(event.target));
    document.addEventListener('focusin', (event) => this.enter(event.target));
    document.addEventListener('mouseout', (event) => this.leave(event.relatedTarget));
    document.addEventListener('focusout', (event) => this.leave(event.relatedTarget));
    document.addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Escape' && !this.element.hidden) {
          event.stopPropagation();
          this.hide();
        }
      },
      true,
    );
    this.element.addEventListener('mouseenter', () => clearTimeout(this.hideTimer));
  }

  /** The extension's answer to an `entityHover`. */
  details(requestId: number, id: string, markdown: string): void {
    this.cache.set(id, { markdown, at: Date.now() });
    if (this.pending?.requestId === requestId && this.anchor?.dataset['entityId'] === id) this.show(markdown);
  }

  private enter(target: EventTarget | null): void {
    if (target instanceof Node && this.element.contains(target)) {
      clearTimeout(this.hideTimer);
      return;
    }
    const entity = target instanceof Element ? target.closest<HTMLElement>('.fdref-entity') : null;
    if (!entity) return;
    clearTimeout(this.hideTimer);
    if (entity === this.anchor) return;
    clearTimeout(this.showTimer);
    this.showTimer = setTimeout(() => this.request(entity), HOVER_DELAY_MS);
  }

  private leave(to: EventTarget | null): void {
    clearTimeout(this.showTimer);
    if (to instanceof Node && (this.element.contains(to) || this.anchor?.contains(to))) return;
    clearTimeout(this.hideTimer);
    this.hideTimer = setTimeout(() => this.hide(), HIDE_DELAY_MS);
  }

  private request(entity: HTMLElement): void {
    const id = entity.dataset['entityId'] ?? '';
    if (!isHoverableEntityId(id) || !entity.isConnected) return;
    this.anchor?.removeAttribute('aria-describedby');
    this.anchor = entity;
    entity.setAttribute('aria-describedby', this.element.id);
    const cached = this.cache.get(id);
    if (cached && Date.now() - cached.at < CACHE_MS) {
      this.show(cached.markdown);
      return;
    }
    const requestId = this.nextRequestId++;
    this.pending = { requestId, id };
    post({ type: 'entityHover', requestId, id });
    this.element.replaceChildren(h('div', { class: 'entity-loading', text: `Looking up ${id}…` }));
    this.place();
    clearTimeout(this.answerTimer);
    this.answerTimer = setTimeout(() => {
      if (this.pending?.requestId !== requestId) return;
      this.element.replaceChildren(h('div', { class: 'entity-loading', text: `No details for ${id}.` }));
      this.place();
    }, ANSWER_TIMEOUT_MS);
  }

  private show(markdown: string): void {
    clearTimeout(this.answerTimer);
    this.element.replaceChildren(renderMarkdown(markdown, 'extension'));
    highlightLater(this.element);
    this.place();
  }

  private place(): void {
    const anchor = this.anchor;
    if (!anchor) return;
    this.element.hidden = false;
    const rect = anchor.getBoundingClientRect();
    const height = this.element.offsetHeight;
    const width = this.element.offsetWidth;
    const below = rect.bottom + 4 + height <= window.innerHeight || rect.top < height + 4;
    const top = below ? rect.bottom + 4 : rect.top - height - 4;
    const left = Math.max(4, Math.min(rect.left, window.innerWidth - width - 4));
    this.element.style.setProperty('top', `${Math.max(4, top)}px`);
    this.element.style.setProperty('left', `${left}px`);
  }

  private hide(): void {
    clearTimeout(this.showTimer);
    this.element.hidden = true;
    this.anchor?.removeAttribute('aria-describedby');
    this.anchor = undefined;
    this.pending = undefined;
  }
}
