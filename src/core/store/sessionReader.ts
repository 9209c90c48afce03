/**
 * A session read from the store by any process: metadata and journal at once, content only when used.
 * `refresh()` reads what the owner appended since, so another process's changes show without a reload.
 */
import { chatRecordFromJSON, type ChatRecord } from '../session/transcript';
import type { Descriptor, RefVersion } from '../descriptors/descriptorTable';
export type { GrowingState } from '../descriptors/descriptorTable';
import { copyDescriptorDetails } from '../descriptors/descriptorDetails';
import { formatDescriptorId, parseDescriptorId, refDescriptorId } from '../ids';
import type { SessionOptions } from '../session/options';
import { Session } from '../session/session';
import type { SessionMetadata } from '../session/sessionRecord';
import { readJournal } from './journal';
import { contentFolderOf, journalOf } from './layout';
import { leaseStatus } from './lease';
import { readMeta, type StoredSessionMeta } from './meta';
import type { ContentRef, FdEntry, RefEntry } from './records';
import { InvalidRecordError, noChange, SessionState, type GrowingEntry, type StateChange } from './sessionState';
import { StoredContent, type ContentCache } from './storedContent';

/** A descriptor whose content is read on demand: the core's `Descriptor` with a `StoredContent`. */
export interface StoredDescriptor extends Descriptor {
  readonly content: StoredContent;
}

/** A session as the store holds it, rebuilt in memory with every content read (what today's registry keeps). */
export interface MaterializedSession {
  readonly metadata: SessionMetadata;
  readonly session: Session;
  readonly chat?: ChatRecord;
}

export class SessionReader {
  private state = new SessionState();
  private offset = 0;
  private fileId = '';
  /** Why the journal could not be read past `offset` (a record this version cannot apply), if so. */
  problem: string | undefined;
  /** Whether the journal holds damaged lines (skipped; the session's writer repairs them when it opens it). */
  sawDamage = false;
  /** Whether the session's writer was alive at the last refresh (asked only while a descriptor grows). */
  private writerLive = true;

  constructor(
    readonly folder: string,
    public meta: StoredSessionMeta,
    private readonly cache: ContentCache,
  ) {}

  /** Reads the session in `folder`; undefined when it has no metadata (it is being removed). */
  static async open(folder: string, cache: ContentCache): Promise<SessionReader | undefined> {
    const meta = await readMeta(folder);
    if (meta === undefined) return undefined;
    const reader = new SessionReader(folder, meta, cache);
    await reader.refresh();
    return reader;
  }

  get id(): string {
    return this.meta.id;
  }

  /** The state replayed so far (shared, do not change it). */
  get current(): SessionState {
    return this.state;
  }

  /** The refresh running now (see `refresh`). */
  private refreshing: Promise<unknown> = Promise.resolve();

  get nextFd(): number {
    return this.state.nextFd;
  }

  /**
   * Reads the metadata again and the records appended since the last read; says what changed. A journal that
   * was replaced (its file is another one) is read again from the start. Calls run one at a time, whoever makes
   * them: two at once would apply the same records twice.
   */
  refresh(): Promise<StateChange & { meta: boolean }> {
    const run = this.refreshing.then(() => this.readAppended());
    this.refreshing = run.catch(() => undefined);
    return run;
  }

  private async readAppended(): Promise<StateChange & { meta: boolean }> {
    const meta = await readMeta(this.folder);
    const metaChanged = meta !== undefined && JSON.stringify(meta) !== JSON.stringify(this.meta);
    if (meta !== undefined) this.meta = meta;
    let read = await readJournal(journalOf(this.folder), this.offset);
    const change = noChange();
    if (read.fileId !== this.fileId || read.size < this.offset) {
      this.state = new SessionState();
      this.offset = 0;
      this.problem = undefined;
      this.sawDamage = false;
      if (this.fileId !== '') Object.assign(change, { descriptors: true, messages: true, model: true });
      read = await readJournal(journalOf(this.folder), 0);
      this.fileId = read.fileId;
    }
    if (this.problem !== undefined) return { ...change, meta: metaChanged };
    for (const record of read.records) {
      try {
        this.state.applyValue(record.value, change, this.sawDamage || record.afterDamage);
      } catch (error) {
        if (!(error instanceof InvalidRecordError)) throw error;
        this.problem = error.message;
        break;
      }
      this.offset = record.end;
    }
    if (read.damaged.length > 0) this.sawDamage = true;
    if (this.state.growing.size > 0) {
      // A growing descriptor's writer that is gone will not complete it: it is shown as cut off.
      const live = (await leaseStatus(this.folder))?.live === true;
      if (live !== this.writerLive) change.descriptors = true;
      this.writerLive = live;
    }
    return { ...change, meta: metaChanged };
  }

  /** The `fd:` descriptors in the order they were made (the first `limit` of them, reading no further). */
  descriptors(limit = Infinity): StoredDescriptor[] {
    const found: StoredDescriptor[] = [];
    for (const entry of this.state.fds.values()) {
      if (found.length >= limit) break;
      found.push(this.fdDescriptor(entry));
    }
    if (this.state.growing.size === 0) return found;
    // Growing ones (few) take their place by number, as they will once complete.
    const numbers = [...this.state.fds.keys()].slice(0, found.length);
    const all = found.map((descriptor, i) => ({ n: numbers[i] as number, descriptor }));
    for (const entry of this.state.growing.values())
      all.push({ n: entry.start.n, descriptor: this.growingDescriptor(entry) });
    return all
      .sort((a, b) => a.n - b.n)
      .slice(0, limit)
      .map((item) => item.descriptor);
  }

  /** The numbers of the descriptors still growing. */
  growingFds(): number[] {
    return [...this.state.growing.keys()];
  }

  /**
   * The latest version of every ref, in the order they were first made, with how many versions each has (the first
   * `limit` refs, reading no further).
   */
  refs(limit = Infinity): { descriptor: StoredDescriptor; versions: number }[] {
    const found: { descriptor: StoredDescriptor; versions: number }[] = [];
    for (const [id, versions] of this.state.refs.entries()) {
      if (found.length >= limit) break;
      found.push({ descriptor: this.refDescriptor(id, versions, versions.length), versions: versions.length });
    }
    return found;
  }

  /** Looks up `fd:N`, `ref:x` or `ref:x@n`. */
  lookup(id: string): StoredDescriptor | undefined {
    const parts = parseDescriptorId(id);
    if (parts === undefined) return undefined;
    if (parts.kind === 'fd') {
      const entry = this.state.fds.get(parts.number);
      if (entry !== undefined) return this.fdDescriptor(entry);
      const growing = this.state.growing.get(parts.number);
      return growing && this.growingDescriptor(growing);
    }
    const versions = this.state.refs.get(parts.refId);
    if (versions === undefined) return undefined;
    const version = parts.version ?? versions.length;
    return version <= versions.length ? this.refDescriptor(parts.refId, versions, version) : undefined;
  }

  content(ref: ContentRef): StoredContent {
    return new StoredContent(ref, contentFolderOf(this.folder), this.cache);
  }

  /** The chat's messages as saved (large ones read from their files), unchecked: `materialize` checks them. */
  async messages(): Promise<unknown[]> {
    return Promise.all(
      this.state.messages.map(async (slot) => {
        if (slot.kind === 'file') return JSON.parse(await this.content(slot.content).text()) as unknown;
        if (slot.textFd === undefined) return slot.message;
        const descriptor = this.lookup(slot.textFd);
        if (descriptor === undefined)
          throw new Error(`Message ${slot.id} keeps its text in ${slot.textFd}, which the session does not have.`);
        return { ...slot.message, text: await descriptor.content.text() };
      }),
    );
  }

  /**
   * The session as an in-memory `Session` whose descriptors and ref versions keep their `StoredContent`: nothing
   * of them is read here (a tool, a preview or a save reads what it uses, through the cache). The chat's
   * messages are read whole, a message kept in a descriptor (`textFd`) or a file included: the chat view shows
   * them. The same data `sessionRecordFromJSON` gives for today's session files.
   */
  async materialize(options?: SessionOptions): Promise<MaterializedSession> {
    const fds = new Map<number, Descriptor>();
    for (const entry of this.state.fds.values()) fds.set(entry.n, this.fdDescriptor(entry));
    const refs = new Map<string, RefVersion[]>();
    for (const [id, versions] of this.state.refs)
      refs.set(
        id,
        versions.map((v) => ({
          createdAt: v.createdAt,
          content: this.content(v.c),
          ...(v.language === undefined ? {} : { language: v.language }),
        })),
      );
    const session = Session.fromEntries(fds, refs, this.state.nextFd, options);
    const { pinned: _pinned, chat: hasChat, ...metadata } = this.meta;
    if (!hasChat) return { metadata, session };
    const model = this.state.model;
    const chat = chatRecordFromJSON({ ...(model === undefined ? {} : { model }), messages: await this.messages() });
    return { metadata, session, chat };
  }

  private fdDescriptor(entry: FdEntry): StoredDescriptor {
    return {
      id: formatDescriptorId({ kind: 'fd', number: entry.n }),
      source: entry.source,
      ...copyDescriptorDetails(entry),
      createdAt: entry.createdAt,
      content: this.content(entry.c),
    };
  }

  /**
   * A growing descriptor: its content is its file's first `bytes` bytes; its command (if any) says it has not
   * ended (`unfinished`), with the characters written so far.
   */
  private growingDescriptor(entry: GrowingEntry): StoredDescriptor {
    const { start } = entry;
    const details = copyDescriptorDetails(start);
    const command = details.command && { ...details.command, outputChars: entry.chars, unfinished: true as const };
    return {
      id: formatDescriptorId({ kind: 'fd', number: start.n }),
      source: start.source,
      ...details,
      ...(command === undefined ? {} : { command }),
      createdAt: start.createdAt,
      content: new StoredContent(
        { h: '', enc: 'utf8', chars: entry.chars, bytes: entry.bytes, lines: entry.lines },
        contentFolderOf(this.folder),
        this.cache,
        start.file,
      ),
      growing: {
        state: this.writerLive ? 'running' : 'cut off',
        ...(start.pid === undefined ? {} : { pid: start.pid }),
        startedAt: start.command?.startedAt ?? start.createdAt,
      },
    };
  }

  private refDescriptor(id: string, versions: readonly RefEntry[], version: number): StoredDescriptor {
    const entry = versions[version - 1] as RefEntry;
    return {
      id: refDescriptorId(id, version === versions.length ? undefined : version),
      source: 'reference',
      ...(entry.language === undefined ? {} : { language: entry.language }),
      createdAt: entry.createdAt,
      content: this.content(entry.c),
    };
  }
}
