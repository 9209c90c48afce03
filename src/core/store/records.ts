/** The records a session's journal holds, as zod schemas: each is checked when read, whatever wrote it. */
import * as z from 'zod';
import { descriptorDetailsShape } from '../descriptors/descriptorDetails';
import { MAX_NEXT_FD } from '../descriptors/descriptorTable';
import { REF_ID } from '../ids';
import { STORE_VERSION } from './layout';

export { STORE_VERSION };

const isoDate = z.string().refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO date' });
const count = z.number().int().nonnegative();

/**
 * Where a content is and what a listing needs to know about it without opening it. Content files are named
 * by the first 128 bits of the SHA-256 of their bytes; `utf16le` holds text that UTF-8 cannot (lone surrogates).
 */
export const contentRef = z.strictObject({
  h: z.string().regex(/^[0-9a-f]{32}$/),
  enc: z.enum(['utf8', 'utf16le']),
  chars: count,
  bytes: count,
  lines: count,
});
export type ContentRef = z.infer<typeof contentRef>;

const journalHeader = z.strictObject({
  t: z.literal('journal'),
  v: z.literal(STORE_VERSION),
  session: z.string(),
  gen: z.string(),
});

const fdRecord = z.strictObject({
  t: z.literal('fd'),
  n: z
    .number()
    .int()
    .positive()
    .max(MAX_NEXT_FD - 1),
  source: z.enum(['tool_output', 'user_input', 'reference', 'extract']),
  ...descriptorDetailsShape,
  createdAt: isoDate,
  c: contentRef,
});

/** The name of a growing content's file in the content folder (it is renamed to its hash once complete). */
export const GROWING_FILE = /^grow-\d+-[0-9a-f]{12}\.txt$/;

/**
 * A descriptor whose content is still being written (a long command's output): it takes its number now and
 * points at a file that only grows, in UTF-8. Its size is given by the `grew` records that follow; an `fd`
 * record of the same number completes it (the content under its hash, as any other). One that never completes
 * was cut off (its writer stopped mid-run).
 */
const fdStartRecord = z.strictObject({
  t: z.literal('fdStart'),
  n: fdRecord.shape.n,
  source: fdRecord.shape.source,
  ...descriptorDetailsShape,
  createdAt: isoDate,
  file: z.string().regex(GROWING_FILE),
  /** The process (group) writing it, for a person to see. */
  pid: z.number().int().positive().optional(),
});

/** A growing descriptor's file holds at least this much, whole characters, written (and flushed) before the record. */
const fdGrewRecord = z.strictObject({
  t: z.literal('grew'),
  n: fdRecord.shape.n,
  chars: count,
  bytes: count,
  lines: count,
});

const refRecord = z.strictObject({
  t: z.literal('ref'),
  id: z.string().regex(REF_ID),
  /** The version this record makes (1 for the first); a record out of order is refused. */
  v: z.number().int().positive(),
  createdAt: isoDate,
  language: z.string().optional(),
  c: contentRef,
});

/** The fd counter, when it is not one past the highest descriptor (a fork at an earlier message, a migrated session). */
const counterRecord = z.strictObject({ t: z.literal('counter'), nextFd: z.number().int().positive().max(MAX_NEXT_FD) });

/** A chat message, added or replaced as a whole (matched by `id`). */
const messageRecord = z.strictObject({
  t: z.literal('message'),
  m: z.looseObject({ id: z.string() }),
  /** A user message paged into a descriptor keeps its text there once: `m.text` is then '' and this names the fd. */
  textFd: z.string().optional(),
});
/** A message too large for a record, in a content file of its own (its JSON text). */
const messageFileRecord = z.strictObject({ t: z.literal('messageFile'), id: z.string(), c: contentRef });
/** Removes the message `from` and every message after it (a user edited an earlier message). */
const truncateRecord = z.strictObject({ t: z.literal('truncate'), from: z.string() });
/** The chat's model choice; null clears it. */
const modelRecord = z.strictObject({ t: z.literal('model'), model: z.string().nullable() });

export const journalRecord = z.discriminatedUnion('t', [
  journalHeader,
  fdRecord,
  fdStartRecord,
  fdGrewRecord,
  refRecord,
  counterRecord,
  messageRecord,
  messageFileRecord,
  truncateRecord,
  modelRecord,
]);
export type JournalEntry = z.infer<typeof journalRecord>;
export type FdEntry = z.infer<typeof fdRecord>;
export type FdStartEntry = z.infer<typeof fdStartRecord>;
export type RefEntry = z.infer<typeof refRecord>;

/** Messages whose JSON is longer than this go to a content file; the journal stays small enough to read whole. */
export const INLINE_MESSAGE_BYTES = 64 * 1024;
