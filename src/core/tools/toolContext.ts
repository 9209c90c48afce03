import type { StoreSearchPort } from './storeSearchPort';
import type { CommandRun } from '../descriptors/descriptorDetails';
import type { Descriptor, DescriptorDetails, DescriptorSource } from '../descriptors/descriptorTable';
import type { TextSource } from '../descriptors/textSource';
import type { ExtractedRef } from '../refs/types';
import type { FileSystemPort } from '../files/fileSystemPort';
import { descriptorKindOf } from '../ids';
import { quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';
import type { CommandJobs } from './commandJobs';

/**
 * What a tool sees of one descriptor (`fd:N`) or ref version (`ref:x`, `ref:x@n`): the table's `Descriptor`, whose
 * content is any `TextSource` (in memory or read from the store on demand).
 */
export type ToolDescriptor = Descriptor;

/** A ref as `list_refs` shows it: its latest version and how many versions it has. */
export interface ToolRef {
  /** The latest version, its id `ref:x`. */
  readonly descriptor: ToolDescriptor;
  readonly versions: number;
  /** The session it is in, when a listing spans several sessions (VS Code's language model tools). */
  readonly session?: { readonly id: string; readonly name: string };
}

/** An `fd:` descriptor as `list_fds` shows it. */
export interface ToolFd {
  readonly descriptor: ToolDescriptor;
  /** The session it is in, when a listing spans several sessions (VS Code's language model tools). */
  readonly session?: { readonly id: string; readonly name: string };
}

/**
 * The descriptors and refs of one session, as the tools use them. Any backend serves the tools by implementing
 * this: the chat's in-memory session (`tableToolSession` over a `DescriptorTable`) and a store session
 * (`src/core/store/storeToolSession.ts`). Every method may answer at once or with a promise; the tools await it.
 */
export interface ToolSession {
  /** `fd:N`, `ref:x` or `ref:x@n` (already trimmed); undefined when the session has no such descriptor. */
  lookup(id: string): ToolDescriptor | undefined | Promise<ToolDescriptor | undefined>;
  /** Every readable id in natural order (`fd:2` before `fd:10`), refs without versions: named in `not_found` errors. */
  knownIds(): readonly string[] | Promise<readonly string[]>;
  /** Every ref in the order first created, each with its latest version and its number of versions. */
  refs(): readonly ToolRef[] | Promise<readonly ToolRef[]>;
  /** The `fd:` descriptors in the order made (each with its session when a listing spans several). */
  fds(): readonly ToolFd[] | Promise<readonly ToolFd[]>;
  /**
   * Stores `text` as a new `fd:` descriptor (an extract, a search result, a long result) and returns it. Throws
   * when the session cannot take one (a `ToolError` reaches the model as it is; anything else as the tool's
   * unexpected failure, see `unexpectedToolError`).
   */
  createFd(source: DescriptorSource, text: string, details?: DescriptorDetails): Promise<ToolDescriptor>;
}

/**
 * What a tool may use for one call. Callers build one per call, so per-call choices (the workspace folders of
 * the moment, another backend's session) go here rather than into the tool arguments.
 */
export interface ToolContext {
  /** The session the tools read and add new descriptors (extracts, long results) to. */
  readonly session: ToolSession;
  /** Page size in UTF-16 code units. */
  readonly pageSize: number;
  /**
   * The most characters one result may hold on this surface (the chat's `maxToolOutputChars`, the MCP server's
   * cap, Copilot's budget): `read_fd` with `read_all` and `get_ref` return a content whole up to it, and only past
   * it the first part with how to read the rest. Undefined: one page.
   */
  readonly resultChars?: number;
  /** Absolute folders `fd_to_file` may write in; relative paths resolve against the first. */
  readonly workspaceRoots: readonly string[];
  readonly fileSystem: FileSystemPort;
  /**
   * False in Restricted Mode (the chat's and Copilot's untrusted workspace): then no tool reads workspace files
   * (`diff_fd`'s file side). Left out where the surface runs only in a trusted workspace (the MCP server agents
   * start, which Connect an Agent sets up only there; the command-line tool, run by the user in a shell).
   */
  readonly workspaceTrusted?: boolean;
  /**
   * Opens another session of the same store to read (the optional `session` argument of the reading tools).
   * When set, `read_fd`, `search_fd`, `get_ref`, `list_refs` and `fd_to_file` accept `session: "<id>"` and read
   * from what this returns; whatever they create (an extract, a long result) still goes to `session` above, never
   * to the other one. Throw a `ToolError('not_found', ...)` for an unknown id. When unset (the chat), the
   * argument is not in the schemas and is refused as unknown.
   */
  readonly openSession?: (id: string) => Promise<ToolSession>;
  /** The search across the store (`search_fd` with `fd: "*"`), on a surface that offers it. */
  readonly storeSearch?: StoreSearchPort;
  /** Where `store_text` keeps what the model gives, on a surface that offers it. */
  readonly keep?: {
    readonly target: () => Promise<StoreTextTarget>;
    /** A text longer than this is also kept whole as a descriptor. */
    readonly inlineChars: number;
  };
  /** How `run_command` runs, on a surface that offers it (in `workspaceRoots`). */
  readonly commands?: {
    readonly output: CommandOutputTarget<KeptOutput>;
    /** The longest output returned as it is. */
    readonly inlineChars: number;
    readonly signal: AbortSignal;
  };
}

/** What registering one ref did: a new version, or the latest one kept because nothing changed. */
export interface RegisteredRef {
  readonly id: string;
  readonly version: number;
  readonly created: boolean;
  readonly descriptor: ToolDescriptor;
}

/** The session `store_text` writes: its id, and how it registers a ref and keeps a text. */
export interface StoreTextTarget {
  readonly id: string;
  registerRef(ref: ExtractedRef): Promise<RegisteredRef>;
  createFd(source: 'user_input', text: string): Promise<ToolDescriptor>;
}

/** Output being written as it arrives. */
export interface CommandOutput<K> {
  write(piece: string): Promise<void>;
  /** Finishes the output and records it as a new `fd:` descriptor of `run_command` carrying `run`. */
  keep(run: CommandRun): Promise<K>;
  /** Removes what was written (the output was short enough to return, or the command could not start). */
  abort(): Promise<void>;
  /**
   * Makes the output written so far a descriptor now, while the command still runs (`run` as it is known at its
   * start, `pid` its process group), that grows as more is written: every reader sees what `sync()` recorded.
   * `keep` then completes that same descriptor. Only where `CommandOutputTarget.background` is set.
   */
  grow?(run: CommandRun, pid: number | undefined): Promise<GrowingOutput>;
}

/** A command's output kept while it is written (see `CommandOutput.grow`). */
export interface GrowingOutput {
  /** `fd:N`. */
  readonly id: string;
  /** Writes what is buffered and records it for readers; resolves to the size recorded. */
  sync(): Promise<{ chars: number; lines: number }>;
}

/** What a kept output is: a descriptor's id and its text. */
export interface KeptOutput {
  readonly id: string;
  readonly content: TextSource;
}

/** Where a command's output goes: the MCP server's session, or the chat's. */
export interface CommandOutputTarget<K extends KeptOutput> {
  start(): CommandOutput<K>;
  /**
   * Set where a command may go on after its call answered (the MCP server: some clients give up on a call after
   * 60 s): a call waits at most `waitMs`, then answers with a descriptor that keeps growing; the commands still
   * running are kept here (`wait_command` waits for or stops them). Unset (the chat): a call waits for the end.
   */
  readonly background?: CommandJobs;
}

/**
 * The least a read the model asked for whole (`read_all`, `get_ref`) may return in the chat and in a bare `Session`:
 * what MCP clients keep inline too (Claude Code spills results over about 50,000 characters to a file). The chat's
 * `maxToolOutputChars` is about output nobody asked to see whole, so it raises this budget but never lowers it.
 */
export const READ_RESULT_CHARS = 40_000;

const MAX_LISTED_IDS = 50;

/** The descriptor `id` names in `session`, or a `not_found` error listing the ids that exist. */
export async function requireDescriptor(session: ToolSession, id: string): Promise<ToolDescriptor> {
  const found = await session.lookup(id.trim());
  if (found) return found;
  const known = await session.knownIds();
  const listed = known.slice(0, MAX_LISTED_IDS).join(', ');
  const more = known.length > MAX_LISTED_IDS ? ` and ${known.length - MAX_LISTED_IDS} more` : '';
  const hint = descriptorKindOf(id) !== undefined ? '' : ' Ids look like "fd:1" or "ref:name".';
  const available = known.length === 0 ? 'There are no descriptors or refs yet.' : `Available: ${listed}${more}.`;
  throw new ToolError('not_found', `${quoteInput(id)} does not exist.${hint} ${available}`, id);
}
