/**
 * A stored session as the tools use it (the core's `ToolSession`): looked up through a `SessionReader` (so another
 * process's changes show after `refresh()`), and written, when this process holds the session's lease, through
 * its `SessionWriter`. A session opened without a writer is read-only: every change is refused with a
 * `ToolError` saying so.
 */
import { naturalCompare, type DescriptorDetails, type DescriptorSource } from '../descriptors/descriptorTable';
import { copyDescriptorDetails } from '../descriptors/descriptorDetails';
import { formatDescriptorId, refDescriptorId } from '../ids';
import type { ExtractedRef } from '../refs/types';
import { ToolError } from '../toolError';
import type { ToolFd, ToolRef, ToolSession } from '../tools/toolContext';
import type { ContentSink } from './contentSink';
import type { SessionReader, StoredDescriptor } from './sessionReader';
import type { SessionWriter } from './sessionWriter';
import type { StoredContent } from './storedContent';

/** What registering one ref did: a new version, or the latest one kept because nothing changed. */
export interface RegisteredRef {
  readonly id: string;
  readonly version: number;
  readonly created: boolean;
  readonly descriptor: StoredDescriptor;
}

export class StoreToolSession implements ToolSession {
  constructor(
    readonly reader: SessionReader,
    private readonly writer?: SessionWriter,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get id(): string {
    return this.reader.id;
  }

  get writable(): boolean {
    return this.writer !== undefined;
  }

  /** Reads what was appended since the last look (by another process, or by this one). */
  async refresh(): Promise<void> {
    await this.reader.refresh();
  }

  /** Looks up `fd:N`, `ref:x` or `ref:x@n` (as of the last `refresh()`). */
  lookup(id: string): StoredDescriptor | undefined {
    return this.reader.lookup(id);
  }

  /** Every id a tool may name, in natural order: the `fd:` descriptors, then the refs (as the chat's table). */
  knownIds(): string[] {
    const state = this.reader.current;
    const fds = [...state.fds.keys(), ...state.growing.keys()]
      .sort((a, b) => a - b)
      .map((number) => formatDescriptorId({ kind: 'fd', number }));
    const refs = [...state.refs.keys()].sort(naturalCompare).map((refId) => refDescriptorId(refId));
    return [...fds, ...refs];
  }

  fds(): ToolFd[] {
    return this.reader.descriptors().map((descriptor) => ({ descriptor }));
  }

  /** The `fd:` descriptors in the order they were made. */
  descriptors(): StoredDescriptor[] {
    return this.reader.descriptors();
  }

  /** The latest version of every ref with its number of versions. */
  refs(): (ToolRef & { descriptor: StoredDescriptor })[] {
    return this.reader.refs();
  }

  /** Stores `text` as a new `fd:` descriptor. */
  async createFd(source: DescriptorSource, text: string, details: DescriptorDetails = {}): Promise<StoredDescriptor> {
    const writer = this.requireWriter();
    return this.recordFd(writer, await writer.putContent(text), source, details);
  }

  /** A content written as it arrives (command output); seal it and give it to `createFdFromSink`. */
  createSink(): ContentSink {
    return this.requireWriter().createSink();
  }

  /**
   * Seals `sink` and records it as a new `fd:` descriptor, or, given `n`, as the completion of growing
   * descriptor `n` (see `startGrowingFd`).
   */
  async createFdFromSink(
    sink: ContentSink,
    source: DescriptorSource,
    details: DescriptorDetails = {},
    n?: number,
  ): Promise<StoredDescriptor> {
    const writer = this.requireWriter();
    const { ref } = await sink.seal();
    return this.recordFd(writer, writer.content(ref), source, details, n);
  }

  /**
   * Makes what `sink` holds so far a descriptor that grows as it is written (a command still running); `sync()`
   * writes what is buffered and records it, so every reader sees it; `createFdFromSink(sink, ..., n)` completes it.
   */
  async startGrowingFd(
    sink: ContentSink,
    source: DescriptorSource,
    details: DescriptorDetails,
    pid?: number,
  ): Promise<{ id: string; n: number; sync: () => Promise<{ chars: number; lines: number }> }> {
    const writer = this.requireWriter();
    const n = await writer.startGrowing(
      {
        source,
        ...copyDescriptorDetails(details),
        createdAt: this.now().toISOString(),
        ...(pid === undefined ? {} : { pid }),
      },
      sink,
    );
    const sync = async (): Promise<{ chars: number; lines: number }> => {
      const size = await sink.flushNow();
      await writer.grew(n, size);
      return { chars: size.chars, lines: size.lines };
    };
    await sync();
    return { id: formatDescriptorId({ kind: 'fd', number: n }), n, sync };
  }

  /**
   * Registers a ref found in text: a new version, unless its content and language are those of the latest
   * version (then the latest is kept, as the chat does).
   */
  async registerRef(ref: ExtractedRef): Promise<RegisteredRef> {
    const writer = this.requireWriter();
    const versions = writer.state.refs.get(ref.id);
    const latest = versions?.[versions.length - 1];
    const content = await writer.putContent(ref.content);
    if (
      versions !== undefined &&
      latest !== undefined &&
      latest.language === ref.language &&
      latest.c.h === content.ref.h &&
      latest.c.enc === content.ref.enc
    ) {
      return {
        id: ref.id,
        version: versions.length,
        created: false,
        descriptor: await this.require(refDescriptorId(ref.id)),
      };
    }
    const version = await writer.addRefVersion(
      {
        id: ref.id,
        createdAt: this.now().toISOString(),
        ...(ref.language === undefined ? {} : { language: ref.language }),
      },
      content,
    );
    return { id: ref.id, version, created: true, descriptor: await this.require(refDescriptorId(ref.id, version)) };
  }

  private async recordFd(
    writer: SessionWriter,
    content: StoredContent,
    source: DescriptorSource,
    details: DescriptorDetails,
    n?: number,
  ): Promise<StoredDescriptor> {
    const id = await writer.addDescriptor(
      {
        ...(n === undefined ? {} : { n }),
        source,
        ...copyDescriptorDetails(details),
        createdAt: this.now().toISOString(),
      },
      content,
    );
    return this.require(id);
  }

  /** The descriptor just written, read back through the reader. */
  private async require(id: string): Promise<StoredDescriptor> {
    await this.refresh();
    const found = this.reader.lookup(id);
    if (found === undefined) throw new Error(`${id} was written to session ${this.id} but cannot be read back.`);
    return found;
  }

  private requireWriter(): SessionWriter {
    if (this.writer === undefined) {
      throw new ToolError(
        'permission_denied',
        `Session ${this.id} belongs to another agent or chat: it can be read here, not written.`,
      );
    }
    return this.writer;
  }
}
