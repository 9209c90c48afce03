import { WindowSearch } from './windowSearch';
import * as vscode from 'vscode';
import type { ExtractResult } from '../core';
import { Session } from '../core';
import {
  growsStore,
  RetentionSchedule,
  SessionSync,
  storeUsage,
  watchStore,
  type ClearResult,
  type SessionReader,
  type SessionUsage,
  type ScheduleClock,
  type Store,
  type StoreChange,
  type StoredDescriptor,
  type StoredSessionMeta,
  type StoreUsage,
  type StoreWatcher,
} from '../core/store';
import type { DayOriginKind, SessionOrigin } from '../core/session/sessionRecord';
import type { ChatRecord } from '../core/session/transcript';
import { errorMessage, UserError } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';
import type { SessionChange, SessionEntry } from './sessionEntry';
import type { SessionStore } from './sessionStore';
import { HeldSessions, type StreamedContent } from './heldSessions';
import { Retention, type RetentionLimits } from './retention';
import { followStoreChange } from './storeChanges';

export type { StreamedContent } from './heldSessions';
export type { RetentionLimits } from './retention';

/** A descriptor and the session it was found in, read from the store (content on demand). */
export interface FoundDescriptor {
  readonly session: StoredSessionMeta;
  readonly reader: SessionReader;
  readonly descriptor: StoredDescriptor;
}

/** What each day session is called, before its day. */
const DAY_SESSION_NAMES: Record<DayOriginKind, string> = { capture: 'Captured', terminal: 'Terminal' };

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
  private readonly held: HeldSessions;
  /** The order this window created sessions in, so that of two made in one millisecond the later leads. */
  private readonly createdOrder = new Map<string, number>();
  private readonly retention: Retention;
  /** Runs retention, at most once a minute, while other processes (or this window) add output to the store. */
  private readonly retentionSchedule: RetentionSchedule;
  private closed = false;

  constructor(
    private readonly location: SessionStore,
    private readonly messages: UserMessages,
    limits: () => RetentionLimits = () => ({}),
    /** The clock and least interval of retention runs the store's growth starts (a test's shorter one). */
    schedule: { readonly clock?: ScheduleClock; readonly intervalMs?: number } = {},
  ) {
    super();
    this.held = new HeldSessions({
      ready: () => this.ready(),
      known: (id) => this.metas.has(id),
      know: async (store, id) => {
        if (this.metas.has(id)) return true;
        const meta = await store.meta(id).catch(() => undefined);
        if (meta !== undefined) this.announceAdded(meta);
        return meta !== undefined;
      },
      isClosed: () => this.closed,
      messages,
    });
    this.retention = new Retention({
      ready: () => this.ready(),
      limits,
      keeps: (id) => this.held.keeps(id),
      removed: (id) => this.announceRemoved(id),
      messages,
    });
    this.retentionSchedule = new RetentionSchedule(
      () => this.retention.apply().catch((error: unknown) => this.retentionFailed(error)),
      schedule.clock,
      schedule.intervalMs,
    );
    this._register({ dispose: () => void this.close() });
  }

  /** The search across the store, kept caught up with its changes. */
  readonly search = this._register(new WindowSearch(this));

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
    this.held.want(id);
    return (await this.held.open(id, false))?.entry;
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
    this.held.hold(meta.id, { entry, writer, sync });
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
      const live = await this.held.open(meta.id, true);
      if (live?.writer) return live.entry;
    }
    return this.create(`${DAY_SESSION_NAMES[kind]} ${day}`, { kind, day });
  }

  /** Registers the refs in `text` in a session and saves it when any were found. */
  async ingest(sessionId: string, text: string): Promise<ExtractResult> {
    const live = await this.held.open(sessionId, false);
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
    const written = await this.held.save(sessionId);
    if (written === undefined) return;
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
    const live = this.held.held(sessionId);
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

  /**
   * Removes a session (Delete Session): refused, with a `UserError` saying why, while another window, MCP server or
   * agent writes it, and when it is pinned unless `evenIfPinned` (a person picked it knowing it was). The removal
   * goes through `Store.deleteIfIdle`, under the session's lease, so a writer that came a moment ago keeps it too.
   */
  async delete(sessionId: string, options: { readonly evenIfPinned?: boolean } = {}): Promise<void> {
    const store = await this.ready();
    const meta = await this.require(sessionId);
    const pinned = (): UserError =>
      new UserError(
        `Session "${meta.name}" is pinned, so it was not deleted. Unpin it (Unpin Session), then delete it.`,
      );
    if (meta.pinned && options.evenIfPinned !== true) throw pinned();
    const live = this.held.held(sessionId);
    if (live?.writer) {
      // This window writes it (an open chat): what it holds is saved, and its writer closed, so the lease is free.
      this.held.drop(sessionId);
      await live.sync?.sync(live.entry.session, live.entry.chat).catch(() => undefined);
      await live.writer.close().catch(() => undefined);
    } else {
      // A chat panel of this window that just closed may still be giving the lease up: that is not another holder.
      await this.held.released(sessionId);
    }
    switch (await store.deleteIfIdle(sessionId, options)) {
      case 'busy':
        throw new UserError(
          `Session "${meta.name}" is being written by another window, MCP server or agent right now, so it was not ` +
            'deleted. Close it there (or let its command end), then delete it.',
        );
      case 'pinned':
        throw pinned(); // pinned meanwhile, in another window
      case 'removed':
      case 'missing':
        this.announceRemoved(sessionId);
    }
  }

  /**
   * A content written into a session this window writes, piece by piece as it arrives (command output): nothing
   * but the current piece is held in memory. A `UserError` when this window cannot write the session.
   */
  streamInto(sessionId: string): StreamedContent {
    return this.held.streamInto(sessionId);
  }

  /** Saves a session held in memory one last time and gives up its writer (its chat panel closed). */
  release(sessionId: string): Promise<void> {
    return this.held.release(sessionId);
  }

  /** Whether this window holds the session to write it (a chat panel, captured refs). */
  holds(sessionId: string): boolean {
    return this.held.held(sessionId)?.writer !== undefined;
  }

  /** Keeps the sessions `keep` says yes to from retention (the open chat panels). */
  keepSessions(keep: (id: string) => boolean): vscode.Disposable {
    return this.retention.keepSessions(keep);
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
    this.retentionSchedule.ran();
    return this.retention.apply();
  }

  /**
   * Removes the given sessions (Show Store Usage clears one source's), keeping the ones retention keeps: pinned,
   * held or shown by this window, written by another process. Says which were removed and which kept, and why.
   */
  clear(sessions: readonly SessionUsage[]): Promise<ClearResult> {
    return this.retention.clear(sessions);
  }

  /** Saves every session held in memory, gives up their writers and stops following the store. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.retentionSchedule.dispose();
    this.watcher?.dispose();
    await Promise.all(this.held.ids().map((id) => this.held.release(id)));
    await this.store?.close();
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
    void this.applyRetention().catch((error: unknown) => this.retentionFailed(error));
    return store;
  }

  private retentionFailed(error: unknown): string[] {
    this.messages.log.warn(`FD Refs could not apply the session retention limits: ${errorMessage(error)}`);
    return [];
  }

  private async relist(store: Store): Promise<void> {
    const { sessions, unreadable } = await store.list();
    const seen = new Set(sessions.map((s) => s.id));
    for (const id of this.metas.keys()) if (!seen.has(id) && this.held.held(id) === undefined) this.forget(id);
    for (const meta of sessions) this.metas.set(meta.id, meta);
    for (const { id, reason } of unreadable)
      this.messages.log.warn(`FD Refs could not read the metadata of session ${id}: ${reason}`);
  }

  /**
   * Knows a session and says it was added, once: the store's watcher can see a session this window creates before
   * `create` has recorded it, and both come here (a fresh clone once got 'added' twice for one session).
   */
  private announceAdded(meta: StoredSessionMeta): void {
    const known = this.metas.has(meta.id);
    this.metas.set(meta.id, meta);
    if (!known) this.changeEmitter.fire({ kind: 'added', sessionId: meta.id });
  }

  /**
   * Forgets a session that is gone and says so, once: the store's watcher may see the folder go before the deleting
   * call (this window's Delete, retention) has announced it, and both come here.
   */
  private announceRemoved(id: string): void {
    const meta = this.metas.get(id);
    if (!meta) return;
    this.forget(id);
    this.changeEmitter.fire({ kind: 'removed', sessionId: id, name: meta.name });
  }

  private forget(id: string): void {
    this.metas.delete(id);
    this.readers.delete(id);
    this.held.forget(id);
  }

  /** Reads what was appended to a session's journal; undefined when no reader is open. */
  private async refreshReader(id: string): Promise<Awaited<ReturnType<SessionReader['refresh']>> | undefined> {
    return (await this.readers.get(id))?.refresh();
  }

  private async onStoreChange(change: StoreChange): Promise<void> {
    const store = this.store;
    if (!store || this.closed) return;
    // Kept output from agents and terminals follows the limits while the window stays open, not only at its start.
    if (growsStore(change)) this.retentionSchedule.storeGrew();
    await followStoreChange(change, {
      store,
      metas: this.metas,
      held: this.held,
      fire: (event) => this.changeEmitter.fire(event),
      added: (meta) => this.announceAdded(meta),
      removed: (id) => this.announceRemoved(id),
      refreshReader: (id) => this.refreshReader(id),
    });
  }
}
