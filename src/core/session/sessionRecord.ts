import * as z from 'zod';
import { SESSION_ID } from '../files/fdrefPaths';
import { describeIssues } from '../tools/schemas';
import { chatRecordFromJSON, type ChatRecord } from './transcript';
import { Session } from './session';

/**
 * Where a session came from: captured from text the user chose, a chat (its fields come with the chat), an
 * MCP server process (`client`: the name the MCP client gave when it connected), terminal commands kept by
 * shell integration, the language model tools VS Code's agents (Copilot) call, or the `@fdref` participant
 * in VS Code's Chat view, or an agent's own shell tool whose output fdref's command wrapper (`dist/cli.js run`) kept:
 * `agent` is the wrapper's `--agent` id, `conversation` the agent's conversation id when the hook gave one, `day`
 * the local date of a session kept per agent and day (no conversation id).
 */
export type SessionOrigin =
  | { readonly kind: 'capture'; /** Local date `YYYY-MM-DD` of the capture session. */ readonly day?: string }
  | { readonly kind: 'chat'; readonly [key: string]: unknown }
  | { readonly kind: 'mcp'; readonly client: string }
  | { readonly kind: 'terminal'; /** Local date `YYYY-MM-DD` of the commands kept. */ readonly day?: string }
  | { readonly kind: 'lmTools' }
  | { readonly kind: 'participant' }
  | {
      readonly kind: 'agentShell';
      readonly agent: string;
      readonly conversation?: string;
      /** Local date `YYYY-MM-DD`, for a session kept per agent and day. */
      readonly day?: string;
    };

/** The origins a session of one local day is kept under (one such session per day and window). */
export type DayOriginKind = 'capture' | 'terminal';

/** What the extension knows about a session besides its descriptors. */
export interface SessionMetadata {
  readonly id: string;
  readonly name: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly origin: SessionOrigin;
}

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .optional();

const origin = z.union([
  z.strictObject({ kind: z.literal('capture'), day }),
  z.looseObject({ kind: z.literal('chat') }),
  z.strictObject({ kind: z.literal('mcp'), client: z.string() }),
  z.strictObject({ kind: z.literal('terminal'), day }),
  z.strictObject({ kind: z.literal('lmTools') }),
  z.strictObject({ kind: z.literal('participant') }),
  z.strictObject({ kind: z.literal('agentShell'), agent: z.string(), conversation: z.string().optional(), day }),
]);

const savedRecord = z.strictObject({
  format: z.literal('fdref.sessionRecord'),
  version: z.literal(1),
  id: z.string().regex(SESSION_ID, { message: 'is not a valid session id' }),
  name: z.string(),
  createdAt: z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO date' }),
  origin,
  session: z.unknown(),
  /** The messages of a chat session. */
  chat: z.unknown().optional(),
});

/** The JSON data of one session file: metadata and `session.toJSON()`. */
export function sessionRecordToJSON(metadata: SessionMetadata, session: Session, chat?: ChatRecord): unknown {
  return {
    format: 'fdref.sessionRecord',
    version: 1,
    id: metadata.id,
    name: metadata.name,
    createdAt: metadata.createdAt,
    origin: metadata.origin,
    session: session.toJSON(),
    ...(chat === undefined ? {} : { chat }),
  };
}

/** Like `sessionRecordToJSON`, reading the contents of a session opened from the store (`Session.toJSONWhole`). */
export async function sessionRecordToJSONWhole(
  metadata: SessionMetadata,
  session: Session,
  chat?: ChatRecord,
): Promise<unknown> {
  return { ...(sessionRecordToJSON(metadata, new Session(), chat) as object), session: await session.toJSONWhole() };
}

/** Reads a session file's data back; throws an Error saying what is wrong when it is not a valid record. */
export function sessionRecordFromJSON(data: unknown): {
  metadata: SessionMetadata;
  session: Session;
  chat?: ChatRecord;
} {
  const parsed = savedRecord.safeParse(data);
  if (!parsed.success) throw new Error(`Invalid session file: ${describeIssues(parsed.error)}`);
  const record = parsed.data;
  const session = Session.fromJSON(record.session);
  const metadata = {
    id: record.id,
    name: record.name,
    createdAt: record.createdAt,
    origin: sessionOrigin(record.origin),
  };
  return record.chat === undefined
    ? { metadata, session }
    : { metadata, session, chat: chatRecordFromJSON(record.chat) };
}

/** The parsed origin as a `SessionOrigin` (an absent day is left out, not kept as undefined). */
function sessionOrigin(parsed: z.output<typeof origin>): SessionOrigin {
  switch (parsed.kind) {
    case 'capture':
    case 'terminal':
      return parsed.day === undefined ? { kind: parsed.kind } : { kind: parsed.kind, day: parsed.day };
    case 'mcp':
      return { kind: 'mcp', client: parsed.client };
    case 'lmTools':
    case 'participant':
      return { kind: parsed.kind };
    case 'agentShell':
      return {
        kind: 'agentShell',
        agent: parsed.agent,
        ...(parsed.conversation === undefined ? {} : { conversation: parsed.conversation }),
        ...(parsed.day === undefined ? {} : { day: parsed.day }),
      };
    default:
      return { ...parsed, kind: 'chat' };
  }
}
