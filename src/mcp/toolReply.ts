/**
 * How a tool's answer becomes an MCP `CallToolResult`: the XML text the chat's model sees too, resource links to
 * what the call made, `isError` with the core's `<fd_error>` for a failure. No result is longer than the
 * client's budget (`ResultBudget`): a longer one is stored as a descriptor of this process's session and answered
 * with a preview, so the client never cuts it and never spills it to a file.
 */
import type { CallToolResult, ResourceLink, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { clientBudget, DEFAULT_RESULT_CHARS } from '../core/agents/clientBudgets';
import { resultSizes, type ResultSizes } from '../core/session/resultSizes';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError, unexpectedToolError } from '../core/toolError';
import { storeForReply } from '../core/tools/descriptorPreview';
import { resourceLink } from './resourceUris';

/** The longest output returned whole to a client with the default budget: what docs/TOOLS.md says. */
export const INLINE_OUTPUT_CHARS = resultSizes(DEFAULT_RESULT_CHARS).inlineChars;

/**
 * The most characters one tool result holds, and the pages and inline output sized to it (`resultSizes`): from
 * `--result-chars` when given, else from the client's name once it has initialized (`clientBudget`); until then,
 * and for a client fdref does not know, `DEFAULT_RESULT_CHARS`.
 */
export class ResultBudget {
  private current: ResultSizes;

  constructor(private readonly given: number | undefined) {
    this.current = resultSizes(given ?? DEFAULT_RESULT_CHARS);
  }

  get sizes(): ResultSizes {
    return this.current;
  }

  /** Chooses the budget for the client named `name` (unless `--result-chars` set it); says what was chosen, and why. */
  fitClient(name: string | undefined): string {
    if (this.given !== undefined) return `results of at most ${this.given} characters (--result-chars)`;
    const budget = clientBudget(name);
    this.current = resultSizes(budget.resultChars);
    return `results of at most ${budget.resultChars} characters (${budget.client === undefined ? 'the default' : `the budget of ${budget.client}`})`;
  }
}

export interface ToolReply {
  readonly text: string;
  readonly links?: readonly ResourceLink[];
}

/**
 * A tool's reply as an MCP result, stored as a descriptor of `own` when over `sizes.resultChars` and answered with
 * the longest preview that keeps the whole text within it.
 */
export async function toolResult(
  toolName: string,
  reply: ToolReply,
  own: () => Promise<StoreToolSession>,
  sizes: ResultSizes,
): Promise<CallToolResult> {
  if (reply.text.length <= sizes.resultChars)
    return { content: [{ type: 'text', text: reply.text }, ...(reply.links ?? [])] };
  const session = await own();
  const stored = await storeForReply(session, { kind: 'tool_output', toolName }, reply.text, sizes.pageSize);
  return {
    content: [
      { type: 'text', text: stored.reply(sizes.resultChars) },
      resourceLink(session.id, stored.descriptor),
      ...(reply.links ?? []),
    ],
  };
}

/**
 * A failure as an MCP tool error carrying the core's `<fd_error>`; anything but a `ToolError` is unexpected
 * (`unexpectedToolError`: a `read_error` for a tool that only reads, else an `internal_error`).
 */
export function errorResult(toolName: string, error: unknown, reads: boolean): CallToolResult {
  const failure = error instanceof ToolError ? error : unexpectedToolError(toolName, error, !reads);
  return { content: [{ type: 'text', text: failure.toXml() }], isError: true };
}

/**
 * A schema for the SDK that shows the tool's JSON Schema and lets every argument through: the tool checks its
 * arguments with its own zod schema, so the messages are the core's (`start: must be a whole number (got "x")`)
 * and numbers sent as strings are taken as the chat takes them.
 */
export function advertisedSchema(jsonSchema: object): StandardSchemaWithJSON<Record<string, unknown>> {
  return {
    '~standard': {
      version: 1,
      vendor: 'fdref',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: {
        input: () => jsonSchema as Record<string, unknown>,
        output: () => jsonSchema as Record<string, unknown>,
      },
    },
  };
}
