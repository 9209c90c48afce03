/**
 * Every message between the chat panel's webview and the extension, as zod schemas (the single source of
 * the types). No `vscode` import: the webview script imports the types from here too. The extension
 * validates every message it receives with `fromWebview` and ignores (and logs) anything malformed.
 */
import * as z from 'zod';
import { DESCRIPTOR_ID, isHoverableEntityId } from '../ids';
import { MAX_DRAFT_CHARS, MAX_LINK_CHARS, MAX_SENT_TEXT_CHARS } from './protocolLimits';

const id = z.string().min(1).max(200);
/** `ref:x`, `ref:x@2` or `fd:3`. */
const descriptorId = z.string().regex(DESCRIPTOR_ID);

// ---- What the webview shows -------------------------------------------------------------------------

export const refView = z.object({
  /** The id without `ref:`. */
  id: z.string(),
  /** The version this message made (1 for a new id). Links to the diff when above 1. */
  version: z.number().int().min(1),
  /** Offsets in the round's text: `<` of the opening tag, just after `>` of the closing tag. */
  start: z.number().int().min(0),
  end: z.number().int().min(0),
  language: z.string().optional(),
  lines: z.number().int().min(0),
  chars: z.number().int().min(0),
  /** Inside another ref of the same round (shown inside its frame, not as a frame of its own). */
  nested: z.boolean(),
});
export type RefView = z.infer<typeof refView>;

export const diagnosticView = z.object({ message: z.string(), offset: z.number().int().min(0) });
export type DiagnosticView = z.infer<typeof diagnosticView>;

export const writeConfirmationView = z.object({
  kind: z.literal('write').optional(),
  /** What is written: `ref:x`, `fd:2`. */
  source: z.string(),
  /** As shown: relative to the workspace folder when inside one. */
  path: z.string(),
  mode: z.enum(['write', 'append', 'insert']),
  line: z.number().int().optional(),
  chars: z.number().int().min(0),
  bytes: z.number().int().min(0),
  /** Mode `write` on a file that exists: its content is replaced. */
  replacesFile: z.boolean(),
  fileExists: z.boolean(),
});
export type WriteConfirmationView = z.infer<typeof writeConfirmationView>;

export const commandConfirmationView = z.object({
  kind: z.literal('command'),
  command: z.string(),
  /** The folder it runs in, absolute. */
  cwd: z.string(),
  timeoutS: z.number().positive(),
});
export type CommandConfirmationView = z.infer<typeof commandConfirmationView>;

/** A call of another extension's tool waiting for the user. */
export const toolConfirmationView = z.object({
  kind: z.literal('tool'),
  tool: z.string(),
  description: z.string(),
  /** The arguments as JSON text (shortened when long). */
  input: z.string(),
});
export type ToolConfirmationView = z.infer<typeof toolConfirmationView>;

export const confirmationView = z.union([commandConfirmationView, toolConfirmationView, writeConfirmationView]);
export type ConfirmationView = z.infer<typeof confirmationView>;

/** A piece of a finished call's one-line summary (see `toolSummary.ts`): text, code, a descriptor or a file to open. */
export const headlinePart = z.union([
  z.object({ text: z.string() }),
  z.object({ code: z.string() }),
  z.object({ fd: z.string() }),
  /** `file` is the absolute path written, `label` the path as the user was shown it. */
  z.object({ file: z.string(), label: z.string() }),
]);
export type HeadlinePart = z.infer<typeof headlinePart>;

export const toolCallView = z.object({
  callId: z.string(),
  name: z.string(),
  /** The arguments as the model sent them (JSON text, maybe invalid). */
  arguments: z.string(),
  status: z.enum(['running', 'awaitingConfirmation', 'done', 'error', 'denied']),
  /** What went back to the model; cut to `RESULT_VIEW_LIMIT` characters for the view. */
  result: z.string().optional(),
  resultTruncated: z.boolean().optional(),
  /** Set when the output was long and stored as this descriptor (the model got a preview). */
  descriptor: z.string().optional(),
  /** How it ended in a few words, e.g. `exit code 0 · 688,895 chars in fd:3`. */
  summary: z.string().optional(),
  /** A finished call in one line a person reads, e.g. `Wrote notes/hello.py, 57 bytes`. */
  headline: z.array(headlinePart).optional(),
  confirmation: confirmationView.optional(),
  /** The answer was stopped or the chat closed while the call waited for the user: it never ran. */
  unanswered: z.boolean().optional(),
});
export type ToolCallView = z.infer<typeof toolCallView>;

/** One model response inside an answer: its text, the refs and diagnostics found in it, the tools it called. */
export const roundView = z.object({
  text: z.string(),
  refs: z.array(refView),
  diagnostics: z.array(diagnosticView),
  toolCalls: z.array(toolCallView),
});
export type RoundView = z.infer<typeof roundView>;

/** A failure as the chat shows it, with a button when there is something to do (set a key, open settings). */
export const errorView = z.object({
  message: z.string(),
  detail: z.string().optional(),
  action: z.enum(['setApiKey', 'openSettings', 'retry']).optional(),
});
export type ErrorView = z.infer<typeof errorView>;

export const descriptorChip = z.object({ id: z.string(), chars: z.number().int(), lines: z.number().int() });
export type DescriptorChip = z.infer<typeof descriptorChip>;

export const messageView = z.discriminatedUnion('role', [
  z.object({
    role: z.literal('user'),
    id,
    text: z.string(),
    /** Set when `text` was cut for the view (`USER_TEXT_VIEW_LIMIT`): the whole message's length. */
    fullChars: z.number().int().optional(),
    /** Set when the message was longer than the threshold: the model got this descriptor and a preview. */
    descriptor: descriptorChip.optional(),
    createdAt: z.string(),
  }),
  z.object({
    role: z.literal('assistant'),
    id,
    rounds: z.array(roundView),
    status: z.enum(['streaming', 'complete', 'stopped', 'error']),
    error: errorView.optional(),
    /** The model's label, e.g. `Claude Sonnet 4.5 (Anthropic)`. */
    model: z.string().optional(),
    createdAt: z.string(),
  }),
]);
export type MessageView = z.infer<typeof messageView>;
export type UserMessageView = Extract<MessageView, { role: 'user' }>;
export type AssistantMessageView = Extract<MessageView, { role: 'assistant' }>;

export const modelOption = z.object({
  /** Stable key, e.g. `vscode-lm:copilot/gpt-4o`, `endpoint:Ollama/llama3.1`. */
  key: z.string(),
  label: z.string(),
  provider: z.enum(['vscode-lm', 'anthropic', 'openai']),
  /** A second line: the vendor, the base URL, or "demo endpoint". */
  detail: z.string().optional(),
  demo: z.boolean().optional(),
});
export type ModelOption = z.infer<typeof modelOption>;

// ---- Extension -> webview ---------------------------------------------------------------------------

export const toWebview = z.discriminatedUnion('type', [
  /** The whole state; sent after `ready` and whenever the view must start over. */
  z.object({
    type: z.literal('init'),
    chatId: id,
    title: z.string(),
    messages: z.array(messageView),
    models: z.array(modelOption),
    selectedModel: z.string().optional(),
    busy: z.boolean(),
    /** No model can be used: show the welcome view with how to configure one. */
    welcome: z.boolean(),
    /** Whether the workspace is trusted (writes are refused otherwise). */
    trusted: z.boolean(),
    /** The unsent text the extension kept for this chat (its page may have shown another chat meanwhile). */
    draft: z.string().max(MAX_DRAFT_CHARS).optional(),
  }),
  z.object({
    type: z.literal('models'),
    models: z.array(modelOption),
    selectedModel: z.string().optional(),
    welcome: z.boolean(),
  }),
  z.object({ type: z.literal('title'), title: z.string() }),
  z.object({ type: z.literal('busy'), busy: z.boolean() }),
  /** A new message at the end (a user message, or an assistant message starting to stream). */
  z.object({ type: z.literal('messageAdded'), message: messageView }),
  /** A message's whole state (status changed, stream ended); replaces the one with the same id. */
  z.object({ type: z.literal('messageUpdated'), message: messageView }),
  /** Messages from this one on are gone (retry, edit and resend). */
  z.object({ type: z.literal('messagesRemoved'), fromId: id }),
  /** A new round starts in a streaming answer (after tool results went back to the model). */
  z.object({ type: z.literal('roundStarted'), messageId: id, round: z.number().int().min(0) }),
  /** Raw text appended to the round (tags included; the ref events say where refs are). */
  z.object({ type: z.literal('textDelta'), messageId: id, round: z.number().int().min(0), text: z.string() }),
  /** A `<ref>` opened at `offset`; `id` is undefined for an invalid tag. `index` numbers opening tags in the round. */
  z.object({
    type: z.literal('refOpened'),
    messageId: id,
    round: z.number().int().min(0),
    index: z.number().int().min(0),
    id: z.string().optional(),
    offset: z.number().int().min(0),
  }),
  /** A ref closed; `ref` is set when it was valid and has been registered. */
  z.object({
    type: z.literal('refClosed'),
    messageId: id,
    round: z.number().int().min(0),
    index: z.number().int().min(0),
    offset: z.number().int().min(0),
    ref: refView.optional(),
  }),
  /** The round's text is complete: the final refs and diagnostics (authoritative over the events). */
  z.object({
    type: z.literal('roundEnded'),
    messageId: id,
    round: z.number().int().min(0),
    refs: z.array(refView),
    diagnostics: z.array(diagnosticView),
  }),
  /** A tool call was added to the round or changed (matched by `callId`). */
  z.object({ type: z.literal('toolCall'), messageId: id, round: z.number().int().min(0), call: toolCallView }),
  /** The answer to an `entityHover` request: Markdown (links are `command:` links the webview routes back). */
  z.object({ type: z.literal('entityDetails'), requestId: z.number().int(), id: z.string(), markdown: z.string() }),
  z.object({ type: z.literal('trust'), trusted: z.boolean() }),
]);
export type ToWebview = z.infer<typeof toWebview>;

// ---- Webview -> extension ---------------------------------------------------------------------------

export const refAction = z.enum(['open', 'copy', 'insertAtCursor', 'applyToSymbol', 'export', 'append', 'compare']);
export type RefAction = z.infer<typeof refAction>;

export const fromWebview = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready') }),
  /** The unsent text in the chat `chatId`'s box, kept by the extension for when the chat is shown in another page. */
  z.object({ type: z.literal('draft'), chatId: id, text: z.string().max(MAX_DRAFT_CHARS) }),
  z.object({ type: z.literal('send'), text: z.string().min(1).max(MAX_SENT_TEXT_CHARS) }),
  z.object({ type: z.literal('stop') }),
  /** Answer the last user message again (the last answer is replaced): the Retry button and an error's Retry action. */
  z.object({ type: z.literal('retry') }),
  /** Replace a user message's text and answer it again (later messages are dropped). */
  z.object({ type: z.literal('editResend'), messageId: id, text: z.string().min(1).max(MAX_SENT_TEXT_CHARS) }),
  /** A new chat holding the messages up to and including this one, with the session's descriptors and refs. */
  z.object({ type: z.literal('fork'), messageId: id }),
  z.object({ type: z.literal('selectModel'), key: z.string() }),
  z.object({ type: z.literal('refAction'), action: refAction, ref: descriptorId }),
  z.object({ type: z.literal('openDescriptor'), descriptor: descriptorId }),
  /**
   * The file a tool call of this chat wrote (its summary's link), named by the call: the extension takes the path from
   * its own record of the call and opens it only inside a workspace folder.
   */
  z.object({ type: z.literal('openFile'), callId: z.string().min(1).max(MAX_LINK_CHARS) }),
  /** The user's answer to a call waiting for it (a write, a command, another extension's tool). */
  z.object({ type: z.literal('confirm'), callId: z.string(), allow: z.boolean() }),
  /** A link the user clicked in a message; the extension decides whether and how to open it. */
  z.object({ type: z.literal('openLink'), href: z.string().max(MAX_LINK_CHARS) }),
  z.object({ type: z.literal('entityHover'), requestId: z.number().int(), id: z.string().refine(isHoverableEntityId) }),
  z.object({ type: z.literal('copyText'), text: z.string().max(MAX_SENT_TEXT_CHARS) }),
  z.object({ type: z.literal('exportMarkdown') }),
  /** A VS Code command the page offers: set an API key, open the settings, a new chat, choose the tools offered. */
  z.object({ type: z.literal('command'), command: z.enum(['setApiKey', 'openSettings', 'newChat', 'chooseTools']) }),
]);
export type FromWebview = z.infer<typeof fromWebview>;

/**
 * Whether a chat takes a message its host's page posted. The side bar's one webview shows one chat after another: what
 * the previous chat's page posted just before the next chat was put in (a send, a stop, a retry) arrives after it, and
 * before the new page's `ready` (one channel keeps the order). So until the page it loaded says it is ready, a chat
 * takes only `ready` and a `draft` (which names the chat it is for).
 */
export function takenFromPage(ready: boolean, raw: unknown): boolean {
  if (ready) return true;
  const type = typeof raw === 'object' && raw !== null ? (raw as { type?: unknown }).type : undefined;
  // A draft names its chat, so the last one the page before posted is still kept for that chat.
  return type === 'ready' || type === 'draft';
}
