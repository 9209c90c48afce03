import { Content } from '../descriptors/content';
import {
  DescriptorTable,
  type Descriptor,
  type DescriptorDetails,
  type DescriptorSource,
  type RefVersion,
  type TableMark,
} from '../descriptors/descriptorTable';
import type { TextSource } from '../descriptors/textSource';
import { refDescriptorId } from '../ids';
import { extractRefs } from '../refs/extract';
import type { ExtractedRef, ExtractResult } from '../refs/types';
import { previewFdToFile, type WritePreview } from '../tools/fdToFile';
import type { FileSystemPort } from '../files/fileSystemPort';
import {
  runTool,
  toolDefinition,
  toolRecord,
  toolsOn,
  type ToolDefinition,
  type ToolOutcome,
} from '../tools/toolTable';
import type { ToolPreview, ToolRecord } from '../tools/toolRecord';
import { READ_RESULT_CHARS, type ToolContext, type ToolSession } from '../tools/toolContext';
import { tableToolSession } from '../tools/tableToolSession';
import { wrapInDescriptor, type Wrapped } from '../tools/descriptorPreview';
import { resolveOptions, type ResolvedOptions, type SessionOptions } from './options';
import { deserializeTable, serializeTable, serializeTableWhole } from './serialization';
import { SYSTEM_PROMPT_ADDITIONS } from './systemPrompt';

/** Where `fd_to_file` may write, when it differs from the session's options. */
export interface ToolEnvironment {
  readonly workspaceRoots: readonly string[];
  readonly fileSystem: FileSystemPort;
  /** `ToolContext.workspaceTrusted`: false in Restricted Mode. */
  readonly workspaceTrusted?: boolean;
  /** The most characters one result may hold (`ToolContext.resultChars`); `READ_RESULT_CHARS` when left out. */
  readonly resultChars?: number;
  /** How `run_command` runs (the chat's); without it the session does not offer it. */
  readonly commands?: ToolContext['commands'];
  /** The search across the store (`search_fd` with `fd: "*"`). */
  readonly storeSearch?: ToolContext['storeSearch'];
}

/**
 * One conversation's descriptors and refs, and the tools a model uses on them.
 * Content is immutable and shared: `fork()` and `spawn()` copy only the tables that point at it.
 */
export class Session {
  private readonly options: ResolvedOptions;
  private readonly table: DescriptorTable;
  private readonly tools: ToolSession;

  constructor(options?: SessionOptions);
  /** @internal used by fork, spawn and fromJSON. */
  constructor(options: SessionOptions | undefined, table: DescriptorTable);
  constructor(options?: SessionOptions, table?: DescriptorTable) {
    this.options = resolveOptions(options);
    this.table = table ?? new DescriptorTable(undefined, undefined, undefined, this.options.now);
    this.tools = tableToolSession(this.table);
  }

  /**
   * Runs one of the chat's tools (`toolsOn('chat')`) and returns the XML the model sees (errors included).
   * `environment` overrides where `fd_to_file` may write (the chat passes the current workspace folders).
   */
  async callTool(name: string, args: unknown, environment?: ToolEnvironment): Promise<string> {
    return (await this.runTool(name, args, environment)).text;
  }

  /** Like `callTool`, also saying whether the call failed (the chat marks the call with it). */
  runTool(name: string, args: unknown, environment?: ToolEnvironment): Promise<ToolOutcome> {
    return runTool(this.toolContext(environment), name, args, this.offered(environment));
  }

  /** The chat's tools this session runs: `run_command` only where the environment says how. */
  private offered(environment: ToolEnvironment | undefined): ToolRecord[] {
    return toolsOn('chat').filter((t) => t.effect !== 'run' || environment?.commands !== undefined);
  }

  /**
   * What a call of a tool that writes or runs would do (the resolved path and size, the command and folder),
   * without doing it; a `ToolError` when it would fail. The chat shows this to the user before allowing it.
   */
  previewCall(name: string, args: unknown, environment?: ToolEnvironment): Promise<ToolPreview> {
    const preview = toolRecord(name)?.preview;
    if (preview === undefined) return Promise.reject(new Error(`${name} has nothing to preview.`));
    return preview(this.toolContext(environment), args);
  }

  /**
   * What `fd_to_file` with these arguments would do (the resolved path, whether it replaces a file, the size),
   * without writing; a `ToolError` when it would fail. The chat shows this to the user before allowing the write.
   */
  previewWrite(args: unknown, environment?: ToolEnvironment): Promise<WritePreview> {
    return previewFdToFile(this.toolContext(environment), args);
  }

  /** Characters in a page of `read_fd` (the session's option). */
  get pageSize(): number {
    return this.options.pageSize;
  }

  /** The number the next `fd:` descriptor will get (a chat records it with each message, for forks). */
  get nextFd(): number {
    return this.table.nextFd;
  }

  /** Registers one ref found in a streaming message and returns its version (the latest one when its content is unchanged). */
  registerRef(ref: ExtractedRef): number {
    this.table.addRef(ref.id, new Content(ref.content), ref.language);
    return this.table.refVersionCount(ref.id);
  }

  /** The chat's tools but `run_command`, with JSON Schemas generated from their zod schemas. */
  toolDefinitions(): ToolDefinition[] {
    const inlineChars = this.options.maxDirectOutputChars;
    return this.offered(undefined).map((t) => toolDefinition(t, { inlineChars }));
  }

  /** Output of any other tool that is longer than `maxDirectOutputChars` becomes a descriptor and a preview. */
  wrapToolOutput(toolName: string, output: string): string {
    return this.wrapToolOutputAsDescriptor(toolName, output).text;
  }

  /** Like `wrapToolOutput`, also naming the descriptor made; `maxChars` overrides `maxDirectOutputChars`. */
  wrapToolOutputAsDescriptor(toolName: string, output: string, maxChars = this.options.maxDirectOutputChars): Wrapped {
    if (toolRecord(toolName) !== undefined) return { text: output };
    return wrapInDescriptor(this.table, { kind: 'tool_output', toolName }, output, this.options.pageSize, maxChars);
  }

  /** User input longer than `maxInputChars` becomes a descriptor and a preview (when `pageUserInput` is on). */
  pageUserInput(text: string): string {
    return this.pageUserInputAsDescriptor(text).text;
  }

  /** Like `pageUserInput`, also naming the descriptor made; `maxChars` overrides `maxInputChars`. */
  pageUserInputAsDescriptor(text: string, maxChars = this.options.maxInputChars): Wrapped {
    if (!this.options.pageUserInput) return { text };
    return wrapInDescriptor(this.table, { kind: 'user_input' }, text, this.options.pageSize, maxChars);
  }

  /** Registers the refs of an assistant message in this session (a reused id with new content adds a version). */
  ingestAssistantMessage(text: string): ExtractResult {
    const result = extractRefs(text);
    for (const ref of result.refs) this.table.addRef(ref.id, new Content(ref.content), ref.language);
    return result;
  }

  /** Instructions that teach a model the tools and the `<ref>` convention. */
  systemPromptAdditions(): string {
    return SYSTEM_PROMPT_ADDITIONS;
  }

  /**
   * Adds content that is already stored (command output streamed into the store, `SessionRegistry.streamInto`)
   * as a new `fd:` descriptor; a save then records it without writing the content again.
   */
  addDescriptor(source: DescriptorSource, content: TextSource, details?: DescriptorDetails): Descriptor {
    return this.table.createFd(source, content, details);
  }

  /** Looks up `fd:N`, `ref:x` or `ref:x@n`. */
  getDescriptor(id: string): Descriptor | undefined {
    return this.table.lookup(id);
  }

  /** The `fd:` descriptors, in creation order. */
  descriptors(): Descriptor[] {
    return this.table.fdDescriptors();
  }

  /** The latest version of every ref, in the order they were first created, with how many versions each has. */
  refs(): { descriptor: Descriptor; versions: number }[] {
    return this.table.refEntries().map(([id, versions]) => ({
      descriptor: this.table.lookup(refDescriptorId(id)) as Descriptor,
      versions: versions.length,
    }));
  }

  /**
   * A child with every descriptor and ref, or with `at` only those held at that mark (a chat forked at an
   * earlier message); from now on neither side sees the other's additions.
   */
  fork(at?: TableMark): Session {
    return new Session(this.options, this.table.fork(at));
  }

  /** A child with the refs but no `fd:` descriptors, counting from `fd:1`; its refs stay its own. */
  spawn(): Session {
    return new Session(this.options, this.table.spawn());
  }

  /**
   * Plain JSON data holding everything: content (each once), metadata, versions, the counter. Only for a session
   * whose contents are all in memory (one opened from the store throws: use `toJSONWhole`).
   */
  toJSON(): unknown {
    return serializeTable(this.table);
  }

  /** Like `toJSON`, reading the contents a session opened from the store has not read yet. */
  toJSONWhole(): Promise<unknown> {
    return serializeTableWhole(this.table);
  }

  /**
   * A session over these descriptors and ref versions as they are (their contents in memory or read on demand
   * from the store: nothing is read here), its counter at `nextFd`.
   */
  static fromEntries(
    fds: Map<number, Descriptor>,
    refs: Map<string, readonly RefVersion[]>,
    nextFd: number,
    options?: SessionOptions,
  ): Session {
    return new Session(options, new DescriptorTable(fds, refs, nextFd, resolveOptions(options).now));
  }

  /** Rebuilds a session from `toJSON()` data; malformed data is rejected with an Error saying what is wrong. */
  static fromJSON(data: unknown, options?: SessionOptions): Session {
    const resolved = resolveOptions(options);
    return new Session(options, deserializeTable(data, resolved.now));
  }

  private toolContext(environment?: ToolEnvironment): ToolContext {
    return {
      session: this.tools,
      pageSize: this.options.pageSize,
      resultChars: environment?.resultChars ?? READ_RESULT_CHARS,
      workspaceRoots: environment?.workspaceRoots ?? this.options.workspaceRoots,
      fileSystem: environment?.fileSystem ?? this.options.fileSystem,
      ...(environment?.workspaceTrusted === undefined ? {} : { workspaceTrusted: environment.workspaceTrusted }),
      ...(environment?.commands === undefined ? {} : { commands: environment.commands }),
      ...(environment?.storeSearch === undefined ? {} : { storeSearch: environment.storeSearch }),
    };
  }
}
