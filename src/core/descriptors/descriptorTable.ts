import { Content } from './content';

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
  /** Fence language of a ref. */
  readonly language?: string;
  /** ISO 8601. */
  readonly createdAt: string;
  readonly content: Content;
}

/** Metadata a new `fd:` descriptor may carry. */
export interface DescriptorDetails {
  toolName?: string;
  extractedFrom?: string;
}

/** One version of a ref. */
export interface RefVersion {
  readonly createdAt: string;
  readonly content: Content;
  readonly language?: string;
}

const FD_ID = /^fd:([1-9][0-9]*)$/;
const REF_ID = /^ref:([A-Za-z0-9][A-Za-z0-9_.-]{0,127})(?:@([1-9][0-9]*))?$/;

/**
 * The `fd:` descriptors and ref versions of one session. Maps are copied on fork (cheap: entries
 * point at shared, immutable `Content`); version lists are replaced, never mutated, so a fork never
 * sees the other side's new versions.
 */
export class DescriptorTable {
  constructor(
    private readonly fds = new Map<number, Descriptor>(),
    private readonly refs = new Map<string, readonly RefVersion[]>(),
    private nextFdNumber = 1,
    private readonly now: () => Date = () => new Date(),
  ) {}

  get nextFd(): number {
    return this.nextFdNumber;
  }

  createFd(source: DescriptorSource, content: Content, details: DescriptorDetails = {}): Descriptor {
    const number = this.nextFdNumber++;
    const descriptor: Descriptor = {
      id: `fd:${number}`,
      source,
      ...details,
      createdAt: this.now().toISOString(),
      content,
    };
    this.fds.set(number, descriptor);
    return descriptor;
  }

  /** Adds a version of ref `id`; earlier versions stay readable as `ref:id@n`. */
  addRef(id: string, content: Content, language: string | undefined): Descriptor {
    const version: RefVersion = {
      createdAt: this.now().toISOString(),
      content,
      ...(language === undefined ? {} : { language }),
    };
    const versions = [...(this.refs.get(id) ?? []), version];
    this.refs.set(id, versions);
    return refDescriptor(id, versions, versions.length);
  }

  /** How many versions the ref `id` (without `ref:`) has; 0 when there is none. */
  refVersionCount(id: string): number {
    return this.refs.get(id)?.length ?? 0;
  }

  /** Looks up `fd:N`, `ref:x` or `ref:x@n`. */
  lookup(id: string): Descriptor | undefined {
    const fd = FD_ID.exec(id);
    if (fd) return this.fds.get(Number(fd[1]));
    const ref = REF_ID.exec(id);
    if (!ref) return undefined;
    const name = ref[1] as string;
    const versions = this.refs.get(name);
    if (versions === undefined) return undefined;
    const version = ref[2] === undefined ? versions.length : Number(ref[2]);
    return version <= versions.length ? refDescriptor(name, versions, version) : undefined;
  }

  fdDescriptors(): Descriptor[] {
    return [...this.fds.values()];
  }

  /** Ref ids in the order they were first created, each with all its versions. */
  refEntries(): [string, readonly RefVersion[]][] {
    return [...this.refs.entries()];
  }

  /** Every readable id in natural order (`fd:2` before `fd:10`), refs without their versions. */
  knownIds(): string[] {
    const fds = [...this.fds.keys()].sort((a, b) => a - b).map((n) => `fd:${n}`);
    const refs = [...this.refs.keys()].sort(naturalCompare).map((id) => `ref:${id}`);
    return [...fds, ...refs];
  }

  /** A table with every descriptor and ref, continuing the counter; later additions stay apart. */
  fork(): DescriptorTable {
    return new DescriptorTable(new Map(this.fds), new Map(this.refs), this.nextFdNumber, this.now);
  }

  /** A table with the refs but no `fd:` descriptors; its counter starts at `fd:1`. */
  spawn(): DescriptorTable {
    return new DescriptorTable(new Map(), new Map(this.refs), 1, this.now);
  }
}

function refDescriptor(id: string, versions: readonly RefVersion[], version: number): Descriptor {
  const v = versions[version - 1] as RefVersion;
  return {
    id: version === versions.length ? `ref:${id}` : `ref:${id}@${version}`,
    source: 'reference',
    ...(v.language === undefined ? {} : { language: v.language }),
    createdAt: v.createdAt,
    content: v.content,
  };
}

const collator = new Intl.Collator('en', { numeric: true });

/** Orders strings with embedded numbers by value: `a2` before `a10`. */
export function naturalCompare(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}
