/**
 * Syntax highlighting of code blocks with highlight.js (common languages; colours from chat.css). It is
 * the most expensive part of rendering (a few ms per KB), so a block is first shown plain and highlighted
 * when it comes near the viewport, within the frame budget: an answer that streams past costs only what
 * is looked at.
 */
import hljs from 'highlight.js/lib/common';
import { scheduler } from './context';
import { wrapEntityIds } from './entityIds';
import { createSanitizer, MESSAGE_LINKS } from './sanitize';
import type { Renderable } from './scheduler';

/** Past this, a block stays plain: highlighting it would hold up a frame for little gain. */
const MAX_HIGHLIGHT_CHARS = 100_000;

/** The highlight.js name for a fence's language, or undefined when it has none we know. */
export function highlightLanguage(language: string): string | undefined {
  const name = language.toLowerCase();
  return name !== '' && hljs.getLanguage(name) ? name : undefined;
}

let sanitize: ReturnType<typeof createSanitizer> | undefined;
const waiting = new Set<HTMLElement>();
/** Code blocks observed and not yet seen. */
const observed = new Set<Element>();
let pruneAt = 200;

const highlighter: Renderable = {
  render(deadline) {
    for (const code of waiting) {
      if (performance.now() > deadline) return true;
      waiting.delete(code);
      if (code.isConnected) highlightNow(code);
    }
    return false;
  },
};

const observer = new IntersectionObserver(
  (entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue;
      observer.unobserve(entry.target);
      observed.delete(entry.target);
      waiting.add(entry.target as HTMLElement);
    }
    if (waiting.size > 0) scheduler.schedule(highlighter);
  },
  { rootMargin: '300px 0px' },
);

/** Highlights the marked code blocks under `root` once they come near the viewport. */
export function highlightLater(root: ParentNode): void {
  for (const code of root.querySelectorAll<HTMLElement>('code[data-highlight]')) {
    observer.observe(code);
    observed.add(code);
  }
  // Blocks taken out of the page before they were seen would stay observed: let them go now and then.
  if (observed.size > pruneAt) {
    for (const code of observed) {
      if (code.isConnected) continue;
      observer.unobserve(code);
      observed.delete(code);
    }
    pruneAt = Math.max(200, observed.size * 2);
  }
}

/** Forgets every block waiting or observed (the view starts over). */
export function forgetHighlights(): void {
  for (const code of observed) observer.unobserve(code);
  observed.clear();
  waiting.clear();
}

function highlightNow(code: HTMLElement): void {
  const language = code.dataset['highlight'] ?? '';
  delete code.dataset['highlight'];
  const text = code.textContent ?? '';
  if (text.length > MAX_HIGHLIGHT_CHARS) return;
  let html: string;
  try {
    html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  } catch {
    return;
  }
  // highlight.js escapes the code; its spans go through the sanitizer anyway, like everything else.
  sanitize ??= createSanitizer(MESSAGE_LINKS);
  code.replaceChildren(sanitize(html));
  wrapEntityIds(code);
}
