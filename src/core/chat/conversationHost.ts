/**
 * What a `Conversation` needs from its surroundings and where it reports: the panel implements both. Free of
 * `vscode`: the panel turns VS Code's models, workspace and settings into these.
 */
import type { FileSystemPort } from '../files/fileSystemPort';
import type { ToolDefinition } from '../tools';
import type { ModelClient } from './modelClient';
import type { ToWebview } from './protocol';
import type { WriteConfirmationRecord } from '../session/transcript';

/** A tool besides the four descriptor tools (its long outputs become descriptors). */
export interface ExtraTool {
  readonly definition: ToolDefinition;
  run(args: unknown, signal: AbortSignal): Promise<string>;
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
  /** The model for the next answer; throws `ModelError` (shown in the chat) when none can be used. */
  model(): Promise<ChatModel>;
  /** Where `fd_to_file` may write, and whether writing is allowed at all (a trusted workspace). */
  workspace(): { roots: readonly string[]; fileSystem: FileSystemPort; trusted: boolean };
  /** Asks the user whether the model may write; resolves false for a denial (or when `signal` aborts). */
  confirmWrite(callId: string, confirmation: WriteConfirmationRecord, signal: AbortSignal): Promise<boolean>;
  /** Whether writes are allowed without asking (a setting). */
  autoApproveWrites(): boolean;
  /** Tool outputs and user messages longer than these become descriptors. */
  limits(): { maxToolOutputChars: number; maxInputChars: number };
  readonly extraTools: readonly ExtraTool[];
  /** Extra system prompt text (the core's additions are always included). */
  systemPrompt(): string;
  /** Shows a relative path for an absolute one inside the workspace. */
  displayPath(absolutePath: string): string;
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
