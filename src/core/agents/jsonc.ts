/**
 * `jsonc-parser`, loaded when Connect an Agent first edits a configuration, not when fdref activates. The build
 * puts it in a file of its own beside the extension bundle (`dist/vendor/jsonc-parser.js`, see esbuild.js), as it
 * does the provider SDKs (`src/core/chat/providers/sdks.ts`).
 */
import type { Node } from 'jsonc-parser';

export type JsoncParser = typeof import('jsonc-parser');

export function jsoncParser(): JsoncParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('jsonc-parser') as JsoncParser;
}

/**
 * `text` without the child at `index` of `container` (an object's member or an array's element), and the comma
 * joining it to the child before it (else after it); the inverse of appending one, so what stood around it keeps its
 * text. A container left with nothing in it becomes `{}` or `[]`. `text` unchanged when there is no such child.
 */
export function withoutChild(text: string, container: Node, index: number): string {
  const siblings = container.children ?? [];
  const node = siblings[index];
  if (node === undefined) return text;
  const previous = siblings[index - 1];
  const next = siblings[index + 1];
  const [start, end] =
    previous !== undefined
      ? [previous.offset + previous.length, node.offset + node.length]
      : next !== undefined
        ? [node.offset, next.offset]
        : [container.offset + 1, container.offset + container.length - 1];
  return text.slice(0, start) + text.slice(end);
}
