/**
 * One language model tool call, free of `vscode`: the core's `runTool` (or `store_text`) over `CopilotSessions`,
 * the session an id was found in named, and the whole result kept under a size (Copilot saves a longer one to a
 * file): pages are sized to the limit, and a result still too long is stored as a descriptor of this window's
 * tools session and answered with a preview.
 */
import type { StoreSearchPort } from '../core/tools/storeSearchPort';
import { errorMessage } from '../core/errors';
import type { FileSystemPort } from '../core/files/fileSystemPort';
import { resolveOptions } from '../core/session/options';
import { ToolError } from '../core/toolError';
import { runTool, toolsOn, type ToolOutcome } from '../core/tools/toolTable';
import { storeForReply } from '../core/tools/descriptorPreview';
import { pageSizeFor } from '../core/session/resultSizes';
import type { ToolRecord, WritePreview } from '../core/tools/toolRecord';
import type { ToolContext } from '../core/tools/toolContext';
import { emptyElement } from '../core/xml';
import type { CallSession, CopilotSessions, SessionName } from './copilotSessions';
import { STORE_TEXT_INLINE_CHARS } from './lmToolNames';

/** The tools offered here. */
const OFFERED = toolsOn('copilot');

/** The core's page size: what pages are when the limit leaves room for them. */
const CORE_PAGE_SIZE = resolveOptions().pageSize;
/**
 * Characters per token assumed when only a token budget is known: fewer than any common tokenizer gives for
 * English, code or logs (about 3 to 4), so a result sized by it stays within the budget.
 */
export const CHARS_PER_TOKEN = 2;

/** How long a result may be: the setting, lowered by the token budget the caller gave. */
export interface ResultBudget {
  /** `fdref.tools.maxResultChars`. */
  readonly maxChars: number;
  /** `tokenizationOptions.tokenBudget`. */
  readonly tokenBudget?: number;
  /** `tokenizationOptions.countTokens`. */
  readonly countTokens?: (text: string) => Thenable<number> | Promise<number>;
}

/** The most characters a result may hold under `budget` (never below `floor`, where no reply fits). */
export function resultCharLimit(budget: ResultBudget, floor: number): number {
  const byTokens =
    budget.tokenBudget === undefined || !Number.isFinite(budget.tokenBudget)
      ? Infinity
      : Math.floor(budget.tokenBudget * CHARS_PER_TOKEN);
  return Math.max(floor, Math.min(budget.maxChars, byTokens));
}

/** Pages sized to the limit: the core's rule, shared with the MCP server's budget. */
export { pageSizeFor } from '../core/session/resultSizes';

/** Where `fd_to_file` may write: the workspace folders now, through the extension's file system port. */
export interface WriteEnvironment {
  roots(): readonly string[];
  readonly fileSystem: FileSystemPort;
  /** False in Restricted Mode: no tool reads workspace files then. */
  trusted(): boolean;
}

/** What an `fd_to_file` call would do, with the session its source was found in. */
export interface WritePlan extends WritePreview {
  readonly session?: SessionName;
}

export class LmToolRunner {
  constructor(
    private readonly sessions: CopilotSessions,
    private readonly environment: WriteEnvironment,
    /** The floor of every limit: `fdref.tools.maxResultChars`' minimum. */
    private readonly minChars: number,
    /** `search_fd` with `fd: "*"`: every session by default, as the tools read ids across sessions. */
    private readonly storeSearch?: StoreSearchPort,
  ) {}

  /** Runs `tool` with `input` and returns the text the model gets, at most the budget's characters (and tokens). */
  async run(tool: string, input: unknown, budget: ResultBudget): Promise<string> {
    const limit = resultCharLimit(budget, this.minChars);
    const pageSize = pageSizeFor(limit);
    const call = this.sessions.forCall();
    const context = { ...this.context(call, pageSize), resultChars: limit };
    const outcome: ToolOutcome = await runTool(context, tool, input, OFFERED);
    const text = outcome.ok ? outcome.text + foundNote(call, input) : outcome.text;
    return this.fit(tool, text, limit, pageSize, budget);
  }

  /**
   * What `fd_to_file` with `input` would write (for the confirmation), or the `ToolError` it would fail with. The
   * write itself checks everything again.
   */
  async previewWrite(record: ToolRecord, input: unknown): Promise<WritePlan> {
    const call = this.sessions.forCall();
    const preview = await record.preview?.(this.context(call, CORE_PAGE_SIZE), input);
    if (preview?.kind !== 'write') throw new Error(`${record.name} does not write files.`);
    const named = sessionArgument(input);
    const session = named === undefined ? call.foundIn.get(preview.source) : (await this.sessions.named(named)).name;
    return session === undefined ? preview : { ...preview, session };
  }

  private context(call: CallSession, pageSize: number): ToolContext {
    return {
      session: call,
      pageSize,
      workspaceRoots: this.environment.roots(),
      fileSystem: this.environment.fileSystem,
      workspaceTrusted: this.environment.trusted(),
      openSession: async (id) => (await this.sessions.named(id)).session,
      keep: { target: () => this.sessions.storeTextTarget(), inlineChars: STORE_TEXT_INLINE_CHARS },
      ...(this.storeSearch === undefined ? {} : { storeSearch: this.storeSearch }),
    };
  }

  /**
   * `text` when it is within the budget; else it is stored as a descriptor of this window's tools session and the
   * longest reply with a preview that is within it takes its place.
   */
  private async fit(
    tool: string,
    text: string,
    limit: number,
    pageSize: number,
    budget: ResultBudget,
  ): Promise<string> {
    if (text.length <= limit && (await withinTokens(text, budget))) return text;
    let stored;
    try {
      stored = await storeForReply(this.sessions.forCall(), { kind: 'tool_output', toolName: tool }, text, pageSize);
    } catch (error) {
      return new ToolError(
        'internal_error',
        `The result of ${tool} (${text.length} characters) is longer than the ${limit} allowed here and could not be stored: ${errorMessage(error)}`,
      ).toXml();
    }
    let maxChars = limit;
    let reply = stored.reply(maxChars);
    // A tokenizer can count more tokens than `CHARS_PER_TOKEN` assumes: shorter previews until it fits (or none).
    for (let attempt = 0; attempt < 6 && !(await withinTokens(reply, budget)); attempt++) {
      maxChars = Math.floor(maxChars * 0.6);
      reply = stored.reply(maxChars);
    }
    return reply;
  }
}

async function withinTokens(text: string, budget: ResultBudget): Promise<boolean> {
  if (budget.countTokens === undefined || budget.tokenBudget === undefined) return true;
  try {
    return (await budget.countTokens(text)) <= budget.tokenBudget;
  } catch {
    // A tokenizer that fails leaves the character limit, which already assumes few characters per token.
    return true;
  }
}

/** The `session` argument of a call, when it has one. */
function sessionArgument(input: unknown): string | undefined {
  const session = (input as { session?: unknown } | null | undefined)?.session;
  return typeof session === 'string' && session.trim() !== '' ? session : undefined;
}

/** Where the ids a call read without a `session` argument were found, for the model to name next time. */
function foundNote(call: CallSession, input: unknown): string {
  if (sessionArgument(input) !== undefined || call.foundIn.size === 0) return '';
  return (
    '\n' +
    [...call.foundIn]
      .slice(0, 5)
      .map(([id, session]) => emptyElement('found_in', { fd: id, session: session.id, session_name: session.name }))
      .join('\n')
  );
}
