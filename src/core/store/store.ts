/**
 * The session store: one folder shared by every process that works on a workspace's sessions (VS Code
 * windows, MCP servers). Each session is a folder of its own (see layout.ts); any process reads any session,
 * and the one holding a session's lease appends to it. Listing reads metadata only.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorCode, errorMessage, isNotFound } from '../errors';
import { SESSION_ID } from '../files/fdrefPaths';
import type { SessionOrigin } from '../session/sessionRecord';
import { syncFolder, tempNameFor, type Durability } from './atomicFile';
import { JournalAppender, type JournalRepair } from './journal';
import { checkStoreFolder } from './storeFile';
import { contentFolderOf, journalOf, SESSIONS_FOLDER, TRASH_FOLDER } from './layout';
import { acquireLease, SessionBusyError } from './lease';
import { readMeta, updateMeta, withMetaLock, writeMeta, type StoredSessionMeta } from './meta';
import { STORE_VERSION } from './records';
import { DEFAULT_DURABILITY, prepareStoreFolder } from './storeFolder';
import { SessionReader } from './sessionReader';
import { InvalidRecordError, noChange, SessionState } from './sessionState';
import { SessionWriter, type SessionRepair } from './sessionWriter';
import { ContentCache, DEFAULT_CACHE_BYTES } from './storedContent';

export interface StoreOptions {
  /** Default `fsync`: a completed change survives a power cut, not only a killed process. */
  readonly durability?: Durability;
  /** Memory for contents read from the store (texts, indexes, page tables); default 64 MiB. */
  readonly cacheBytes?: number;
  /** The clock for `createdAt` of new sessions. */
  readonly now?: () => Date;
}

export interface NewSession {
  readonly name: string;
  readonly origin: SessionOrigin;
  /** Default: now. */
  readonly createdAt?: string;
  /** Whether the session has a chat (default false). */
  readonly chat?: boolean;
  readonly pinned?: boolean;
  /** Default: a new random id; a migrated session keeps its own. */
  readonly id?: string;
}

/**
 * What `deleteIfIdle` did: removed the session, or found none, or kept it because it is pinned or because a
 * writer (of this process or another) holds it.
 */
export type IdleDeletion = 'removed' | 'missing' | 'pinned' | 'busy';

/** A session folder whose metadata could not be read. */
export interface UnreadableSession {
  readonly id: string;
  readonly reason: string;
}

export class Store {
  readonly cache: ContentCache;
  private readonly writers = new Map<string, Promise<SessionWriter>>();

  private constructor(
    readonly root: string,
    readonly durability: Durability,
    cacheBytes: number,
    private readonly now: () => Date,
  ) {
    this.cache = new ContentCache(cacheBytes);
  }

  /** Opens (creating when missing) the store in `root`; refuses one written by a later layout version. */
  static async open(root: string, options: StoreOptions = {}): Promise<Store> {
    const store = new Store(
      path.resolve(root),
      options.durability ?? DEFAULT_DURABILITY,
      options.cacheBytes ?? DEFAULT_CACHE_BYTES,
      options.now ?? (() => new Date()),
    );
    await prepareStoreFolder(store);
    return store;
  }

  get sessionsFolder(): string {
    return path.join(this.root, SESSIONS_FOLDER);
  }

  get trashFolder(): string {
    return path.join(this.root, TRASH_FOLDER);
  }

  sessionFolder(id: string): string {
    if (!SESSION_ID.test(id)) throw new Error(`${JSON.stringify(id.slice(0, 80))} is not a session id.`);
    return path.join(this.sessionsFolder, id);
  }

  /** The ids of the session folders (not the ones being created or removed). */
  async sessionIds(): Promise<string[]> {
    const names = await fs.readdir(this.sessionsFolder);
    return names.filter((name) => SESSION_ID.test(name)).sort();
  }

  /** Every session's metadata, most recently created first; reads nothing else. */
  async list(): Promise<{ sessions: StoredSessionMeta[]; unreadable: UnreadableSession[] }> {
    const sessions: StoredSessionMeta[] = [];
    const unreadable: UnreadableSession[] = [];
    await inBatches(await this.sessionIds(), 32, async (id) => {
      try {
        const meta = await readMeta(this.sessionFolder(id));
        if (meta === undefined) return; // removed meanwhile
        if (meta.id !== id) throw new Error(`the folder holds session ${meta.id}`);
        sessions.push(meta);
      } catch (error) {
        unreadable.push({ id, reason: errorMessage(error) });
      }
    });
    sessions.sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
    return { sessions, unreadable };
  }

  /** One session's metadata, reading nothing else; undefined when there is none. */
  meta(id: string): Promise<StoredSessionMeta | undefined> {
    return readMeta(this.sessionFolder(id));
  }

  /** Reads a session (metadata and journal; content on demand); undefined when there is none. */
  read(id: string): Promise<SessionReader | undefined> {
    return SessionReader.open(this.sessionFolder(id), this.cache);
  }

  /**
   * Creates a session and returns its writer. The session is built in a temporary folder (by `fill`, when
   * given) and appears whole, by one rename, or not at all.
   */
  async create(input: NewSession, fill?: (writer: SessionWriter) => Promise<void>): Promise<SessionWriter> {
    for (;;) {
      const id = input.id ?? randomBytes(4).toString('hex');
      const final = this.sessionFolder(id);
      if (await exists(final)) {
        if (input.id !== undefined) throw new Error(`Session ${id} already exists.`);
        continue;
      }
      const meta: StoredSessionMeta = {
        id,
        name: input.name,
        createdAt: input.createdAt ?? this.now().toISOString(),
        origin: input.origin,
        pinned: input.pinned ?? false,
        chat: input.chat ?? false,
      };
      const temp = path.join(this.sessionsFolder, tempNameFor(id));
      await fs.mkdir(contentFolderOf(temp), { recursive: true });
      let writer: SessionWriter | undefined;
      try {
        await writeMeta(temp, meta, this.durability);
        const lease = await acquireLease(temp, id);
        const state = new SessionState();
        const header = { t: 'journal', v: STORE_VERSION, session: id, gen: randomBytes(6).toString('hex') } as const;
        state.apply(header, noChange());
        const appender = await JournalAppender.create(journalOf(temp), [header], this.durability);
        writer = new SessionWriter(temp, id, appender, lease, state, this.cache, this.durability, () =>
          this.writers.delete(id),
        );
        if (fill) await fill(writer);
        await writer.moveTo(
          final,
          async (folder) => (await JournalAppender.open(journalOf(folder), this.durability)).appender,
        );
      } catch (error) {
        await writer?.close().catch(() => undefined);
        await fs.rm(temp, { recursive: true, force: true });
        const code = errorCode(error);
        if (input.id === undefined && (code === 'ENOTEMPTY' || code === 'EEXIST')) continue; // the same new id, made meanwhile
        throw error;
      }
      await syncFolder(this.sessionsFolder, this.durability);
      this.writers.set(id, Promise.resolve(writer));
      return writer;
    }
  }

  /**
   * The writer of an existing session: takes its lease (over a dead owner's, cutting off a record the owner
   * left half written). Rejects with `SessionBusyError` while another live process writes it.
   */
  openWriter(id: string): Promise<SessionWriter> {
    let opening = this.writers.get(id);
    if (!opening) {
      opening = this.startWriter(id);
      this.writers.set(id, opening);
      opening.catch(() => this.writers.delete(id));
    }
    return opening;
  }

  /** Renames a session (whoever writes it). */
  async rename(id: string, name: string): Promise<StoredSessionMeta> {
    return (await updateMeta(this.sessionFolder(id), (meta) => ({ ...meta, name }), this.durability)).after;
  }

  /** Pins a session (retention never removes it) or unpins it. */
  async setPinned(id: string, pinned: boolean): Promise<StoredSessionMeta> {
    return (await updateMeta(this.sessionFolder(id), (meta) => ({ ...meta, pinned }), this.durability)).after;
  }

  /** Removes a session: it leaves the listing at once (one rename), its files are removed after. False when there was none. */
  async delete(id: string): Promise<boolean> {
    const writer = this.writers.get(id);
    if (writer) await (await writer.catch(() => undefined))?.close();
    const trash = path.join(this.trashFolder, `${id}.${randomBytes(6).toString('hex')}`);
    try {
      await fs.rename(this.sessionFolder(id), trash);
    } catch (error) {
      if (isNotFound(error)) return false;
      throw error;
    }
    await syncFolder(this.sessionsFolder, this.durability);
    await fs.rm(trash, { recursive: true, force: true });
    return true;
  }

  /**
   * Removes a session unless it is pinned or being written: what retention and clearing by the user do. A listing
   * read a moment ago may be stale (an agent's command wrapper takes a session's lease only for the moment of
   * adding its output), so the session's lease is taken first: a writer there now keeps it, and one coming after
   * finds no session and makes a new one. Its metadata's write lock is held too, so a pin arriving meanwhile is
   * seen here, or waits and then finds nothing to pin. This store's own writers are never closed for it.
   * `evenIfPinned`: a pinned session goes too (a person picked it knowing it was pinned).
   */
  async deleteIfIdle(id: string, options: { readonly evenIfPinned?: boolean } = {}): Promise<IdleDeletion> {
    if (this.writers.has(id)) return 'busy';
    const folder = this.sessionFolder(id);
    let lease;
    try {
      lease = await acquireLease(folder, id);
    } catch (error) {
      if (error instanceof SessionBusyError) return 'busy';
      if (isNotFound(error)) return 'missing';
      throw error;
    }
    const trash = path.join(this.trashFolder, `${id}.${randomBytes(6).toString('hex')}`);
    try {
      const kept = await withMetaLock(folder, async (): Promise<IdleDeletion | undefined> => {
        const meta = await readMeta(folder);
        if (meta === undefined) return 'missing';
        if (meta.pinned && options.evenIfPinned !== true) return 'pinned';
        await fs.rename(folder, trash);
        return undefined;
      });
      if (kept !== undefined) return kept;
    } catch (error) {
      if (isNotFound(error)) return 'missing'; // deleted by a person meanwhile (that does not wait for the lease)
      throw error;
    } finally {
      await lease.release(); // after the rename there is no lease file left to remove
    }
    await syncFolder(this.sessionsFolder, this.durability);
    await fs.rm(trash, { recursive: true, force: true });
    return 'removed';
  }

  /** Closes every writer this store opened (their leases are given up). */
  async close(): Promise<void> {
    const writers = await Promise.all([...this.writers.values()].map((w) => w.catch(() => undefined)));
    await Promise.all(writers.map((w) => w?.close() ?? Promise.resolve()));
  }

  private async startWriter(id: string): Promise<SessionWriter> {
    const folder = this.sessionFolder(id);
    if ((await readMeta(folder)) === undefined) throw new Error(`There is no session ${id}.`);
    // The writer removes and writes files in these folders: a link planted for either must not lead elsewhere.
    await checkStoreFolder(folder);
    await checkStoreFolder(contentFolderOf(folder));
    const lease = await acquireLease(folder, id);
    try {
      const state = new SessionState();
      const change = noChange();
      let opened;
      try {
        opened = await JournalAppender.open(journalOf(folder), this.durability, (records) =>
          records.map((record) => state.applyValue(record.value, change, record.afterDamage)),
        );
      } catch (error) {
        if (error instanceof InvalidRecordError) {
          throw new Error(
            `Session ${id} holds a record this version of fdref cannot apply, so it is read-only here: ${error.message}`,
            { cause: error },
          );
        }
        throw error;
      }
      const { appender, repair } = opened;
      const writer = new SessionWriter(
        folder,
        id,
        appender,
        lease,
        state,
        this.cache,
        this.durability,
        () => this.writers.delete(id),
        repair && describeRepair(id, repair),
      );
      await writer.removeUnreferencedContent();
      // The lease was free, so whoever left a descriptor growing is gone: what it wrote is kept, marked cut off.
      await writer.completeCutOff();
      return writer;
    } catch (error) {
      await lease.release();
      throw error;
    }
  }
}

/** What a writer tells its user about a journal it repaired (see `JournalAppender.open`). */
function describeRepair(id: string, repair: JournalRepair): SessionRepair {
  const records = (n: number): string => `${n} record${n === 1 ? '' : 's'}`;
  return {
    ...repair,
    message:
      `The journal of session ${id} was damaged: ${records(repair.cutLines)} (${repair.cutBytes} bytes) did not check out and were cut, ` +
      `${records(repair.recoveredRecords)} after the damage were recovered. The journal as it was is kept in ${repair.copy}.`,
  };
}

async function exists(file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => true,
    () => false,
  );
}

/** Runs `task` for every item, at most `width` at once. */
export async function inBatches<T>(
  items: readonly T[],
  width: number,
  task: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await task(items[next++] as T);
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, worker));
}
