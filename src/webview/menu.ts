/** A small popup menu (the actions of a nested ref's chip): keyboard and pointer, one open at a time. */
import { h, icon } from './dom';

export interface MenuItem {
  label: string;
  icon: string;
  /** Why the item is unavailable; the item is then shown disabled with this as its tooltip. */
  disabledReason?: string | undefined;
  run: () => void;
}

let current: { menu: HTMLElement; anchor: HTMLElement } | undefined;

export function closeMenu(refocus = false): void {
  if (!current) return;
  const { menu, anchor } = current;
  current = undefined;
  menu.remove();
  anchor.setAttribute('aria-expanded', 'false');
  if (refocus) anchor.focus();
}

export function showMenu(anchor: HTMLElement, label: string, items: MenuItem[]): void {
  const wasOpen = current?.anchor === anchor;
  closeMenu();
  if (wasOpen) return;
  const menu = h('div', { class: 'menu', attrs: { role: 'menu', 'aria-label': label } });
  for (const item of items) {
    const entry = h(
      'button',
      { class: 'menu-item', attrs: { type: 'button', role: 'menuitem' } },
      icon(item.icon),
      h('span', { text: item.label }),
    );
    if (item.disabledReason !== undefined) {
      entry.setAttribute('aria-disabled', 'true');
      entry.title = item.disabledReason;
    }
    entry.addEventListener('click', () => {
      if (item.disabledReason !== undefined) return;
      closeMenu(true);
      item.run();
    });
    menu.append(entry);
  }
  menu.addEventListener('keydown', (event) => {
    const entries = [...menu.querySelectorAll<HTMLElement>('.menu-item')];
    const index = entries.indexOf(document.activeElement as HTMLElement);
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      const next = (index + (event.key === 'ArrowDown' ? 1 : entries.length - 1)) % entries.length;
      entries[next]?.focus();
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      closeMenu(true);
    } else if (event.key === 'Tab') {
      closeMenu();
    }
  });
  document.body.append(menu);
  const rect = anchor.getBoundingClientRect();
  const below = rect.bottom + menu.offsetHeight + 4 <= window.innerHeight;
  menu.style.setProperty('top', `${below ? rect.bottom + 2 : Math.max(0, rect.top - menu.offsetHeight - 2)}px`);
  menu.style.setProperty('left', `${Math.max(0, Math.min(rect.left, window.innerWidth - menu.offsetWidth - 4))}px`);
  anchor.setAttribute('aria-expanded', 'true');
  current = { menu, anchor };
  menu.querySelector<HTMLElement>('.menu-item')?.focus();
}

document.addEventListener(
  'mousedown',
  (event) => {
    if (current && !current.menu.contains(event.target as Node) && !current.anchor.contains(event.target as Node))
      closeMenu();
  },
  true,
);
