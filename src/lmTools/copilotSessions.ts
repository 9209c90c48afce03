/**
 * The sessions VS Code's language model tools work on. What a tool creates (`store_text`, an extract, a long result)
 * goes to one session of this window, origin `lmTools`, created on the first write and held for the window's life.
 * Ids are read from that session first, else from the one of the most recently active sessions of the store that has
 * them (an error naming them when several do), or from the session a call names (by id or exact name). Only metadata
 * and journals are read to find an id, never contents.
 */
import { Content } from '../core/descriptors/content';
import type { DescriptorDetails, DescriptorSource } from '../core/descriptors/descriptorTable';
import { refDescriptorId } from '../core/ids';
import { localMinute } from '../core/presentation/describe';
import { quoteInput } from '../core/quoteInput';
import type { ExtractedRef } from '../core/refs/types';
import type { SessionOrigin } from '../core/session/sessionRecord';
import type { SessionReader, StoredSessionMeta } from '../core/store';
import { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError } from '../core/toolError';
import type { RegisteredRef, StoreTextTarget } from '../core/tools/storeText';
import { ambiguousIdError, type IdCandidate, resolveSessionArgument } from '../core/tools/sessionArgument';
import type { ToolDescriptor, ToolFd, ToolRef, ToolSession } from '../core/tools/toolContext';
import type { SessionChange, SessionEntry } from '../sessions/sessionEntry';

/** What the tools use of the `SessionRegistry`. */
export interface SessionSource {
  list(): Promise<StoredSessionMeta[]>;
  reader(id: string): Promise<SessionReader | undefined>;
  create(name: string, origin: SessionOrigin): Promise<SessionEntry>;
  changed(id: string, change?: { refIds?: readonly string[]; descriptors?: boolean }): Promise<void>;
  holds(id: string): boolean;
  /** Sessions added, grown or removed, by this window or by others (the registry follows the store). */
  onDidChange(listener: (change: SessionChange) => void): { dispose(): void };
}

/** A session as a result names it. */
export interface SessionName {
  readonly id: string;
  readonly name: string;
}

/** How many of the most recently active sessions an id is looked for in, and `list_refs` lists, without `session`. */
export const RECENT_SESSIONS = 10;
/** The most refs `list_refs` lists without `session`. */
export const MAX_LISTED_REFS = 200;
/** How a model finds sessions to name, for errors about the `session` argument. */
const FINDING_SESSIONS = 'list_refs without session names the recent sessions with their ids.';

/** This window's tools session and the lookups across the store; one per window. */
export class CopilotSessions {
  private own: Promise<SessionEntry> | undefined;
  private ownEntry: SessionEntry | undefined;
  private writing: Promise<unknown> = Promise.resolve();
  /**
   * The sessions seen created or grown since the window opened, the last one seen last (a `Map` keeps the order
   * of insertion; one re-inserted moves to the end). One entry per session: the store's metadata has no time of
   * last change, and reading every journal to find one would cost more as the store grows.
   */
  private readonly active = new Map<string, true>();
  private readonly subscription: { dispose(): void };

  constructor(
    private readonly sessions: SessionSource,
    private readonly now: () => Date = () => new Date(),
  ) {
    this.subscription = sessions.onDidChange((change) => {
      if (change.kind === 'reloaded') return;
      this.active.delete(change.sessionId);
      if (change.kind === 'added' || change.kind === 'refsChanged' || change.kind === 'descriptorsChanged')
        this.active.set(change.sessionId, true);
    });
  }

  dispose(): void {
    this.subscription.dispose();
  }

  /**
   * The sessions of the store, the most recently active first: those seen created or grown since the window
   * opened, the latest first, then the others newest created first. At most `limit`.
   */
  async recent(limit: number): Promise<StoredSessionMeta[]> {
    const all = await this.sessions.list();
    const byId = new Map(all.map((m) => [m.id, m]));
    const ranked: StoredSessionMeta[] = [];
    const active = [...this.active.keys()];
    for (let i = active.length - 1; i >= 0 && ranked.length < limit; i--) {
      const meta = byId.get(active[i] ?? '');
      if (meta !== undefined) ranked.push(meta);
    }
    for (const meta of all) {
      if (ranked.length >= limit) break;
      if (!this.active.has(meta.id)) ranked.push(meta);
    }
    return ranked;
  }

  /** The id of this window's tools session, once it exists. */
  get ownId(): string | undefined {
    return this.ownEntry?.metadata.id;
  }

  /** A `ToolSession` for one call, which remembers the sessions its lookups found ids in. */
  forCall(): CallSession {
    return new CallSession(this);
  }

  /**
   * The session a `session` argument names: this window's tools session, or another one by id or by exact name
   * (case-insensitive), read-only. A `ToolError` when there is none, or when several have that name.
   */
  async named(wanted: string): Promise<{ session: ToolSession; name: SessionName }> {
    const own = this.ownEntry;
    const all = await this.sessions.list();
    const meta = resolveSessionArgument(wanted, all, FINDING_SESSIONS);
    if (own !== undefined && meta.id === own.metadata.id)
      return { session: entrySession(own, this), name: nameOf(own.metadata) };
    const reader = await this.sessions.reader(meta.id);
    if (reader === undefined) {
      // Listed a moment ago, gone now (deleted meanwhile).
      throw new ToolError(
        'not_found',
        `Session ${quoteInput(meta.name)} (${meta.id}) was just deleted. ${FINDING_SESSIONS}`,
      );
    }
    return { session: readerSession(reader), name: nameOf(meta) };
  }

  /** This window's tools session, created on first use; created again if it was deleted meanwhile. */
  ownSession(): Promise<SessionEntry> {
    const entry = this.ownEntry;
    if (entry !== undefined && !this.sessions.holds(entry.metadata.id)) {
      this.own = undefined;
      this.ownEntry = undefined;
    }
    this.own ??= this.sessions.create(`Copilot ${localMinute(this.now())}`, { kind: 'lmTools' }).then(
      (created) => {
        this.ownEntry = created;
        return created;
      },
      (error: unknown) => {
        this.own = undefined;
        throw error;
      },
    );
    return this.own;
  }

  /** Runs `change` on this window's tools session and saves it, one change at a time. */
  write<T>(
    change: (entry: SessionEntry) => T,
    saved: (result: T) => Parameters<SessionSource['changed']>[1],
  ): Promise<T> {
    const run = this.writing.then(async () => {
      const entry = await this.ownSession();
      const result = change(entry);
      await this.sessions.changed(entry.metadata.id, saved(result));
      return result;
    });
    this.writing = run.catch(() => undefined);
    return run;
  }

  /** The tools session as `store_text` writes it. */
  async storeTextTarget(): Promise<StoreTextTarget> {
    const entry = await this.ownSession();
    return {
      id: entry.metadata.id,
      registerRef: (ref) => this.registerRef(ref),
      createFd: (source, text) => this.createFd(source, text),
    };
  }

  createFd(source: DescriptorSource, text: string, details?: DescriptorDetails): Promise<ToolDescriptor> {
    return this.write(
      (entry) => entry.session.addDescriptor(source, new Content(text), details),
      () => ({ descriptors: true }),
    );
  }

  private registerRef(ref: ExtractedRef): Promise<RegisteredRef> {
    return this.write(
      (entry) => {
        const before = entry.session.getDescriptor(refDescriptorId(ref.id));
        const version = entry.session.registerRef(ref);
        const descriptor = entry.session.getDescriptor(refDescriptorId(ref.id, version));
        if (descriptor === undefined)
          throw new Error(`${refDescriptorId(ref.id, version)} was registered but cannot be read back.`);
        // The same content and language keep the latest version: its content is the one it had.
        return { id: ref.id, version, created: before?.content !== descriptor.content, descriptor };
      },
      (registered) => ({ refIds: [registered.id] }),
    );
  }

  /** The sessions searched without a `session` argument: this window's first, then the most recently active others. */
  async searched(): Promise<SearchedSession[]> {
    const own = this.ownEntry;
    const found: SearchedSession[] =
      own === undefined || !this.sessions.holds(own.metadata.id)
        ? []
        : [{ meta: nameOf(own.metadata), session: entrySession(own, this), own: true }];
    for (const meta of await this.recent(RECENT_SESSIONS + 1)) {
      if (found.length >= RECENT_SESSIONS) break;
      if (meta.id === own?.metadata.id) continue;
      const reader = await this.sessions.reader(meta.id);
      if (reader !== undefined) found.push({ meta: nameOf(meta), session: readerSession(reader), own: false });
    }
    return found;
  }
}

/** A session searched without a `session` argument; `own` for this window's tools session. */
interface SearchedSession {
  readonly meta: SessionName;
  readonly session: ToolSession;
  readonly own: boolean;
}

/**
 * The `ToolSession` of one call without a `session` argument: ids from this window's tools session first, else
 * from the one recent session that has them; new descriptors go to the tools session. An id that several recent
 * sessions have (each has its own `fd:1`...) is an error naming them: the call must say which. `foundIn` names
 * where each id read was found, for the result to say.
 */
export class CallSession implements ToolSession {
  readonly foundIn = new Map<string, SessionName>();
  private searching: Promise<SearchedSession[]> | undefined;

  constructor(private readonly sessions: CopilotSessions) {}

  async lookup(id: string): Promise<ToolDescriptor | undefined> {
    const holders: IdCandidate[] = [];
    for (const { meta, session, own } of await this.searched()) {
      const found = await session.lookup(id);
      if (found === undefined) continue;
      if (own) {
        this.foundIn.set(found.id, meta);
        return found;
      }
      holders.push({ session: meta, descriptor: found });
    }
    const [only, second] = holders;
    if (only === undefined) return undefined;
    if (second !== undefined) throw ambiguousIdError(id, holders);
    this.foundIn.set(only.descriptor.id, only.session);
    return only.descriptor;
  }

  async knownIds(): Promise<readonly string[]> {
    const ids = new Set<string>();
    for (const { session } of await this.searched()) for (const id of await session.knownIds()) ids.add(id);
    return [...ids];
  }

  /**
   * The refs of the sessions searched, each named with its session, at most `MAX_LISTED_REFS`. An id two sessions
   * have is listed twice, once with each: the listing names both, where a lookup could not tell which is meant.
   */
  refs(): Promise<readonly ToolRef[]> {
    return this.across((session) => session.refs());
  }

  createFd(source: DescriptorSource, text: string, details?: DescriptorDetails): Promise<ToolDescriptor> {
    return this.sessions.createFd(source, text, details);
  }

  /** The descriptors of the sessions searched, newest first in each, named with their session: `MAX_LISTED_REFS`. */
  fds(): Promise<readonly ToolFd[]> {
    return this.across(async (session) => [...(await session.fds())].reverse());
  }

  /** What `items` gives of each session searched, each named with its session, at most `MAX_LISTED_REFS`. */
  private async across<T extends ToolFd>(
    items: (session: ToolSession) => readonly T[] | Promise<readonly T[]>,
  ): Promise<readonly T[]> {
    const listed: T[] = [];
    for (const { meta, session } of await this.searched()) {
      for (const item of await items(session)) {
        listed.push({ ...item, session: meta });
        if (listed.length >= MAX_LISTED_REFS) return listed;
      }
    }
    return listed;
  }

  private searched(): Promise<SearchedSession[]> {
    this.searching ??= this.sessions.searched();
    return this.searching;
  }
}

/** This window's tools session, held in memory: read there, written through `CopilotSessions`. */
function entrySession(entry: SessionEntry, sessions: CopilotSessions): ToolSession {
  const session = entry.session;
  return {
    lookup: (id) => session.getDescriptor(id),
    knownIds: () => [...session.descriptors().map((d) => d.id), ...session.refs().map((r) => r.descriptor.id)],
    refs: () => session.refs(),
    fds: () => session.descriptors().map((descriptor) => ({ descriptor })),
    createFd: (source, text, details) => sessions.createFd(source, text, details),
  };
}

/** Another session, read from the store (its journal; contents when read); never written. */
function readerSession(reader: SessionReader): ToolSession {
  // Never refreshed here: the registry follows the store and refreshes its readers itself.
  return new StoreToolSession(reader);
}

function nameOf(meta: { readonly id: string; readonly name: string }): SessionName {
  return { id: meta.id, name: meta.name };
}
