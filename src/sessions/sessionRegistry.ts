import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import type { Descriptor, ExtractResult } from '../core';
import { Session } from '../core';
import type { ChatRecord } from '../core/session/transcript';
import type { SessionOrigin } from '../core/session/sessionRecord';
import { errorMessage } from '../common/errors';
import { Disposable } from '../common/lifecycle';
import type { UserMessages } from '../common/userMessages';
import type { SessionChange, SessionEntry } from './sessionEntry';
import type { SessionStore } from './sessionStore';

/** A descriptor and the session it was found in. */
export interface FoundDescriptor {
  readonly entry: SessionEntry;
  readonly descriptor: Descriptor;
}

/**
 * The extension's sessions. Loaded from disk on first use (never during activation); every change is
 * saved before the method returns and announced on `onDidChange`.
 */
export class SessionRegistry extends Disposable {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<SessionChange>());
  readonly onDidChange = this.changeEmitter.event;

  private entries = new Map<string, SessionEntry>();
  private loading: Promise<void> | undefined;
  private writes = new Map<string, Promise<void>>();
  /** Per session, the save that is queued and has not started yet. */
  private readonly queuedSaves = new Map<string, Promise<void>>();
  /** Counts the saves that have started, so a load can tell whether one overlapped it. */
  private savesStarted = 0;

  constructor(
    private readonly store: SessionStore,
    private readonly messages: UserMessages,
    private readonly now: () => Date = () => new Date(),
  ) {
    super();
  }

  /** The folder holding the session files. */
  get storageFolder(): vscode.Uri {
    return this.store.folder;
  }

  /** Every session, most recently created first. */
  async list(): Promise<SessionEntry[]> {
    await this.ensureLoaded();
    // Reversed first so that, of two sessions created in the same millisecond, the later-added one leads.
    return [...this.entries.values()]
      .reverse()
      .sort((a, b) => b.metadata.createdAt.localeCompare(a.metadata.createdAt));
  }

  async get(id: string): Promise<SessionEntry | undefined> {
    await this.ensureLoaded();
    return this.entries.get(id);
  }

  /** `fd:N`, `ref:x` or `ref:x@n` in the most recently created session that has it. */
  async findDescriptor(id: string): Promise<FoundDescriptor | undefined> {
    for (const entry of await this.list()) {
      const descriptor = entry.session.getDescriptor(id);
      if (descriptor) return { entry, descriptor };
    }
    return undefined;
  }

  async create(name: string, origin: SessionOrigin, session = new Session(), chat?: ChatRecord): Promise<SessionEntry> {
    await this.ensureLoaded();
    let id: string;
    do id = randomBytes(4).toString('hex');
    while (this.entries.has(id));
    const metadata = { id, name, createdAt: this.now().toISOString(), origin };
    const entry: SessionEntry = chat === undefined ? { metadata, session } : { metadata, session, chat };
    this.entries.set(id, entry);
    await this.persist(entry);
    this.changeEmitter.fire({ kind: 'added', sessionId: id });
    return entry;
  }

  /** The capture session of the given local day, created when it does not exist yet. */
  async captureSession(day: string): Promise<SessionEntry> {
    await this.ensureLoaded();
    const existing = [...this.entries.values()].find(
      (e) => e.metadata.origin.kind === 'capture' && e.metadata.origin.day === day,
    );
    return existing ?? this.create(`Captured ${day}`, { kind: 'capture', day });
  }

  /** Registers the refs in `text` in a session and saves it when any were found. */
  async ingest(sessionId: string, text: string): Promise<ExtractResult> {
    const entry = await this.require(sessionId);
    const result = entry.session.ingestAssistantMessage(text);
    if (result.refs.length > 0) {
      await this.persist(entry);
      this.changeEmitter.fire({ kind: 'refsChanged', sessionId, refIds: [...new Set(result.refs.map((r) => r.id))] });
    }
    return result;
  }

  /** Saves a session whose chat or descriptors changed in place; says what changed to the listeners. */
  async changed(sessionId: string, change?: { refIds?: readonly string[]; descriptors?: boolean }): Promise<void> {
    const entry = this.entries.get(sessionId);
    if (!entry) return; // deleted meanwhile: nothing to save
    await this.persist(entry);
    if (change?.refIds && change.refIds.length > 0)
      this.changeEmitter.fire({ kind: 'refsChanged', sessionId, refIds: [...new Set(change.refIds)] });
    if (change?.descriptors) this.changeEmitter.fire({ kind: 'descriptorsChanged', sessionId });
  }

  async rename(sessionId: string, name: string): Promise<SessionEntry> {
    const entry = await this.require(sessionId);
    const renamed: SessionEntry = { ...entry, metadata: { ...entry.metadata, name } };
    this.entries.set(sessionId, renamed);
    await this.persist(renamed);
    this.changeEmitter.fire({ kind: 'renamed', sessionId, previousName: entry.metadata.name });
    return renamed;
  }

  async delete(sessionId: string): Promise<void> {
    const entry = await this.require(sessionId);
    this.entries.delete(sessionId);
    await this.enqueue(sessionId, () => this.store.remove(sessionId));
    this.changeEmitter.fire({ kind: 'removed', sessionId, name: entry.metadata.name });
  }

  /**
   * Forgets what is in memory; the next use reads the files again. Waits first until no save is pending,
   * including saves queued while it waits: a file read while a save of it is pending would put the older state
   * on disk in place of the newer one in memory, and the next save would make the loss permanent.
   */
  async reload(): Promise<void> {
    await this.savesSettled();
    this.entries = new Map();
    this.loading = undefined;
    this.changeEmitter.fire({ kind: 'reloaded' });
  }

  /** Resolves once no save or removal of any session is pending. */
  private async savesSettled(): Promise<void> {
    while (this.writes.size > 0) await Promise.all(this.writes.values());
  }

  private async require(sessionId: string): Promise<SessionEntry> {
    const entry = await this.get(sessionId);
    if (!entry) throw new Error(`There is no session ${sessionId}.`);
    return entry;
  }

  private ensureLoaded(): Promise<void> {
    // A failed load is not kept: the next use tries again.
    return (this.loading ??= this.load().catch((error: unknown) => {
      this.loading = undefined;
      throw error;
    }));
  }

  private async load(): Promise<void> {
    // A reload meanwhile replaces the map; what this load read then goes nowhere.
    const target = this.entries;
    // A save that starts while the files are read (a chat that ended as the reload began) may land after its
    // file was read, leaving the older state in memory: read again until no save started meanwhile, 3 times at most.
    let result: Awaited<ReturnType<SessionStore['loadAll']>>;
    for (let attempt = 1; ; attempt++) {
      await this.savesSettled();
      const savesBefore = this.savesStarted;
      result = await this.store.loadAll();
      if (this.savesStarted === savesBefore || attempt === 3) break;
    }
    const { entries, setAside } = result;
    for (const entry of entries) target.set(entry.metadata.id, entry);
    for (const file of setAside) {
      const where = file.renamedTo ? `It was renamed to ${file.renamedTo.fsPath}` : 'It was left in place';
      void this.messages.warn(
        `FD Refs could not read the session file ${file.original.fsPath} (${file.reason}). ${where}; the other sessions loaded.`,
      );
    }
  }

  private persist(entry: SessionEntry): Promise<void> {
    const id = entry.metadata.id;
    // A save that has not started yet writes the session as it is when it starts: a chat that registers
    // refs and tool calls in quick succession joins it instead of queueing one whole-file write per change.
    const queued = this.queuedSaves.get(id);
    if (queued) return queued;
    const save = this.enqueue(id, () => {
      this.queuedSaves.delete(id);
      this.savesStarted++;
      return this.store.save(this.entries.get(id) ?? entry);
    }).catch((error: unknown) => {
      void this.messages.error(`FD Refs could not save session "${entry.metadata.name}": ${errorMessage(error)}`);
    });
    this.queuedSaves.set(id, save);
    return save;
  }

  /** Runs one session's writes in order, so a slow save never lands after a later one. */
  private enqueue(sessionId: string, write: () => Promise<void>): Promise<void> {
    const previous = this.writes.get(sessionId) ?? Promise.resolve();
    const next = previous.then(write, write);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.writes.set(sessionId, settled);
    void settled.then(() => {
      if (this.writes.get(sessionId) === settled) this.writes.delete(sessionId);
    });
    return next;
  }
}
