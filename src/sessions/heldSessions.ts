/**
 * The sessions this window holds in memory to work on (a chat panel, captured refs, kept terminal output): each read
 * whole from the store once, with the store's writer unless another process writes it, saved through its
 * `SessionSync`, and given up again (`release`). The other job of the sessions' adapter, the list of every stored
 * session and the changes other processes make, is `SessionRegistry`'s.
 */
import { SessionBusyError, SessionSync, type SessionWriter, type Store } from '../core/store';
import { errorMessage, UserError } from '../common/errors';
import type { StoredContent } from '../core/store/storedContent';
import type { UserMessages } from '../common/userMessages';
import type { SessionEntry } from './sessionEntry';

/** Content being written into a session as it arrives (`SessionRegistry.streamInto`). */
export interface StreamedContent {
  write(piece: string): Promise<void>;
  /** Finishes the content and gives it, stored, to add as a descriptor. */
  seal(): Promise<StoredContent>;
  /** Removes what was written; nothing points at it. */
  abort(): Promise<void>;
}

/** A session this window holds in memory, with its writer unless another process writes it. */
export interface LiveSession {
  entry: SessionEntry;
  readonly writer: SessionWriter | undefined;
  readonly sync: SessionSync | undefined;
}

/** What the held sessions need of the registry. */
export interface HeldSessionsHost {
  ready(): Promise<Store>;
  /** Whether the registry knows session `id`. */
  known(id: string): boolean;
  /**
   * Makes sure the registry knows session `id` (made by another process a moment ago, before the watcher told);
   * false when the store has no such session.
   */
  know(store: Store, id: string): Promise<boolean>;
  isClosed(): boolean;
  readonly messages: UserMessages;
}

export class HeldSessions {
  private readonly live = new Map<string, LiveSession>();
  private readonly opening = new Map<string, Promise<LiveSession | undefined>>();
  /** Sessions being released: opened again only once their writer is closed. */
  private readonly releasing = new Map<string, Promise<void>>();
  /** Sessions asked for by id (a chat panel being restored): retention leaves them. */
  private readonly wanted = new Set<string>();

  constructor(private readonly host: HeldSessionsHost) {}

  /** The session held, if it is. */
  held(id: string): LiveSession | undefined {
    return this.live.get(id);
  }

  /** Holds a session this window just created. */
  hold(id: string, live: LiveSession): void {
    this.live.set(id, live);
  }

  /** Stops holding a session (deleted) without saving it; undefined when it was not held. */
  drop(id: string): LiveSession | undefined {
    const live = this.live.get(id);
    this.live.delete(id);
    return live;
  }

  /** Stops holding a session that is gone, giving up its writer. */
  forget(id: string): void {
    void this.drop(id)
      ?.writer?.close()
      .catch(() => undefined);
  }

  /** Ids of the sessions held. */
  ids(): string[] {
    return [...this.live.keys()];
  }

  /** Remembers that `id` was asked for (a chat panel being restored), so retention leaves it. */
  want(id: string): void {
    this.wanted.add(id);
  }

  /** Whether retention must leave `id`: held, being opened, or asked for. */
  keeps(id: string): boolean {
    return this.live.has(id) || this.opening.has(id) || this.wanted.has(id);
  }

  /**
   * Saves what changed in a held session (only the change is written): what was written, or undefined when there
   * was nothing to save (not held, read-only here, deleted meanwhile) or the save failed (the user is told).
   */
  async save(id: string): Promise<Awaited<ReturnType<SessionSync['sync']>> | undefined> {
    const live = this.live.get(id);
    if (!live?.sync) return undefined;
    try {
      return await live.sync.sync(live.entry.session, live.entry.chat);
    } catch (error) {
      if (this.live.get(id) !== live) return undefined; // deleted meanwhile
      void this.host.messages.error(
        `FD Refs could not save session "${live.entry.metadata.name}": ${errorMessage(error)}`,
      );
      return undefined;
    }
  }

  /** Resolves once a session being released has given up its writer. */
  released(id: string): Promise<void> {
    return this.releasing.get(id) ?? Promise.resolve();
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
        void this.host.messages.error(
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

  /**
   * The session held in memory, read whole from the store on first use. With `writableOnly`, a session another
   * process writes is not read (undefined); otherwise it is held read-only.
   */
  open(id: string, writableOnly: boolean): Promise<LiveSession | undefined> {
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
    const store = await this.host.ready();
    if (!(await this.host.know(store, id))) return undefined;
    let writer: SessionWriter | undefined;
    let readOnly: string | undefined;
    try {
      writer = await store.openWriter(id);
      const repair = writer.takeRepair();
      if (repair) void this.host.messages.warn(`FD Refs repaired a damaged session: ${repair.message}`);
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
      if (this.host.known(id) && !this.host.isClosed()) this.live.set(id, live);
      else await writer?.close();
      return live;
    } catch (error) {
      await writer?.close().catch(() => undefined);
      throw error;
    }
  }
}
