/**
 * Markdown to DOM: markdown-it with raw HTML off and links limited to safe schemes, highlight.js for code,
 * DOMPurify over the result, then code-block bars, blocked images shown as their alt text and entity ids
 * wrapped. Nothing a model writes can run script: there is no path from its text to an executable node.
 */
import MarkdownIt from 'markdown-it';

type Markdown = InstanceType<typeof MarkdownIt>;
import { decorateCodeBlocks } from './codeBlocks';
import { wrapEntityIds } from './entityIds';
import { createSanitizer, DATA_IMAGE, EXTENSION_LINKS, MESSAGE_LINKS, type Sanitizer } from './sanitize';

function createMarkdown(links: RegExp): Markdown {
  // No highlighting here: code blocks are highlighted when they come into view (see highlight.ts).
  const md = new MarkdownIt({ html: false, linkify: true });
  md.validateLink = (url) => links.test(url.trim()) || DATA_IMAGE.test(url.trim());
  // A remote image would be a request the model chose: show its alt text instead.
  const defaultImage = md.renderer.rules['image'];
  md.renderer.rules['image'] = (tokens, index, options, env, self) => {
    const token = tokens[index];
    const src = String(token?.attrGet('src') ?? '');
    if (token && defaultImage && DATA_IMAGE.test(src)) return defaultImage(tokens, index, options, env, self);
    const alt = token ? self.renderInlineAsText(token.children ?? [], options, env) : '';
    return `<span class="image-alt" title="Image not shown">${md.utils.escapeHtml(alt || 'image')}</span>`;
  };
  return md;
}

interface Flavor {
  md: Markdown;
  sanitize: Sanitizer;
}

let flavors: { message: Flavor; extension: Flavor } | undefined;

function flavor(name: 'message' | 'extension'): Flavor {
  flavors ??= {
    message: { md: createMarkdown(MESSAGE_LINKS), sanitize: createSanitizer(MESSAGE_LINKS) },
    extension: { md: createMarkdown(EXTENSION_LINKS), sanitize: createSanitizer(EXTENSION_LINKS) },
  };
  return flavors[name];
}

/**
 * Renders Markdown to a sanitized fragment. `message` is model or user text (http, https and mailto
 * links); `extension` is the extension's own Markdown (entity details), whose `command:` links are kept.
 */
export function renderMarkdown(text: string, kind: 'message' | 'extension' = 'message'): DocumentFragment {
  const { md, sanitize } = flavor(kind);
  const fragment = sanitize(md.render(text));
  for (const img of fragment.querySelectorAll('img[data-fdref-blocked]')) {
    const alt = document.createElement('span');
    alt.className = 'image-alt';
    alt.textContent = img.getAttribute('alt') || 'image';
    img.replaceWith(alt);
  }
  for (const link of fragment.querySelectorAll('a[href]')) link.setAttribute('title', link.getAttribute('href') ?? '');
  decorateCodeBlocks(fragment);
  wrapEntityIds(fragment);
  return fragment;
}
