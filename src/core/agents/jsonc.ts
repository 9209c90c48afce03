/**
 * `jsonc-parser`, loaded when Connect an Agent first edits a configuration, not when fdref activates. The build
 * puts it in a file of its own beside the extension bundle (`dist/vendor/jsonc-parser.js`, see esbuild.js), as it
 * does the provider SDKs (`src/core/chat/providers/sdks.ts`).
 */
export type JsoncParser = typeof import('jsonc-parser');

export function jsoncParser(): JsoncParser {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('jsonc-parser') as JsoncParser;
}
