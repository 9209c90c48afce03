/**
 * A session's metadata file (`meta.json`): what a listing shows, small, replaced whole. Anyone may rename or
 * pin a session: the change holds the file's write lock for the moment of one read and one atomic write.
 */
import * as path from 'node:path';
import * as z from 'zod';
import { nodeFileSystem } from '../files/fileSystemPort';
import { acquireWriteLock } from '../files/writeLock';
import { sessionRecordFromJSON, type SessionMetadata } from '../session/sessionRecord';
import { describeIssues } from '../tools/schemas';
import { readFileIfExists, writeFileAtomic, type Durability } from './atomicFile';
import { STORE_VERSION } from './records';

export const META_FILE = 'meta.json';

/** What the store keeps about a session besides its content and journal. */
export interface StoredSessionMeta extends SessionMetadata {
  /** Retention never removes a pinned session. */
  readonly pinned: boolean;
  /** Whether the session has a chat (its messages are in the journal). */
  readonly chat: boolean;
}

const savedMeta = z.looseObject({
  format: z.literal('fdref.storeSession'),
  version: z.literal(STORE_VERSION),
  pinned: z.boolean(),
  chat: z.boolean(),
});

/** An empty saved session: metadata is checked by the session record's own rules (one home for them). */
const EMPTY_SESSION = { format: 'fdref.session', version: 1, nextFd: 1, contents: [], descriptors: [], refs: [] };

export function metaToJSON(meta: StoredSessionMeta): unknown {
  return {
    format: 'fdref.storeSession',
    version: STORE_VERSION,
    id: meta.id,
    name: meta.name,
    createdAt: meta.createdAt,
    origin: meta.origin,
    pinned: meta.pinned,
    chat: meta.chat,
  };
}

/** Reads metadata back; throws an Error saying what is wrong. */
export function metaFromJSON(data: unknown): StoredSessionMeta {
  const parsed = savedMeta.safeParse(data);
  if (!parsed.success) throw new Error(`Invalid session metadata: ${describeIssues(parsed.error)}`);
  const { id, name, createdAt, origin } = parsed.data;
  const { metadata } = sessionRecordFromJSON({
    format: 'fdref.sessionRecord',
    version: 1,
    id,
    name,
    createdAt,
    origin,
    session: EMPTY_SESSION,
  });
  return { ...metadata, pinned: parsed.data.pinned, chat: parsed.data.chat };
}

/** The metadata of the session in `folder`; undefined when the file is missing. */
export async function readMeta(folder: string): Promise<StoredSessionMeta | undefined> {
  const bytes = await readFileIfExists(path.join(folder, META_FILE));
  return bytes === undefined ? undefined : metaFromJSON(JSON.parse(bytes.toString('utf8')));
}

export function writeMeta(folder: string, meta: StoredSessionMeta, durability: Durability): Promise<void> {
  return writeFileAtomic(path.join(folder, META_FILE), JSON.stringify(metaToJSON(meta)), durability);
}

/**
 * Runs `task` holding the metadata's write lock: a rename or pin holds it for one read and one write, and removing
 * a session for its last check and rename, so that neither is lost to the other.
 */
export async function withMetaLock<T>(folder: string, task: () => Promise<T>): Promise<T> {
  const lock = await acquireWriteLock({
    fileSystem: nodeFileSystem,
    folder,
    target: path.join(folder, META_FILE),
    waitMs: 5_000,
    label: 'session metadata',
  });
  try {
    return await task();
  } finally {
    await lock.release(); // when the task moved the folder away, its lock file went with it: nothing to remove
  }
}

/** Reads, changes and writes the metadata under its write lock, so that two renames at once both land in order. */
export function updateMeta(
  folder: string,
  change: (meta: StoredSessionMeta) => StoredSessionMeta,
  durability: Durability,
): Promise<{ before: StoredSessionMeta; after: StoredSessionMeta }> {
  return withMetaLock(folder, async () => {
    const before = await readMeta(folder);
    if (before === undefined) throw new Error(`There is no session metadata at ${path.join(folder, META_FILE)}.`);
    const after = change(before);
    await writeMeta(folder, after, durability);
    return { before, after };
  });
}
