import * as z from 'zod';
import { previewLine } from '../presentation/describe';
import { quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';
import type { ToolContext, ToolDescriptor, ToolSession } from './toolContext';

/**
 * The optional `session` argument every descriptor tool takes when its context can open other sessions
 * (`ToolContext.openSession`, the MCP server): the id or name of a session of the same store to read, never to write.
 */
export const sessionArgument = z
  .string()
  .min(1)
  .optional()
  .describe(
    'Another session of the store to read from, by its id or its exact name (case-insensitive; list_sessions ' +
      'lists them); default this session. Anything created (an extract, a long result) still goes to this session.',
  );

/** Each tool's schema with the `session` argument, made once: zod's `extend` takes 100-160 µs, more than a page read. */
const withSession = new WeakMap<z.ZodObject, z.ZodObject>();

/**
 * `schema` with the `session` argument added when `context` can open other sessions (and `sessionFields`, a tool's
 * own arguments that name sessions, such as `diff_fd`'s `b_session`); else `schema` itself. `sessionFields` must be
 * the same for a given `schema`: the result is made once per schema.
 */
export function schemaFor(
  schema: z.ZodObject,
  context: Pick<ToolContext, 'openSession'>,
  sessionFields: z.ZodRawShape = {},
): z.ZodObject {
  if (context.openSession === undefined) return schema;
  let extended = withSession.get(schema);
  if (extended === undefined) {
    extended = schema.extend({ ...sessionFields, session: sessionFields['session'] ?? sessionArgument });
    withSession.set(schema, extended);
  }
  return extended;
}

/** The session a call reads: the one its `session` argument names, or the context's own. */
export async function readingSession(context: ToolContext, input: { session?: unknown }): Promise<ToolSession> {
  const id = input.session;
  if (typeof id !== 'string' || context.openSession === undefined) return context.session;
  return context.openSession(id);
}

/** A session as the `session` argument and the errors about it name it. */
export interface NamedSession {
  readonly id: string;
  readonly name: string;
}

/** Whether two session names are one to the `session` argument: equal once trimmed, case-insensitive. */
export function sameSessionName(a: string, b: string): boolean {
  return sessionNameKey(a) === sessionNameKey(b);
}

/** What `sameSessionName` compares: the name trimmed and in lower case. */
export function sessionNameKey(name: string): string {
  return name.trim().toLocaleLowerCase();
}

/** How many sessions an error about the `session` argument lists. */
const LISTED_SESSIONS = 10;

/**
 * The session a `session` argument names among `sessions` (most recent first): the one with that exact id, else
 * the one with that exact name, case-insensitive, trimmed. A `ToolError` when several have that name (listing
 * their ids) or none matches (listing the most recent and saying `howToList`, how to find the others).
 */
export function resolveSessionArgument<T extends NamedSession>(
  wanted: string,
  sessions: readonly T[],
  howToList: string,
): T {
  const key = wanted.trim();
  const byId = sessions.find((s) => s.id === key);
  if (byId !== undefined) return byId;
  const byName = sessions.filter((s) => sameSessionName(s.name, key));
  const [only, second] = byName;
  if (only !== undefined && second === undefined) return only;
  if (only !== undefined) {
    throw new ToolError(
      'invalid_argument',
      `session: ${byName.length} sessions are named ${quoteInput(key)}; pass one's id instead: ` +
        `${listed(byName.map((s) => s.id))}.`,
    );
  }
  const recent = sessions.slice(0, LISTED_SESSIONS).map((s) => `${quoteInput(s.name)} (${s.id})`);
  throw new ToolError(
    'not_found',
    `There is no session ${quoteInput(key)} (by id or by name).` +
      (recent.length === 0 ? ' The store has no sessions yet.' : ` The most recent: ${recent.join(', ')}.`) +
      ` ${howToList}`,
  );
}

/** One session that has an id looked for without `session`, and what it holds under that id. */
export interface IdCandidate {
  readonly session: NamedSession;
  readonly descriptor: ToolDescriptor;
}

/**
 * The error for an id found in several of the sessions searched without a `session` argument: which one is meant
 * cannot be told, so none is read. Lists each candidate (session name and id, and its command line for kept
 * command output, else its source and size) and asks for `session`.
 */
export function ambiguousIdError(id: string, candidates: readonly IdCandidate[]): ToolError {
  const shown = candidates
    .slice(0, LISTED_SESSIONS)
    .map((c) => `${quoteInput(c.session.name)} (session ${c.session.id}): ${summary(c.descriptor)}`);
  const more = candidates.length > shown.length ? `; and ${candidates.length - shown.length} more` : '';
  return new ToolError(
    'invalid_argument',
    `${quoteInput(id)} is in ${candidates.length} of the recent sessions, so which one is meant is unclear: ` +
      `${shown.join('; ')}${more}. Call again with session set to the id (or name) of the one to read.`,
    id,
  );
}

/** `$ npm test (exit 1, 12,345 characters)` for kept command output, else `tool_output (read_fd), 1,234 characters`. */
function summary(descriptor: ToolDescriptor): string {
  const length = descriptor.content.length;
  const chars = `${length.toLocaleString('en-US')} character${length === 1 ? '' : 's'}`;
  const command = descriptor.command;
  if (command !== undefined) {
    const exit = command.exitCode === undefined ? '' : `exit ${command.exitCode}, `;
    return `kept terminal output of ${quoteInput(previewLine(command.commandLine, 60))} (${exit}${chars})`;
  }
  const from = descriptor.toolName ?? descriptor.extractedFrom;
  return `${descriptor.source}${from === undefined ? '' : ` (${from})`}, ${chars}`;
}

function listed(ids: readonly string[]): string {
  const shown = ids.slice(0, LISTED_SESSIONS).join(', ');
  return ids.length > LISTED_SESSIONS ? `${shown} and ${ids.length - LISTED_SESSIONS} more` : shown;
}
