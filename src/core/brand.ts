/**
 * `instanceof` that holds across bundles. The core's code exists twice at run time: in dist/extension.js and in
 * dist/chat.js, the chat's code loaded when a chat is first shown (see esbuild.js). An error made by one copy and
 * caught by the other (a `ToolError` from the session's write preview, caught by the chat's tool calls; a
 * `UserError` from the chat, caught by a command) would fail a plain `instanceof`. A branded class marks its
 * instances with a `Symbol.for` key, which every copy shares, and its `instanceof` reads the mark; a subclass keeps
 * the ordinary check.
 */
export function brandedInstanceOf(cls: object, base: object, brand: symbol, value: unknown): boolean {
  if (cls !== base) return Function.prototype[Symbol.hasInstance].call(cls, value);
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
