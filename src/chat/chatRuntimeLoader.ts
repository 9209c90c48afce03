/**
 * The one way into the chat's lazily loaded code (chatRuntime.ts, bundled as dist/chat.js). `require` inside a
 * function: the file is read when a chat is first shown, not when fdref activates. esbuild.js rewrites this
 * `require` to dist/chat.js and refuses any other import of chatRuntime.ts into the activation bundle; under tsx
 * (the unit tests) it loads the source.
 */
export type ChatRuntime = typeof import('./runtime/chatRuntime');

export function chatRuntime(): ChatRuntime {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./runtime/chatRuntime') as ChatRuntime;
}
