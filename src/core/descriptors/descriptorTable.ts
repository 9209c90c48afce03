import { formatDescriptorId, parseDescriptorId } from '../ids';
import { Content } from './content';
import type { CommandRun, DescriptorDetails } from './descriptorDetails';
import type { TextSource } from './textSource';

export type { CommandRun, DescriptorDetails } from './descriptorDetails';

export type DescriptorSource = 'tool_output' | 'user_input' | 'reference' | 'extract';

/** A stored piece of content the model can read by id. */
export interface Descriptor {
  /** `fd:3`, `ref:x` (the latest version) or `ref:x@1`. */
  readonly id: string;
  readonly source: DescriptorSource;
  /** The tool whose output this is (source `tool_output`). */
  readonly toolName?: string;
  /** The descriptor this was extracted from (source `extract`). */
  readonly extractedFrom?: string;
  /** The shell command whose output this is. */
  readonly command?: CommandRun;
  /** Fence language of a ref. */
  readonly language?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** In memory (`Content`) or read on demand from the store (a `StoredContent`). */
  readonly content: TextSource;
  /** Set while its content is still being written (a command running): `content` is what was written so far. */
  readonly growing?: GrowingState;
}

/**
 * A descriptor still being written, as a reader sees it: `running` while the process writing it is alive, `cut off`
 * when it is gone (stopped, or killed, mid-run): its content then ends where its writer last recorded it.
 */
export interface GrowingState {
  readonly state: 'running' | 'cut off';
  /** The process (group) writing it, when its writer said. */
  readonly pid?: number;
  readonly startedAt: string;
}

/** The `growing` attribute of a tool's answer about `descriptor`: `running` or `cut_off`, absent once complete. */
export function growingAttribute(descriptor: Pick<Descriptor, 'growing'>): string | undefined {
  return descriptor.growing?.state.replace(' ', '_');
}

/** One version of a ref. */
export interface RefVersion {
  readonly createdAt: string;
  readonly content: TextSource;
  readonly language?: string;
}

/**
 * What a table held at one moment, for a fork that goes back to it: the fds below `nextFd` and the
 * first `refVersions.get(id)` versions of each ref (a ref not named there did not exist yet).
 */
export interface TableMark {
  /** The fd counter then; undefined when it is not known, and then every fd is kept. */
  readonly nextFd: number | undefined;
  readonly refVersions: ReadonlyMap<string, number>;
}

/**
 * The highest descriptor counter a table may reach (and a saved session hold): more descriptors than a session makes, and
 * far enough below 2^53 that counting on stays exact (at 2^53, `n + 1 === n` and a new descriptor would
 * overwrite an old one, and the next save could not be loaded).
 */
export const MAX_NEXT_FD = 2 ** 32;

/**
 * The `fd:` descriptors and ref versions of one session. Maps are copied on fork (cheap: entries
 * point at shared, immutable `Content`). A version list is appended to in place only while this table
 * alone holds it; a list shared with a fork is copied on its next append, so neither side sees the
 * other's new versions and adding many versions of one ref stays linear.
 */
export class DescriptorTable {
  /** The version lists only this table holds (made by its own `addRef` since it last forked). */
  private readonly ownLists = new Set<readonly RefVersion[]>();

  constructor(
    private readonly fds = new Map<number, Descriptor>(),
    private readonly refs = new Map<string, readonly RefVersion[]>(),
    private nextFdNumber = 1,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get nextFd(): number {
    return this.nextFdNumber;
  }

  createFd(source: DescriptorSource, content: TextSource, details: DescriptorDetails = {}): Descriptor {
    if (this.nextFdNumber >= MAX_NEXT_FD)
      throw new Error(`This session has used all ${MAX_NEXT_FD - 1} descriptor numbers; start a new session.`);
    const number = this.nextFdNumber++;
    const descriptor: Descriptor = {
      id: formatDescriptorId({ kind: 'fd', number }),
      source,
      ...details,
      createdAt: this.now().toISOString(),
      content,
    };
    this.fds.set(number, descriptor);
    return descriptor;
  }

  /**
   * Adds a version of ref `id`; earlier versions stay readable as `ref:id@n`. Content and language
   * identical to the latest version's are not a new version: the latest is returned as it is.
   */
  addRef(id: string, content: Content, language: string | undefined): Descriptor {
    const versions = this.refs.get(id);
    const latest = versions?.[versions.length - 1];
    if (
      versions !== undefined &&
      latest !== undefined &&
      latest.language === language &&
      sameText(latest.content, content)
    ) {
      return refDescriptor(id, versions, versions.length);
    }
    const version: RefVersion = {
      createdAt: this.now().toISOString(),
      content,
      ...(language === undefined ? {} : { language }),
    };
    if (versions !== undefined && this.ownLists.has(versions)) {
      (versions as RefVersion[]).push(version);
      return refDescriptor(id, versions, versions.length);
    }
    const copy = [...(versions ?? []), version];
    this.refs.set(id, copy);
    this.ownLists.add(copy);
    return refDescriptor(id, copy, copy.length);
  }

  /** How many versions the ref `id` (without `ref:`) has; 0 when there is none. */
  refVersionCount(id: string): number {
    return this.refs.get(id)?.length ?? 0;
  }

  /** Looks up `fd:N`, `ref:x` or `ref:x@n`. */
  lookup(id: string): Descriptor | undefined {
    const parts = parseDescriptorId(id);
    if (parts === undefined) return undefined;
    if (parts.kind === 'fd') return this.fds.get(parts.number);
    const versions = this.refs.get(parts.refId);
    if (versions === undefined) return undefined;
    const version = parts.version ?? versions.length;
    return version <= versions.length ? refDescriptor(parts.refId, versions, version) : undefined;
  }

  fdDescriptors(): Descriptor[] {
    return [...this.fds.values()];
  }

  /** Ref ids in the order they were first created, each with all its versions (a list may grow later: read it now). */
  refEntries(): [string, readonly RefVersion[]][] {
    return [...this.refs.entries()];
  }

  /** Every readable id in natural order (`fd:2` before `fd:10`), refs without their versions. */
  knownIds(): string[] {
    const fds = [...this.fds.keys()].sort((a, b) => a - b).map((number) => formatDescriptorId({ kind: 'fd', number }));
    const refs = [...this.refs.keys()].sort(naturalCompare).map((refId) => formatDescriptorId({ kind: 'ref', refId }));
    return [...fds, ...refs];
  }

  /**
   * A table with every descriptor and ref, continuing the counter; later additions stay apart. With
   * `at`, only what the table held then (see `TableMark`), its counter continuing from there.
   */
  fork(at?: TableMark): DescriptorTable {
    this.ownLists.clear();
    if (at === undefined)
      return new DescriptorTable(new Map(this.fds), new Map(this.refs), this.nextFdNumber, this.now);
    const nextFd = at.nextFd ?? this.nextFdNumber;
    const fds = new Map<number, Descriptor>();
    for (const [number, descriptor] of this.fds) if (number < nextFd) fds.set(number, descriptor);
    const refs = new Map<string, readonly RefVersion[]>();
    for (const [id, versions] of this.refs) {
      const count = Math.min(at.refVersions.get(id) ?? 0, versions.length);
      if (count > 0) refs.set(id, count === versions.length ? versions : versions.slice(0, count));
    }
    return new DescriptorTable(fds, refs, nextFd, this.now);
  }

  /** A table with the refs but no `fd:` descriptors; its counter starts at `fd:1`. */
  spawn(): DescriptorTable {
    this.ownLists.clear();
    return new DescriptorTable(new Map(), new Map(this.refs), 1, this.now);
  }
}

/**
 * Whether `held` (in memory or stored) holds the same text as the new `content`: lengths first, then the text
 * itself when both are in memory, else the store's name for it (no file is read).
 */
function sameText(held: TextSource, content: Content): boolean {
  if (held === content) return true;
  if (held.length !== content.length) return false;
  if (held instanceof Content) return held.text === content.text;
  const ref = held.ref;
  if (ref === undefined) return false;
  const digest = content.digest;
  return ref.h === digest.h && ref.enc === digest.enc;
}

function refDescriptor(id: string, versions: readonly RefVersion[], version: number): Descriptor {
  const v = versions[version - 1] as RefVersion;
  return {
    id: formatDescriptorId(
      version === versions.length ? { kind: 'ref', refId: id } : { kind: 'ref', refId: id, version },
    ),
    source: 'reference',
    ...(v.language === undefined ? {} : { language: v.language }),
    createdAt: v.createdAt,
    content: v.content,
  };
}

/** Made on first use: Intl maps megabytes of ICU data into a process that loads this module but never sorts. */
let collator: Intl.Collator | undefined;

/** Orders strings with embedded numbers by value: `a2` before `a10`. */
export function naturalCompare(a: string, b: string): number {
  return (collator ??= new Intl.Collator('en', { numeric: true })).compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
