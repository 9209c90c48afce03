/**
 * A chat's messages as they are kept on disk with the session: what the user typed, what each model
 * response said, the tool calls it made and what they returned (needed to replay the conversation).
 */
import * as z from 'zod';
import type { TableMark } from '../descriptors/descriptorTable';
import { extractRefs } from '../refs/extract';

/*
 * The file format stands on its own: the webview protocol may change without breaking saved chats. `views.ts`
 * turns these records into what the webview shows, and the type checker holds the two together there.
 */

/** A write the user was asked to allow, as the chat showed it. */
const writeConfirmationRecord = z.object({
  /** Absent in chats saved before commands and other tools asked too. */
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
export type WriteConfirmationRecord = z.infer<typeof writeConfirmationRecord>;

/** A `run_command` the user was asked to allow. */
const commandConfirmationRecord = z.object({
  kind: z.literal('command'),
  command: z.string(),
  /** The folder it runs in, absolute. */
  cwd: z.string(),
  /** Its time limit in seconds. */
  timeoutS: z.number().positive(),
});
export type CommandConfirmationRecord = z.infer<typeof commandConfirmationRecord>;

/** A call of another extension's tool (`vscode.lm.tools`) the user was asked to allow. */
const toolConfirmationRecord = z.object({
  kind: z.literal('tool'),
  tool: z.string(),
  /** The tool's own description. */
  description: z.string(),
  /** The arguments, as JSON text (shortened when long). */
  input: z.string(),
});
export type ToolConfirmationRecord = z.infer<typeof toolConfirmationRecord>;

/** What a call waiting for the user showed: a write, a command or another extension's tool. */
const confirmationRecord = z.union([commandConfirmationRecord, toolConfirmationRecord, writeConfirmationRecord]);
export type ConfirmationRecord = z.infer<typeof confirmationRecord>;

/** Why an answer failed, as the chat showed it: the message, the provider's own words, the action offered. */
const errorRecord = z.object({
  message: z.string(),
  detail: z.string().optional(),
  action: z.enum(['setApiKey', 'openSettings', 'retry']).optional(),
});
export type ErrorRecord = z.infer<typeof errorRecord>;

const toolCallRecord = z.object({
  callId: z.string(),
  name: z.string(),
  arguments: z.string(),
  status: z.enum(['running', 'awaitingConfirmation', 'done', 'error', 'denied']),
  /** Exactly what went back to the model. */
  result: z.string().optional(),
  descriptor: z.string().optional(),
  /** A short line on how it ended, e.g. `exit code 0 · 688,895 chars in fd:3` (run_command). */
  summary: z.string().optional(),
  confirmation: confirmationRecord.optional(),
  /** The answer was stopped or the chat closed while the call waited for the user: it never ran. */
  unanswered: z.boolean().optional(),
});
export type ToolCallRecord = z.infer<typeof toolCallRecord>;

const roundRecord = z.object({
  text: z.string(),
  /** The version each valid ref of `text` got, in the order `extractRefs(text).refs` lists them. */
  refVersions: z.array(z.number().int().min(1)),
  toolCalls: z.array(toolCallRecord),
});
export type RoundRecord = z.infer<typeof roundRecord>;

/**
 * The session's fd counter once the message was complete, for a fork at it (see `tableMarkAfter`).
 * Chats saved before it was recorded lack it.
 */
const nextFd = z.number().int().positive().optional();

const userMessage = z.object({
  role: z.literal('user'),
  id: z.string(),
  text: z.string(),
  createdAt: z.string(),
  /** What the model got instead of `text` when it was paged into a descriptor. */
  modelText: z.string().optional(),
  descriptor: z.object({ id: z.string(), chars: z.number().int(), lines: z.number().int() }).optional(),
  nextFd,
});
export type UserMessageRecord = z.infer<typeof userMessage>;

const assistantMessage = z.object({
  role: z.literal('assistant'),
  id: z.string(),
  createdAt: z.string(),
  model: z.string().optional(),
  status: z.enum(['streaming', 'complete', 'stopped', 'error']),
  error: errorRecord.optional(),
  rounds: z.array(roundRecord),
  nextFd,
});
export type AssistantMessageRecord = z.infer<typeof assistantMessage>;

const chatMessage = z.discriminatedUnion('role', [userMessage, assistantMessage]);
export type ChatMessageRecord = z.infer<typeof chatMessage>;

export const chatRecord = z.object({
  /** The model picker's choice (a `ModelOption.key`). */
  model: z.string().optional(),
  messages: z.array(chatMessage),
});
export type ChatRecord = z.infer<typeof chatRecord>;

/** Reads a saved chat; throws an Error naming what is wrong. */
export function chatRecordFromJSON(data: unknown): ChatRecord {
  const parsed = chatRecord.safeParse(data);
  if (!parsed.success)
    throw new Error(`Invalid chat: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const record = parsed.data;
  // A chat saved while streaming (VS Code closed mid-answer) was stopped by the close.
  for (const message of record.messages) {
    if (message.role !== 'assistant') continue;
    if (message.status === 'streaming') message.status = 'stopped';
    for (const round of message.rounds) {
      for (const call of round.toolCalls) {
        if (call.status === 'awaitingConfirmation') {
          call.status = 'error';
          call.unanswered = true;
          call.result ??=
            '<fd_error type="permission_denied">The chat was closed before the user answered, so this call did not run.</fd_error>';
        } else if (call.status === 'running') {
          call.status = 'error';
          call.result ??= '<fd_error type="internal_error">The chat was closed before this tool finished.</fd_error>';
        }
      }
    }
  }
  return record;
}

/**
 * What the session held after the last of `messages`, for a chat forked there: the ref versions its
 * rounds registered (each round's `refVersions`, matched to `extractRefs` of its text; versions of a
 * ref only grow, so the highest one seen is its count then) and the fd counter the last message
 * recorded. A chat saved before messages recorded the counter gives no counter: the fork keeps every
 * fd, as forks did before.
 */
export function tableMarkAfter(messages: readonly ChatMessageRecord[]): TableMark {
  const refVersions = new Map<string, number>();
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const round of message.rounds) {
      if (round.refVersions.length === 0) continue;
      extractRefs(round.text).refs.forEach((ref, i) => {
        const version = round.refVersions[i];
        if (version !== undefined && version > (refVersions.get(ref.id) ?? 0)) refVersions.set(ref.id, version);
      });
    }
  }
  return { nextFd: messages.at(-1)?.nextFd, refVersions };
}
