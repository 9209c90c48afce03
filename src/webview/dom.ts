/** Small helpers to build the view's elements without HTML strings. */

type Child = Node | string | undefined | false;

export interface Props {
  class?: string;
  text?: string;
  title?: string;
  attrs?: Record<string, string>;
}

/** `h('div', { class: 'x' }, child, 'text')`. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  if (props.class) element.className = props.class;
  if (props.text !== undefined) element.textContent = props.text;
  if (props.title !== undefined) element.title = props.title;
  if (props.attrs) for (const [name, value] of Object.entries(props.attrs)) element.setAttribute(name, value);
  for (const child of children) if (child !== undefined && child !== false) element.append(child);
  return element;
}

/** A codicon (`<i class="codicon codicon-copy">`), hidden from screen readers: the button says what it does. */
export function icon(name: string, extraClass = ''): HTMLElement {
  return h('i', {
    class: `codicon codicon-${name}${extraClass ? ` ${extraClass}` : ''}`,
    attrs: { 'aria-hidden': 'true' },
  });
}

export interface ButtonOptions {
  icon?: string;
  /** Visible text; without it the button shows only its icon and `label` is its accessible name. */
  text?: string;
  label: string;
  class?: string;
  onClick: (event: MouseEvent) => void;
}

/** A real `<button>` with an accessible name and a tooltip. */
export function button(options: ButtonOptions): HTMLButtonElement {
  const element = h('button', {
    class: options.class ?? (options.text === undefined ? 'icon-button' : 'text-button'),
    title: options.label,
    attrs: { type: 'button', 'aria-label': options.label },
  });
  if (options.icon) element.append(icon(options.icon));
  if (options.text !== undefined) element.append(h('span', { text: options.text }));
  element.addEventListener('click', (event) => {
    if (element.getAttribute('aria-disabled') === 'true') return;
    options.onClick(event);
  });
  return element;
}

/**
 * Disables a button but keeps it focusable and its tooltip visible (a `disabled` button shows neither),
 * which is how a person learns why Export is unavailable.
 */
export function setDisabled(element: HTMLButtonElement, disabled: boolean, why?: string, label?: string): void {
  element.setAttribute('aria-disabled', String(disabled));
  element.classList.toggle('is-disabled', disabled);
  if (label !== undefined) element.title = disabled && why ? `${label} (${why})` : label;
}

/**
 * A link that acts instead of navigating: an inline element with the link role, so a long one wraps with the text
 * around it (a button would move to a line of its own). Enter acts on it as a click does. Its click goes no further,
 * so one inside a `<summary>` does not open or close the `<details>`.
 */
export function linkButton(text: string, label: string, onClick: () => void, extraClass = ''): HTMLElement {
  const link = h('span', {
    class: `link-button${extraClass ? ` ${extraClass}` : ''}`,
    text,
    title: label,
    attrs: { role: 'link', tabindex: '0', 'aria-label': label },
  });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    onClick();
  });
  link.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    event.stopPropagation();
    onClick();
  });
  return link;
}
