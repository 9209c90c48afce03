/** Syntax highlighting of code blocks (highlight.js's common languages; colours come from chat.css). */
import hljs from 'highlight.js/lib/common';

/** Past this, a block is shown plain: highlighting it would hold up the frame for little gain. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** Highlighted HTML (escaped, spans with `hljs-*` classes), or undefined for an unknown language. */
export function highlightCode(code: string, language: string): string | undefined {
  const name = language.toLowerCase();
  if (name === '' || code.length > MAX_HIGHLIGHT_CHARS || !hljs.getLanguage(name)) return undefined;
  try {
    return hljs.highlight(code, { language: name, ignoreIllegals: true }).value;
  } catch {
    return undefined;
  }
}
