/**
 * User text longer than this is cut in the chat view (the descriptor chip opens all of it). In a module of its
 * own, with no imports, so the webview may import it without zod.
 */
export const USER_TEXT_VIEW_LIMIT = 20_000;
