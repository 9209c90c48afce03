/**
 * The size limits of the chat's webview protocol, shared by the extension and the webview script. In a module
 * of its own, with no imports, so the webview may import it without zod.
 */

/** User text longer than this is cut in the chat view (the descriptor chip opens all of it). */
export const USER_TEXT_VIEW_LIMIT = 20_000;

/** Tool results (and arguments) longer than this are cut in the view (the model got all of it). */
export const RESULT_VIEW_LIMIT = 20_000;

/** The longest text the webview may send: a message, an edited message, text to copy. */
export const MAX_SENT_TEXT_CHARS = 50_000_000;

/** The longest link the webview passes on when it is clicked; a longer one is ignored. */
export const MAX_LINK_CHARS = 10_000;

/**
 * The longest unsent draft the extension keeps for a chat (so it survives the chat moving to a tab or another chat
 * being put in the side bar); a longer one stays only in its page.
 */
export const MAX_DRAFT_CHARS = 1_000_000;

/** A draft up to this long is sent to the extension on every change; a longer one once typing pauses. */
export const DRAFT_EAGER_CHARS = 10_000;
