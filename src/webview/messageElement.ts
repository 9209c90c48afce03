/**
 * What every message in the list shares: an `<article>` made on first use (a long chat holds thousands of
 * messages that are never shown), its id, and whether its content has been built yet.
 */
import { h } from './dom';

export abstract class MessageElement<View extends { readonly id: string }> {
  protected built = false;
  private article: HTMLElement | undefined;

  constructor(
    protected view: View,
    private readonly articleClass: string,
    private readonly label: string,
  ) {}

  get element(): HTMLElement {
    this.article ??= h('article', {
      class: `message ${this.articleClass}`,
      attrs: { 'aria-label': this.label, 'data-message-id': this.view.id },
    });
    return this.article;
  }

  get id(): string {
    return this.view.id;
  }

  get materialized(): boolean {
    return this.built;
  }
}
