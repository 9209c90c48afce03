/**
 * One record per model-facing tool: everything every surface needs to know of it (the chat, the MCP server, VS
 * Code's language model tools for Copilot), so that no surface keeps its own list of names or decides by name
 * whether a tool writes. `toolTable.ts` lists the records; each tool's file defines its own.
 */
import type * as z from 'zod';
import { escapeMarkdown } from '../presentation/markdown';
import { type FinishedCall, type HeadlinePart, inSession, inSessionNote, plural } from './headline';
import { ToolError } from '../toolError';
import type { ToolContext, ToolSession } from './toolContext';

/** Where a model meets the tool: fdref's chat, its MCP server, or VS Code's chat (Copilot) as `fdref_<name>`. */
export type Surface = 'chat' | 'mcp' | 'copilot';

/**
 * What a call may change, from least to most:
 * - `read`: reads the store (an extract or a long result still adds a descriptor to the caller's own session);
 * - `store`: adds what the model gives to the caller's session (`store_text`);
 * - `write`: writes workspace files (`fd_to_file`);
 * - `run`: runs commands (`run_command`).
 * `write` and `run` ask the user in the chat and Copilot, are refused in Restricted Mode, and are not offered by
 * the MCP server under `--read-only`.
 */
export type ToolEffect = 'read' | 'store' | 'write' | 'run';

/** How VS Code's chat presents the tool (`contributes.languageModelTools`). */
export interface CopilotPresentation {
  /** `#readFd` in a prompt. */
  readonly referenceName: string;
  readonly displayName: string;
  /** What a person is told in the tools picker. */
  readonly userDescription: string;
  readonly icon: string;
  /** When a model should reach for it; the tool's own description (what it does) follows. */
  readonly when: string;
  /** The manifest's `when` clause, e.g. `isWorkspaceTrusted`. */
  readonly whenClause?: string;
  /** Whether ids are looked up across the recent sessions when no `session` is named. */
  readonly looksUpSessions: boolean;
  /** "Reading fd:3" while the call runs, from its arguments (each value already escaped for Markdown). */
  readonly invocation?: (args: InvocationArgs) => string;
}

/** A call's arguments as an invocation message reads them: strings escaped and shortened, or undefined. */
export interface InvocationArgs {
  text(key: string): string | undefined;
  raw(key: string): unknown;
}

/** What an `fd_to_file` call would do, worked out before asking the user. */
export interface WritePreview {
  readonly kind: 'write';
  /** `ref:x`, `fd:2`. */
  readonly source: string;
  /** The absolute path that would be written (links followed). */
  readonly target: string;
  readonly mode: 'write' | 'append' | 'insert';
  readonly line?: number;
  readonly chars: number;
  /** UTF-8 bytes of the text. */
  readonly bytes: number;
  readonly fileExists: boolean;
}

/** What a `run_command` call would run, where, for how long at most. */
export interface CommandPreview {
  readonly kind: 'command';
  readonly command: string;
  /** The absolute folder it runs in. */
  readonly cwd: string;
  readonly timeoutS: number;
}

export type ToolPreview = WritePreview | CommandPreview;

/** What a call gave back when it worked. */
export interface ToolResult {
  /** The XML the model sees. */
  readonly text: string;
  /** Descriptors and refs the call made in the caller's session (linked as resources by the MCP server). */
  readonly made?: readonly string[];
  /** The descriptor that holds the call's own output (a command's long output), to show beside the call. */
  readonly kept?: string;
  /** A short line for a person (a command's `exit code 0 · 688,895 chars in fd:3`). */
  readonly summary?: string;
  /** The call ended because it was stopped (a command's run), not by itself. */
  readonly cancelled?: boolean;
}

export interface ToolRecord<S extends z.ZodObject = z.ZodObject> {
  readonly name: string;
  /** A short title for people (the MCP `title`). */
  readonly title: string;
  /** What the model is told; `inlineChars` is the longest output a surface returns as it is. */
  readonly description: string | ((inlineChars: number) => string);
  readonly schema: S;
  readonly effect: ToolEffect;
  readonly surfaces: readonly Surface[];
  /** Whether it takes the optional `session` argument to read another session of the store. */
  readonly sessionArgument: boolean;
  /** More arguments that name sessions, in the schema only where other sessions can be read (with `session`). */
  readonly sessionFields?: z.ZodRawShape;
  /**
   * Whether a call reads the one session its `session` argument names (default: every call does). A call that
   * does not (`search_fd` over the whole store) runs with the context's own session, and reads `session` itself.
   */
  readonly readsSession?: (input: z.output<S>) => boolean;
  /** Its line in the chat's system prompt, when it has one. */
  readonly prompt?: string;
  /** Present when `surfaces` has `copilot`. */
  readonly copilot?: CopilotPresentation;
  /**
   * For a tool that writes or runs: what a call would do, checked as far as possible without doing it, to ask the
   * user (a `ToolError` for a call that would fail). The call itself checks everything again.
   */
  readonly preview?: (context: ToolContext, args: unknown) => Promise<ToolPreview>;
  /** For a tool that writes or runs: why it is refused in Restricted Mode, as the model is told. */
  readonly untrusted?: () => ToolError;
  /** The one-line summary of a finished call that worked; undefined to fall back to a generic one. */
  readonly headline?: (call: FinishedCall) => HeadlinePart[] | undefined;
  /** Runs the call; `source` is the session it reads (the context's own, or the one its `session` names). */
  run(
    context: ToolContext,
    input: z.output<S>,
    source: ToolSession,
  ): string | ToolResult | Promise<string | ToolResult>;
}

/**
 * A record, its `run` typed by its schema. The table holds them as `ToolRecord`: `run` is a method so that the
 * table's wider type takes it (`runTool` checks the arguments with the record's own schema before calling it).
 */
export function defineTool<S extends z.ZodObject>(record: ToolRecord<S>): ToolRecord {
  return record;
}

/** Whether calls of `record` change files or run commands: asked for, refused in Restricted Mode and `--read-only`. */
export function writesOutside(record: Pick<ToolRecord, 'effect'>): boolean {
  return record.effect === 'write' || record.effect === 'run';
}

/** Why a call of `record` (which writes or runs) is refused in Restricted Mode. */
export function untrustedError(record: ToolRecord): ToolError {
  return (
    record.untrusted?.() ?? new ToolError('permission_denied', `${record.name} is not available in Restricted Mode.`)
  );
}

/** Whether calls of `record` only read (an unexpected failure of one is a `read_error`, of any other an `internal_error`). */
export function onlyReads(record: Pick<ToolRecord, 'effect'>): boolean {
  return record.effect === 'read';
}

/** The arguments of a call as invocation messages read them: every string escaped for Markdown and shortened. */
export function invocationArgs(input: unknown): InvocationArgs {
  const args = (typeof input === 'object' && input !== null ? input : {}) as Record<string, unknown>;
  return {
    raw: (key) => args[key],
    text: (key) => {
      const value = args[key];
      return typeof value === 'string'
        ? escapeMarkdown(value.length > 60 ? `${value.slice(0, 60)}…` : value)
        : undefined;
    },
  };
}

/**
 * The invocation message and one-line summary of a tool that lists `what` (`refs`, `descriptors`) in an element
 * `element` with a `count`: "Listing the refs of the recent sessions", "Listed 3 refs", "No refs".
 */
export function listing(
  what: string,
  element: string,
): { invocation: (args: InvocationArgs) => string; headline: (call: FinishedCall) => HeadlinePart[] | undefined } {
  return {
    invocation: (args) => {
      const session = args.text('session');
      return session === undefined
        ? `Listing the ${what} of the recent sessions`
        : `Listing the ${what}${inSessionNote(session)}`;
    },
    headline: ({ args, tag }) => {
      if (tag?.name !== element) return undefined;
      const count = tag.attributes['count'];
      const one = what.replace(/s$/, '');
      return [{ text: count === '0' ? `No ${what}` : `Listed ${plural(count, one)}` }, ...inSession(args)];
    },
  };
}
