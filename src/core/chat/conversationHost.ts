/**
 * What a `Conversation` needs from its surroundings and where it reports: the panel implements both. Free of
 * `vscode`: the panel turns VS Code's models, workspace, tools and settings into these.
 */
import type { StoreSearchPort } from '../tools/storeSearchPort';
import type { TextSource } from '../descriptors/textSource';
import type { FileSystemPort } from '../files/fileSystemPort';
import type { ToolDefinition } from '../tools/toolTable';
import type { ModelClient } from './modelClient';
import type { ToWebview } from './protocol';
import type { ConfirmationRecord, ToolConfirmationRecord } from '../session/transcript';

/** A tool besides the descriptor tools and `run_command` (its long outputs become descriptors). */
export interface ExtraTool {
  readonly definition: ToolDefinition;
  /**
   * What to ask the user before a call with `args`, or undefined to run it without asking (fdref's own tools,
   * another extension's tool the user trusts).
   */
  confirmation?(args: unknown): ToolConfirmationRecord | undefined;
  /** Runs the call; a `ToolError` goes to the model as it is, any other error as the tool's failure. */
  run(args: unknown, signal: AbortSignal): Promise<string>;
}

/** Output written into the chat's session as it arrives (a command's); `seal` gives it stored, to add as a descriptor. */
export interface StreamedOutput {
  write(piece: string): Promise<void>;
  seal(): Promise<TextSource>;
  abort(): Promise<void>;
}

/** The model an answer uses, chosen when the answer starts. */
export interface ChatModel {
  readonly client: ModelClient;
  readonly model: string;
  /** As the chat shows it, e.g. `claude-sonnet-4-5 (Anthropic)`. */
  readonly label: string;
  readonly maxTokens: number;
}

/** What the conversation needs from its surroundings. */
export interface ConversationHost {
  /** The chat's name as the user sees it, for the messages that refuse an action. */
  chatName(): string;
  /** The model for the next answer; throws `ModelError` (shown in the chat) when none can be used. */
  model(): Promise<ChatModel>;
  /**
   * Where `fd_to_file` may write and `run_command` may run, and whether either is allowed at all (a trusted
   * workspace; `run_command` is not even offered otherwise).
   */
  workspace(): { roots: readonly string[]; fileSystem: FileSystemPort; trusted: boolean };
  /** Asks the user whether a call may go ahead; resolves false for a denial (or when `signal` aborts). */
  confirm(callId: string, confirmation: ConfirmationRecord, signal: AbortSignal): Promise<boolean>;
  /** Whether writes are allowed without asking (a setting). */
  autoApproveWrites(): boolean;
  /** Whether commands run without asking (a setting; never in an untrusted workspace). */
  autoApproveCommands(): boolean;
  /** Starts writing a command's output into the chat's session. */
  streamOutput(): StreamedOutput;
  /** Tool outputs and user messages longer than these become descriptors. */
  limits(): { maxToolOutputChars: number; maxInputChars: number };
  /** The other tools offered now (fdref's `structs_entity`, the tools of other extensions the user chose). */
  extraTools(): readonly ExtraTool[];
  /** Why a tool the model called is not offered, when the host knows (e.g. its extension was uninstalled). */
  missingTool?(name: string): string | undefined;
  /** Extra system prompt text (the core's additions are always included). */
  systemPrompt(): string;
  /** Shows a relative path for an absolute one inside the workspace. */
  displayPath(absolutePath: string): string;
  /** The search across the store (`search_fd` with `fd: "*"`), where the host has one. */
  storeSearch?(): StoreSearchPort | undefined;
}

/** Where the conversation reports what happened. */
export interface ConversationListener {
  /** Something for the webview. */
  post(message: ToWebview): void;
  /** Refs were registered in the session (one call per ref, as it closes). */
  refsRegistered(ids: readonly string[]): void;
  /** New `fd:` descriptors exist (a paged message, a wrapped tool output, an extraction). */
  descriptorsAdded(): void;
  /** The transcript changed in a way worth saving (not called for every streamed chunk). */
  changed(): void;
}
