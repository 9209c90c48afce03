/** Code blocks: a small bar with the language and a Copy button above each `<pre>`. */
import { button, h } from './dom';
import { highlightLanguage } from './highlight';
import { post } from './vscode';

/** The wrapper every code block gets; `code` is where its text goes. */
export function codeBlockElement(language: string): { block: HTMLElement; code: HTMLElement } {
  const code = h('code', language ? { class: `language-${language}` } : {});
  const block = h('div', { class: 'code-block' }, codeBar(language), h('pre', { attrs: { tabindex: '0' } }, code));
  return { block, code };
}

function codeBar(language: string): HTMLElement {
  const copy = button({
    icon: 'copy',
    label: 'Copy code',
    class: 'icon-button code-copy',
    onClick: () => {
      const code = copy.closest('.code-block')?.querySelector('code');
      post({ type: 'copyText', text: code?.textContent ?? '' });
      flash(copy);
    },
  });
  return h('div', { class: 'code-bar' }, h('span', { class: 'code-language', text: language }), copy);
}

/** Shows a check mark on the button for a moment. */
export function flash(target: HTMLElement): void {
  const glyph = target.querySelector('.codicon');
  if (!glyph) return;
  const previous = glyph.className;
  glyph.className = 'codicon codicon-check';
  setTimeout(() => (glyph.className = previous), 1200);
}

/** Wraps each `<pre><code>` markdown-it made in the same frame as `codeBlockElement`. */
export function decorateCodeBlocks(root: DocumentFragment | Element): void {
  for (const pre of root.querySelectorAll('pre')) {
    const code = pre.querySelector('code');
    const language = /(?:^|\s)language-(\S+)/.exec(code?.className ?? '')?.[1] ?? '';
    const block = h('div', { class: 'code-block' }, codeBar(language));
    const known = highlightLanguage(language);
    if (code && known) code.dataset['highlight'] = known;
    pre.tabIndex = 0;
    pre.replaceWith(block);
    block.append(pre);
  }
}
