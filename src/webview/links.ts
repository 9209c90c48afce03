/**
 * Every link click in the page is the extension's to decide: the webview never navigates. http, https
 * and mailto links (and the extension's own `command:` links in entity details) go out as `openLink`.
 */
import { MAX_LINK_CHARS } from '../core/chat/protocolLimits';
import { post } from './vscode';

export function routeLinks(): void {
  const handle = (event: MouseEvent): void => {
    const link = event.target instanceof Element ? event.target.closest('a') : null;
    if (!link) return;
    event.preventDefault();
    // VS Code's own link handler sits on the window, after this: it would open the link a second time.
    event.stopPropagation();
    if (event.type === 'auxclick' && event.button !== 1) return;
    const href = link.getAttribute('href');
    if (href && href.length <= MAX_LINK_CHARS) post({ type: 'openLink', href });
  };
  document.addEventListener('click', handle, true);
  document.addEventListener('auxclick', handle, true);
  // Dragging a link out would hand its URL to whatever it is dropped on.
  document.addEventListener('dragstart', (event) => {
    if (event.target instanceof Element && event.target.closest('a')) event.preventDefault();
  });
}
