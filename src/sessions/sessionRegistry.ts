import * as vscode from 'vscode';
import type { ExtractResult } from '../core';
import { Session } from '../core';
import {
  applyRetention,
  leaseStatus,
  SessionBusyError,
  SessionSync,
  storeUsage,
  watchStore,
  type SessionReader,
  type SessionWriter,
  type Store,
  type StoreChange,
  type StoredDescriptor,
  type StoredSessionMeta,
  type StoreUsage,
  type StoreWatcher,
} from '../core/store';
import type { StoredContent } from '../core/store/storedContent';
import type { DayOriginKind, SessionOrigin } from '../core/session/sessionRecord';
import type { ChatRecord } from '../core/session/transcript';
import { errorMessage, UserError } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';
import type { SessionChange, SessionEntry } from './sessionEntry';
import type { SessionStore } from './sessionStore';

/** A descriptor and the session it was found in, read from the store (content on demand). */
export interface FoundDescriptor {
  readonly session: StoredSessionMeta;
  readonly reader: SessionReader;
  readonly descriptor: StoredDescriptor;
}

/** The retention limits to apply (undefined: no limit). */
export interface RetentionLimits {
  readonly maxDays?: number;
  readonly maxBytes?: number;
}

/** What each day session is called, before its day. */
const DAY_SESSION_NAMES: Record<DayOriginKind, string> = { capture: 'Captured', terminal: 'Terminal' };

/** Content being written into a session as it arrives (`SessionRegistry.streamInto`). */
export interface StreamedContent {
  write(piece: string): Promise<void>;
  /** Finishes the content and gives it, stored, to add as a descriptor. */
  seal(): Promise<StoredContent>;
  /** Removes what was written; nothing points at it. */
  abort(): Promise<void>;
}

/** A session this window holds in memory, with its writer unless another process writes it. */
interface LiveSession {
  entry: SessionEntry;
  readonly writer: SessionWriter | undefined;
  readonly sync: SessionSync | undefined;
}

/**
 * The workspace's sessions, kept in the session store (`src/core/store`). Listing reads metadata only; the
 * tree, the `fdref:` files, hovers and commands read a session through its `SessionReader` (its journal, content
 * when used). A session this window works on (a chat panel, captured refs) is held in memory with the store's
 * writer and saved by difference after every change. Changes other processes make are followed (`watchStore`) and
 * announced on `onDidChange` like this window's own.
 */
export class SessionRegistry extends Disposable {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<SessionChange>());
  readonly onDidChange = this.changeEmitter.event;

  private opened: Promise<Store> | undefined;
  private store: Store | undefined;
  private watcher: StoreWatcher | undefined;
  private readonly metas = new Map<string, StoredSessionMeta>();
  private readonly readers = new Map<string, Promise<SessionReader | undefined>>();
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, Promise<LiveSession | undefined>>();
  /** Sessions being released: opened again only once their writer is closed. */
  private readonly releasing = new Map<string, Promise<void>>();
  /** The order this window created sessions in, so that of two made in one millisecond the later leads. */
  private readonly createdOrder = new Map<string, number>();
  /** Sessions asked for by id (a chat panel being restored): retention leaves them. */
  private readonly wanted = new Set<string>();
  private readonly keepers: ((id: string) => boolean)[] = [];
  private retention: Promise<string[]> | undefined;
  private closed = false;

  constructor(
    private readonly location: SessionStore,
    private readonly messages: UserMessages,
    private readonly limits: () => RetentionLimits = () => ({}),
  ) {
    super();
    this._register({ dispose: () => void this.close() });
  }

  /** The store's folder (what an MCP server is started with as `--store`). */
  get storeFolder(): string {
    return this.location.root;
  }

  /** Every session's metadata, most recently created first (nothing else is read). */
  async list(): Promise<StoredSessionMeta[]> {
    await this.ready();
    return [...this.metas.values()].sort(
      (a, b) =>
        b.createdAt.localeCompare(a.createdAt) ||
        (this.createdOrder.get(b.id) ?? 0) - (this.createdOrder.get(a.id) ?? 0) ||
        a.id.localeCompare(b.id),
    );
  }

  /** One session's metadata; undefined when there is none. */
  async meta(id: string): Promise<StoredSessionMeta | undefined> {
    await this.ready();
    return this.metas.get(id);
  }

  /** The session as stored (journal read, content read when used); undefined when there is none or it cannot be read. */
  async reader(id: string): Promise<SessionReader | undefined> {
    const store = await this.ready();
    if (!this.metas.has(id)) return undefined;
    let reader = this.readers.get(id);
    if (!reader) {
      reader = store.read(id).catch((error: unknown) => {
        this.readers.delete(id);
        this.messages.log.warn(`FD Refs could not read session ${id}: ${errorMessage(error)}`);
        return undefined;
      });
      this.readers.set(id, reader);
    }
    return reader;
  }

  /** `fd:N`, `ref:x` or `ref:x@n` in the most recently created session that has it. */
  async findDescriptor(id: string): Promise<FoundDescriptor | undefined> {
    for (const session of await this.list()) {
      const reader = await this.reader(session.id);
      const descriptor = reader?.lookup(id);
      if (reader && descriptor) return { session, reader, descriptor };
    }
    return undefined;
  }

  /**
   * The session held in memory to work on (a chat), opened from the store the first time: its journal and chat
   * messages are read, its descriptors and refs keep their stored content, read when used. It is read-only
   * (`readOnly` says why) when another live process writes it. Undefined when there is no such session.
   */
  async get(id: string): Promise<SessionEntry | undefined> {
    this.wanted.add(id);
    return (await this.openLive(id, false))?.entry;
  }

  async create(name: string, origin: SessionOrigin, session = new Session(), chat?: ChatRecord): Promise<SessionEntry> {
    const store = await this.ready();
    let sync: SessionSync | undefined;
    // Written whole before it appears (a fork may carry much): other windows never see half of it.
    const writer = await store.create({ name, origin, chat: chat !== undefined }, async (building) => {
      sync = new SessionSync(building);
      await sync.sync(session, chat);
    });
    const meta = await store.meta(writer.id);
    if (!meta || !sync) throw new Error(`The new session ${writer.id} could not be read back.`);
    const { pinned: _pinned, chat: _hasChat, ...metadata } = meta;
    const entry: SessionEntry = chat === undefined ? { metadata, session } : { metadata, session, chat };
    this.live.set(meta.id, { entry, writer, sync });
    this.createdOrder.set(meta.id, this.createdOrder.size + 1);
    this.announceAdded(meta);
    return entry;
  }

  /**
   * The session of `kind` (captured refs, kept terminal output) for the given local day that this window can
   * write, created when there is none: a day's session another window writes is left to it, and this window gets
   * one of its own.
   */
  async daySession(kind: DayOriginKind, day: string): Promise<SessionEntry> {
    const sessions = (await this.list()).filter((m) => m.origin.kind === kind && m.origin.day === day);
    for (const meta of sessions) {
      const live = await this.openLive(meta.id, true);
      if (live?.writer) return live.entry;
    }
    return this.create(`${DAY_SESSION_NAMES[kind]} ${day}`, { kind, day });
  }

  /**
   * A content written into a session this window writes, piece by piece as it arrives (command output): nothing
   * but the current piece is held in memory. `seal()` gives the stored content to add as a descriptor
   * (`Session.addDescriptor`, then `changed`); `abort()` removes what was written. A `UserError` when this window
   * cannot write the session.
   */
  streamInto(sessionId: string): StreamedContent {
    const live = this.live.get(sessionId);
    if (!live?.writer) throw new UserError(`FD Refs cannot write session ${sessionId} in this window.`);
    const writer = live.writer;
    const sink = writer.createSink();
    return {
      write: (piece) => sink.write(piece),
      abort: () => sink.abort(),
      seal: async () => writer.content((await sink.seal()).ref),
    };
  }

  /** Registers the refs in `text` in a session and saves it when any were found. */
  async ingest(sessionId: string, text: string): Promise<ExtractResult> {
    const live = await this.openLive(sessionId, false);
    if (!live) throw new UserError(`There is no FD Refs session with id ${sessionId}.`);
    if (!live.writer)
      throw new UserError(`FD Refs cannot add refs to "${live.entry.metadata.name}": ${live.entry.readOnly}`);
    const result = live.entry.session.ingestAssistantMessage(text);
    if (result.refs.length > 0) await this.changed(sessionId, { refIds: result.refs.map((r) => r.id) });
    return result;
  }

  /**
   * Saves what changed in a session held in memory (only the change is written) and says what changed to the
   * listeners. Does nothing for a session this window cannot write.
   */
  async changed(sessionId: string, change?: { refIds?: readonly string[]; descriptors?: boolean }): Promise<void> {
    const live = this.live.get(sessionId);
    if (!live?.sync) return; // deleted meanwhile, or read-only here: nothing to save
    let written;
    try {
      written = await live.sync.sync(live.entry.session, live.entry.chat);
    } catch (error) {
      if (this.live.get(sessionId) !== live) return; // deleted meanwhile
      void this.messages.error(`FD Refs could not save session "${live.entry.metadata.name}": ${errorMessage(error)}`);
      return;
    }
    await this.refreshReader(sessionId);
    const refIds = new Set([...(change?.refIds ?? []), ...written.refIds]);
    if (refIds.size > 0) this.changeEmitter.fire({ kind: 'refsChanged', sessionId, refIds: [...refIds] });
    if (change?.descriptors === true || written.descriptors.length > 0)
      this.changeEmitter.fire({ kind: 'descriptorsChanged', sessionId });
  }

  async rename(sessionId: string, name: string): Promise<StoredSessionMeta> {
    const store = await this.ready();
    const before = await this.require(sessionId);
    const after = await store.rename(sessionId, name);
    this.metas.set(sessionId, after);
    const live = this.live.get(sessionId);
    if (live) live.entry = { ...live.entry, metadata: { ...live.entry.metadata, name } };
    this.changeEmitter.fire({ kind: 'renamed', sessionId, previousName: before.name });
    return after;
  }

  /** Pins a session (retention never removes it) or unpins it. */
  async setPinned(sessionId: string, pinned: boolean): Promise<StoredSessionMeta> {
    const store = await this.ready();
    await this.require(sessionId);
    const after = await store.setPinned(sessionId, pinned);
    this.metas.set(sessionId, after);
    this.changeEmitter.fire({ kind: 'pinned', sessionId, pinned });
    return after;
  }

  /** Removes a session; refused while another process writes it (its window would lose what it does next). */
  async delete(sessionId: string): Promise<void> {
    const store = await this.ready();
    const meta = await this.require(sessionId);
    const live = this.live.get(sessionId);
    if (!live?.writer) {
      // A chat panel of this window that just closed may still be giving the lease up: that is not another holder.
      await this.releasing.get(sessionId);
      // Only this session's lease is read: what deleting costs does not grow with the store.
      if ((await leaseStatus(store.sessionFolder(sessionId)))?.live === true)
        throw new UserError(
          `Session "${meta.name}" is open in another window or agent; close it there, then delete it.`,
        );
    }
    this.live.delete(sessionId);
    await live?.sync?.sync(live.entry.session, live.entry.chat).catch(() => undefined);
    await store.delete(sessionId);
    this.announceRemoved(sessionId);
  }

  /** Saves a session held in memory one last time and gives up its writer (its chat panel closed). */
  release(sessionId: string): Promise<void> {
    this.wanted.delete(sessionId);
    const live = this.live.get(sessionId);
    if (!live) return this.releasing.get(sessionId) ?? Promise.resolve();
    this.live.delete(sessionId);
    const done = (async () => {
      try {
        await live.sync?.sync(live.entry.session, live.entry.chat);
      } catch (error) {
        void this.messages.error(
          `FD Refs could not save session "${live.entry.metadata.name}": ${errorMessage(error)}`,
        );
      }
      await live.writer?.close().catch(() => undefined);
    })();
    this.releasing.set(sessionId, done);
    void done.then(() => {
      if (this.releasing.get(sessionId) === done) this.releasing.delete(sessionId);
    });
    return done;
  }

  /** Whether this window holds the session to write it (a chat panel, captured refs). */
  holds(sessionId: string): boolean {
    return this.live.get(sessionId)?.writer !== undefined;
  }

  /** Keeps the sessions `keep` says yes to from retention (the open chat panels). */
  keepSessions(keep: (id: string) => boolean): vscode.Disposable {
    this.keepers.push(keep);
    return new vscode.Disposable(() => this.keepers.splice(this.keepers.indexOf(keep), 1));
  }

  /**
   * Reads the listing and every session read so far again (another process's changes appear by themselves; this
   * is the "Refresh" button). Sessions held in memory stay as they are: this window writes them.
   */
  async reload(): Promise<void> {
    const store = await this.ready();
    await this.watcher?.check();
    await this.relist(store);
    await Promise.all([...this.readers.keys()].map((id) => this.refreshReader(id)));
    this.changeEmitter.fire({ kind: 'reloaded' });
  }

  /** The store's size and each session's. */
  async usage(): Promise<StoreUsage> {
    return storeUsage(await this.ready());
  }

  /**
   * Removes the sessions past the retention limits, unchanged longest first: never a pinned one, one this window
   * holds or shows, or one another process has open. Resolves to the ids removed.
   */
  applyRetention(): Promise<string[]> {
    const run = async (): Promise<string[]> => {
      const store = await this.ready();
      const { maxDays, maxBytes } = this.limits();
      if (maxDays === undefined && maxBytes === undefined) return [];
      const { removed } = await applyRetention(store, {
        ...(maxDays === undefined ? {} : { maxDays }),
        ...(maxBytes === undefined ? {} : { maxBytes }),
        keep: (id) => this.keeps(id),
      });
      for (const id of removed) this.announceRemoved(id);
      if (removed.length > 0)
        this.messages.log.info(`Removed ${removed.length} session(s) past the fdref.sessions retention limits.`);
      return removed;
    };
    const next = (this.retention ?? Promise.resolve([])).then(run, run);
    this.retention = next.catch(() => []);
    return next;
  }

  /** Saves every session held in memory, gives up their writers and stops following the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.watcher?.dispose();
    await Promise.all([...this.live.keys()].map((id) => this.release(id)));
    await this.store?.close();
  }

  private keeps(id: string): boolean {
    return this.live.has(id) || this.opening.has(id) || this.wanted.has(id) || this.keepers.some((keep) => keep(id));
  }

  private async require(sessionId: string): Promise<StoredSessionMeta> {
    const meta = await this.meta(sessionId);
    if (!meta) throw new UserError(`There is no FD Refs session with id ${sessionId}.`);
    return meta;
  }

  private ready(): Promise<Store> {
    // A failed opening is not kept: the next use tries again.
    return (this.opened ??= this.open().catch((error: unknown) => {
      this.opened = undefined;
      throw error;
    }));
  }

  private async open(): Promise<Store> {
    const { store, migration } = await this.location.open();
    for (const { file, reason } of migration.failed) {
      void this.messages.warn(
        `FD Refs could not convert the session file ${file} (${reason}). It was left in place; the other sessions loaded.`,
      );
    }
    if (migration.migrated.length > 0)
      this.messages.log.info(`Converted ${migration.migrated.length} session file(s) into the session store.`);
    this.store = store;
    await this.relist(store);
    if (this.closed) return store;
    this.watcher = watchStore(store, (change) => {
      this.onStoreChange(change).catch((error: unknown) =>
        this.messages.log.warn(
          `FD Refs could not follow a change of session ${change.sessionId}: ${errorMessage(error)}`,
        ),
      );
    });
    // In the background: the first listing does not wait for it.
    void this.applyRetention().catch((error: unknown) =>
      this.messages.log.warn(`FD Refs could not apply the session retention limits: ${errorMessage(error)}`),
    );
    return store;
  }

  private async relist(store: Store): Promise<void> {
    const { sessions, unreadable } = await store.list();
    const seen = new Set(sessions.map((s) => s.id));
    for (const id of this.metas.keys()) if (!seen.has(id) && !this.live.has(id)) this.forget(id);
    for (const meta of sessions) this.metas.set(meta.id, meta);
    for (const { id, reason } of unreadable)
      this.messages.log.warn(`FD Refs could not read the metadata of session ${id}: ${reason}`);
  }

  /**
   * Forgets a session that is gone and says so, once: the store's watcher may see the folder go before the deleting
   * call (this window's Delete, retention) has announced it, and both come here.
   */
  /**
   * Knows a session and says it was added, once: the store's watcher can see a session this window creates before
   * `create` has recorded it, and both come here (a fresh clone once got 'added' twice for one session).
   */
  private announceAdded(meta: StoredSessionMeta): void {
    const known = this.metas.has(meta.id);
    this.metas.set(meta.id, meta);
    if (!known) this.changeEmitter.fire({ kind: 'added', sessionId: meta.id });
  }

  private announceRemoved(id: string): void {
    const meta = this.metas.get(id);
    if (!meta) return;
    this.forget(id);
    this.changeEmitter.fire({ kind: 'removed', sessionId: id, name: meta.name });
  }

  private forget(id: string): void {
    this.metas.delete(id);
    this.readers.delete(id);
    const live = this.live.get(id);
    this.live.delete(id);
    void live?.writer?.close().catch(() => undefined);
  }

  /** Reads what was appended to a session's journal; undefined when no reader is open. */
  private async refreshReader(id: string): Promise<Awaited<ReturnType<SessionReader['refresh']>> | undefined> {
    return (await this.readers.get(id))?.refresh();
  }

  private async onStoreChange(change: StoreChange): Promise<void> {
    const store = this.store;
    if (!store || this.closed) return;
    const id = change.sessionId;
    switch (change.kind) {
      case 'added': {
        if (this.metas.has(id)) return;
        const meta = await store.meta(id);
        if (meta) this.announceAdded(meta);
        return;
      }
      case 'removed':
        this.announceRemoved(id);
        return;
      case 'meta': {
        const before = this.metas.get(id);
        const after = await store.meta(id);
        if (!before || !after) return;
        this.metas.set(id, after);
        if (after.name !== before.name) {
          const live = this.live.get(id);
          if (live) live.entry = { ...live.entry, metadata: { ...live.entry.metadata, name: after.name } };
          this.changeEmitter.fire({ kind: 'renamed', sessionId: id, previousName: before.name });
        }
        if (after.pinned !== before.pinned)
          this.changeEmitter.fire({ kind: 'pinned', sessionId: id, pinned: after.pinned });
        return;
      }
      case 'journal': {
        if (this.live.get(id)?.writer) return; // this window writes it and announced its changes itself
        const changed = await this.refreshReader(id);
        if (!changed) return;
        if (changed.refIds.size > 0)
          this.changeEmitter.fire({ kind: 'refsChanged', sessionId: id, refIds: [...changed.refIds] });
        if (changed.descriptors) this.changeEmitter.fire({ kind: 'descriptorsChanged', sessionId: id });
        return;
      }
    }
  }

  /**
   * The session held in memory, read whole from the store on first use. With `writableOnly`, a session another
   * process writes is not read (undefined); otherwise it is held read-only.
   */
  private openLive(id: string, writableOnly: boolean): Promise<LiveSession | undefined> {
    const existing = this.live.get(id);
    if (existing && (existing.writer || !writableOnly)) return Promise.resolve(existing);
    if (existing) return Promise.resolve(undefined);
    let opening = this.opening.get(id);
    if (!opening) {
      const released = this.releasing.get(id) ?? Promise.resolve();
      opening = released.then(() => this.readWhole(id, writableOnly)).finally(() => this.opening.delete(id));
      this.opening.set(id, opening);
    }
    return opening.then((live) => (live && (live.writer || !writableOnly) ? live : undefined));
  }

  private async readWhole(id: string, writableOnly: boolean): Promise<LiveSession | undefined> {
    const store = await this.ready();
    if (!this.metas.has(id)) {
      // Made by another process a moment ago: the watcher has not told yet.
      const meta = await store.meta(id).catch(() => undefined);
      if (meta === undefined) return undefined;
      if (!this.metas.has(id)) {
        this.metas.set(id, meta);
        this.changeEmitter.fire({ kind: 'added', sessionId: id });
      }
    }
    let writer: SessionWriter | undefined;
    let readOnly: string | undefined;
    try {
      writer = await store.openWriter(id);
      const repair = writer.takeRepair();
      if (repair) void this.messages.warn(`FD Refs repaired a damaged session: ${repair.message}`);
    } catch (error) {
      if (writableOnly) return undefined;
      if ((await store.meta(id).catch(() => undefined)) === undefined) return undefined;
      readOnly =
        error instanceof SessionBusyError
          ? `it is open in another window or agent (process ${error.holder?.pid ?? '?'} on ${error.holder?.host ?? '?'}), which saves it; fork the chat to continue here`
          : errorMessage(error);
    }
    try {
      // Read after taking the writer, so nothing is appended between the read and the first save.
      const reader = await store.read(id);
      if (!reader) throw new Error(`There is no session ${id}.`);
      const { metadata, session, chat } = await reader.materialize();
      const entry: SessionEntry = {
        metadata,
        session,
        ...(chat === undefined ? {} : { chat }),
        ...(readOnly === undefined ? {} : { readOnly }),
      };
      const live: LiveSession = { entry, writer, sync: writer && new SessionSync(writer) };
      if (this.metas.has(id) && !this.closed) this.live.set(id, live);
      else await writer?.close();
      return live;
    } catch (error) {
      await writer?.close().catch(() => undefined);
      throw error;
    }
  }
}
