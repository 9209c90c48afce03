/**
 * The one process that changes a session, while it holds the session's lease. Every change writes its new
 * content (if any) to a file of its own first, then one small journal record pointing at it: adding a 1 KB ref
 * to a session that holds 100 MB writes about 1 KB, and nothing already written is written again.
 */
import { randomBytes } from 'node:crypto';
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { copyDescriptorDetails, type DescriptorDetails } from '../descriptors/descriptorDetails';
import type { DescriptorSource } from '../descriptors/descriptorTable';
import { errorCode } from '../errors';
import { formatDescriptorId } from '../ids';
import { pidOfTempName, syncFolder, tempNameFor, type Durability } from './atomicFile';
import { ContentSink, contentFileName, indexFileName, writeContent } from './contentSink';
import { JournalAppender, type JournalRepair } from './journal';
import { contentFolderOf } from './layout';
import { checkRegularFile, holdsContent } from './storeFile';
import type { Lease } from './lease';
import { INLINE_MESSAGE_BYTES, type ContentRef, type JournalEntry } from './records';
import { noChange, SessionState } from './sessionState';
import { MissingContentError, StoredContent, type ContentCache } from './storedContent';

export interface NewDescriptor extends DescriptorDetails {
  /** Its number; the session's next one when left out. */
  readonly n?: number;
  readonly source: DescriptorSource;
  readonly createdAt: string;
}

export interface NewRefVersion {
  readonly id: string;
  readonly createdAt: string;
  readonly language?: string;
}

/** A chat message as the store keeps it: any JSON object with an `id`. */
export type MessageData = { readonly id: string; readonly [key: string]: unknown };

/** A journal repaired when its writer opened it: what was done, and a message for the user saying so. */
export interface SessionRepair extends JournalRepair {
  readonly message: string;
}

export class SessionWriter {
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  /** @internal made by `Store.create` and `Store.openWriter`. */
  constructor(
    public folder: string,
    readonly id: string,
    private appender: JournalAppender,
    private readonly lease: Lease,
    /** The session as written so far (do not change it). */
    readonly state: SessionState,
    private readonly cache: ContentCache,
    private readonly durability: Durability,
    private readonly onClose: () => void = () => undefined,
    private repair?: SessionRepair,
  ) {}

  /** What opening the session repaired in its journal, given once: whoever takes it tells the user. */
  takeRepair(): SessionRepair | undefined {
    const repair = this.repair;
    this.repair = undefined;
    return repair;
  }

  get contentFolder(): string {
    return contentFolderOf(this.folder);
  }

  /** Writes `text` as a content of this session (once: the same text again reuses the file). */
  async putContent(text: string): Promise<StoredContent> {
    const { ref, index } = await writeContent(text, this.contentFolder, this.durability);
    const content = this.content(ref);
    this.cache.put(`index:${content.file}`, index, index.byteSize);
    return content;
  }

  /** A content written as it arrives (command output): `write` pieces, `seal()`, then record it with `addDescriptor`. */
  createSink(): ContentSink {
    return new ContentSink({ folder: this.contentFolder, durability: this.durability, loneSurrogates: 'replace' });
  }

  content(ref: ContentRef): StoredContent {
    return new StoredContent(ref, this.contentFolder, this.cache);
  }

  /**
   * Moves a content sealed in `folder` (a `ContentSink` of that folder, on the store's file system) into this
   * session by rename, its index with it: nothing is copied, so a content of any size is taken in at once.
   */
  async adoptContent(folder: string, ref: ContentRef): Promise<StoredContent> {
    for (const name of [contentFileName(ref), indexFileName(ref)]) {
      try {
        // The same hash already here is the same content: replacing it changes no byte.
        await fs.rename(path.join(folder, name), path.join(this.contentFolder, name));
      } catch (error) {
        if (!(errorCode(error) === 'ENOENT' && name.endsWith('.idx'))) throw error; // a small content has no index
      }
    }
    await syncFolder(this.contentFolder, this.durability);
    return this.content(ref);
  }

  /**
   * Puts another session's content into this one without copying it where the file system allows (a hard
   * link: a fork shares its parent's files, and deleting either leaves the other whole).
   */
  async importContent(content: StoredContent): Promise<StoredContent> {
    if (content.folder === this.contentFolder) return content;
    for (const name of [contentFileName(content.ref), indexFileName(content.ref)]) {
      const from = path.join(content.folder, name);
      const to = path.join(this.contentFolder, name);
      // Only a regular file is shared or copied: a link planted in the other session is not followed.
      await checkRegularFile(from);
      try {
        await fs.link(from, to);
      } catch (error) {
        const code = errorCode(error);
        // Already here: kept when it still holds the content (a damaged file is replaced by the copy below).
        if (code === 'EEXIST' && (name.endsWith('.idx') || (await holdsContent(to, content.ref)))) continue;
        if (code === 'ENOENT' && name.endsWith('.idx')) continue;
        if (!['EEXIST', 'EXDEV', 'EPERM', 'ENOTSUP', 'EMLINK'].includes(code ?? '')) throw error;
        await copyAtomically(from, to, this.durability);
      }
    }
    await syncFolder(this.contentFolder, this.durability);
    return this.content(content.ref);
  }

  /**
   * Starts a descriptor whose content is still being written by `sink` (a long command's output): the sink's
   * file is published under a growing name (`grow-<n>-<random>.txt`) and an `fdStart` record takes the number.
   * Record what the file holds with `grew`, then complete it with `addDescriptor({ n, ... }, sealed content)`.
   */
  startGrowing(descriptor: NewDescriptor & { readonly pid?: number }, sink: ContentSink): Promise<number> {
    return this.serialised(async () => {
      const n = descriptor.n ?? this.state.nextFd;
      if (this.state.fds.has(n) || this.state.growing.has(n))
        throw new Error(`${formatDescriptorId({ kind: 'fd', number: n })} already exists in session ${this.id}.`);
      const file = `grow-${n}-${randomBytes(6).toString('hex')}.txt`;
      await sink.grow(file);
      await this.append({
        t: 'fdStart',
        n,
        source: descriptor.source,
        ...copyDescriptorDetails(descriptor),
        createdAt: descriptor.createdAt,
        file,
        ...(descriptor.pid === undefined ? {} : { pid: descriptor.pid }),
      });
      return n;
    });
  }

  /** Records that growing descriptor `n`'s file holds `size` (written, and flushed as durability asks, before). */
  grew(n: number, size: { chars: number; bytes: number; lines: number }): Promise<void> {
    return this.serialised(async () => {
      const growing = this.state.growing.get(n);
      if (growing === undefined || size.bytes <= growing.bytes) return;
      await this.append({ t: 'grew', n, ...size });
    });
  }

  /**
   * Completes the descriptors a writer that is gone left growing (it was killed mid-run): each keeps what its
   * last record said was written, as a content like any other, its command marked `unfinished` (cut off).
   */
  async completeCutOff(): Promise<number[]> {
    const done: number[] = [];
    for (const entry of [...this.state.growing.values()]) {
      const file = path.join(this.contentFolder, entry.start.file);
      let ref: ContentRef;
      const sink = this.createSink();
      try {
        const prefix = new StoredContent(
          { h: '', enc: 'utf8', chars: entry.chars, bytes: entry.bytes, lines: entry.lines },
          this.contentFolder,
          this.cache,
          entry.start.file,
        );
        for await (const chunk of prefix.chunks()) await sink.write(chunk.text);
        ref = (await sink.seal()).ref;
      } catch (error) {
        await sink.abort();
        if (!(error instanceof MissingContentError)) throw error;
        ref = (await this.putContent('')).ref; // its file is gone: what is known is that it was cut off
      }
      const details = copyDescriptorDetails(entry.start);
      const command = details.command && { ...details.command, outputChars: entry.chars, unfinished: true as const };
      await this.addDescriptor(
        {
          n: entry.start.n,
          source: entry.start.source,
          ...details,
          ...(command ? { command } : {}),
          createdAt: entry.start.createdAt,
        },
        ref,
      );
      await fs.rm(file, { force: true });
      done.push(entry.start.n);
    }
    return done;
  }

  /** Records an `fd:` descriptor holding `content` (already written to this session); resolves to its id. */
  addDescriptor(descriptor: NewDescriptor, content: StoredContent | ContentRef): Promise<string> {
    return this.serialised(async () => {
      const n = descriptor.n ?? this.state.nextFd;
      // A growing descriptor is completed by its own number; any other number is taken once.
      if (this.state.fds.has(n) || (descriptor.n === undefined && this.state.growing.has(n)))
        throw new Error(`${formatDescriptorId({ kind: 'fd', number: n })} already exists in session ${this.id}.`);
      await this.append({
        t: 'fd',
        n,
        source: descriptor.source,
        ...copyDescriptorDetails(descriptor),
        createdAt: descriptor.createdAt,
        c: refOf(content),
      });
      return formatDescriptorId({ kind: 'fd', number: n });
    });
  }

  /** Records the next version of a ref; resolves to its version number. */
  addRefVersion(version: NewRefVersion, content: StoredContent | ContentRef): Promise<number> {
    return this.serialised(async () => {
      const v = this.state.refVersionCount(version.id) + 1;
      await this.append({
        t: 'ref',
        id: version.id,
        v,
        createdAt: version.createdAt,
        ...(version.language === undefined ? {} : { language: version.language }),
        c: refOf(content),
      });
      return v;
    });
  }

  /** Sets the fd counter (a fork at an earlier message continues from its counter). */
  setNextFd(nextFd: number): Promise<void> {
    return this.serialised(() => this.append({ t: 'counter', nextFd }));
  }

  /**
   * Adds a chat message or replaces the one with its id. `textFd` names the descriptor that already holds the
   * message's `text` (a long paste), which is then not stored twice. Large messages go to a content file.
   */
  async putMessage(message: MessageData, textFd?: string): Promise<void> {
    const json = JSON.stringify(textFd === undefined ? message : { ...message, text: '' });
    if (Buffer.byteLength(json, 'utf8') <= INLINE_MESSAGE_BYTES) {
      // The record holds the message as it is now: the caller may go on changing its object (an answer
      // streaming) while this record waits for the writes before it.
      const m = JSON.parse(json) as { id: string };
      return this.serialised(() => this.append({ t: 'message', m, ...(textFd === undefined ? {} : { textFd }) }));
    }
    if (textFd !== undefined) throw new Error('A message with its text in a descriptor must be small.');
    const content = await this.putContent(json);
    return this.serialised(() => this.append({ t: 'messageFile', id: message.id, c: content.ref }));
  }

  /** Removes message `fromId` and every message after it. */
  truncateMessages(fromId: string): Promise<void> {
    return this.serialised(() => this.append({ t: 'truncate', from: fromId }));
  }

  setModel(model: string | undefined): Promise<void> {
    return this.serialised(() => this.append({ t: 'model', model: model ?? null }));
  }

  /** Waits for pending changes, closes the journal and gives up the lease. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue.catch(() => undefined);
    await this.appender.close();
    await this.lease.release();
    this.onClose();
  }

  /** @internal moves the session folder (a session being created is published by renaming its folder). */
  async moveTo(folder: string, reopen: (folder: string) => Promise<JournalAppender>): Promise<void> {
    await this.serialised(async () => {
      await this.appender.close();
      await fs.rename(this.folder, folder);
      this.folder = folder;
      this.lease.moveTo(folder);
      this.appender = await reopen(folder);
    });
  }

  /** @internal removes content files that no record points at (left by a crash before their record) and temporary files. */
  async removeUnreferencedContent(): Promise<void> {
    const referenced = new Set<string>();
    const add = (ref: ContentRef): void => {
      referenced.add(contentFileName(ref));
      referenced.add(indexFileName(ref));
    };
    for (const fd of this.state.fds.values()) add(fd.c);
    for (const versions of this.state.refs.values()) for (const v of versions) add(v.c);
    for (const slot of this.state.messages) if (slot.kind === 'file') add(slot.content);
    for (const growing of this.state.growing.values()) referenced.add(growing.start.file);
    const names = await fs.readdir(this.contentFolder).catch(() => []);
    await Promise.all(
      names
        .filter((name) => !referenced.has(name) && pidOfTempName(name) !== process.pid)
        .map((name) => fs.rm(path.join(this.contentFolder, name), { force: true })),
    );
  }

  private serialised<T>(task: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`Session ${this.id} is closed for writing.`));
    const run = this.queue.then(task);
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async append(entry: JournalEntry): Promise<void> {
    await this.appender.append([entry]);
    this.state.apply(entry, noChange());
  }
}

function refOf(content: StoredContent | ContentRef): ContentRef {
  return content instanceof StoredContent ? content.ref : content;
}

async function copyAtomically(from: string, to: string, durability: Durability): Promise<void> {
  const temp = path.join(path.dirname(to), tempNameFor(path.basename(to)));
  try {
    await fs.copyFile(from, temp, constants.COPYFILE_FICLONE);
    if (durability === 'fsync') {
      const handle = await fs.open(temp, 'r+');
      await handle.datasync().finally(() => handle.close());
    }
    await fs.rename(temp, to);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}
