/**
 * The last line of defence for anything rendered from Markdown: markdown-it already escapes raw HTML,
 * and DOMPurify then keeps only inert formatting. No scripts, styles, forms, frames, objects or event
 * handlers; links only with the schemes given; images only as `data:` images.
 */
import DOMPurify, { type Config } from 'dompurify';

export const DATA_IMAGE = /^data:image\/(?:png|gif|jpe?g|webp);/i;
/** Links a model's text may carry. */
export const MESSAGE_LINKS = /^(?:https?:|mailto:)/i;
/** Links the extension's own Markdown may carry (entity details): also `command:`. */
export const EXTENSION_LINKS = /^(?:https?:|mailto:|command:)/i;

const FORBID_TAGS = [
  'script',
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'svg',
  'math',
  'video',
  'audio',
  'source',
  'track',
  'canvas',
  'template',
  'dialog',
  'picture',
];
const FORBID_ATTR = ['style', 'id', 'name', 'srcset', 'action', 'formaction', 'target', 'ping', 'xlink:href'];

export type Sanitizer = (html: string) => DocumentFragment;

export function createSanitizer(links: RegExp): Sanitizer {
  const purify = DOMPurify(window);
  purify.addHook('afterSanitizeAttributes', (node) => {
    if (node.nodeName === 'A') {
      const href = node.getAttribute('href');
      if (href !== null && !links.test(href.trim())) node.removeAttribute('href');
      node.setAttribute('rel', 'noopener noreferrer');
    } else if (node.nodeName === 'IMG') {
      // Marked for the decorator, which shows the alt text instead; the src goes before the node can load it.
      if (!DATA_IMAGE.test(node.getAttribute('src') ?? '')) {
        node.removeAttribute('src');
        node.setAttribute('data-fdref-blocked', '');
      }
    }
  });
  const config: Config & { RETURN_DOM_FRAGMENT: true } = {
    ALLOWED_URI_REGEXP: links,
    FORBID_TAGS,
    FORBID_ATTR,
    ALLOW_DATA_ATTR: false,
    ALLOW_UNKNOWN_PROTOCOLS: false,
    // Parsed by DOMPurify in a document of its own (inert: nothing loads or runs there).
    RETURN_DOM_FRAGMENT: true,
  };
  return (html) => purify.sanitize(html, config);
}
