/** How much of a long text the chat view shows; no `zod` or other imports, so the webview may import it. */

/** User text longer than this is cut in the view (the descriptor chip opens all of it). */
export const USER_TEXT_VIEW_LIMIT = 20_000;
