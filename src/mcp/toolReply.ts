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
import { resultFacts, resultFactsSchema } from '../core/tools/resultFacts';
import { toolInputJsonSchema } from '../core/tools/schemas';
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
  /** Whether results carry `structuredContent` (not for a client whose model would see it instead of the text). */
  structured = true;

  constructor(private readonly given: number | undefined) {
    this.current = resultSizes(given ?? DEFAULT_RESULT_CHARS);
  }

  get sizes(): ResultSizes {
    return this.current;
  }

  /** Chooses the budget for the client named `name` (unless `--result-chars` set it); says what was chosen, and why. */
  fitClient(name: string | undefined): string {
    const budget = clientBudget(name);
    this.structured = budget.structured;
    const structured = budget.structured ? '' : ', no structuredContent';
    if (this.given !== undefined) return `results of at most ${this.given} characters (--result-chars)${structured}`;
    this.current = resultSizes(budget.resultChars);
    return `results of at most ${budget.resultChars} characters (${budget.client === undefined ? 'the default' : `the budget of ${budget.client}`})${structured}`;
  }
}

export interface ToolReply {
  readonly text: string;
  readonly links?: readonly ResourceLink[];
  /** The descriptor holding the call's own output (`ToolResult.kept`). */
  readonly kept?: string;
  /** Descriptors and refs the call made in this process's session. */
  readonly made?: readonly string[];
}

/**
 * A tool's reply as an MCP result, stored as a descriptor of `own` when over `sizes.resultChars` and answered with
 * the longest preview that keeps the whole text within it; with the result's facts as `structuredContent` for a
 * client that gets them.
 */
export async function toolResult(
  toolName: string,
  reply: ToolReply,
  own: () => Promise<StoreToolSession>,
  budget: Pick<ResultBudget, 'sizes' | 'structured'>,
): Promise<CallToolResult> {
  const { sizes } = budget;
  const session = await own();
  const facts = (text: string, storedAs?: string): Pick<CallToolResult, 'structuredContent'> =>
    !budget.structured
      ? {}
      : {
          structuredContent: resultFacts(text, {
            tool: toolName,
            session: session.id,
            ...(reply.kept === undefined ? {} : { kept: reply.kept }),
            ...(reply.made === undefined ? {} : { made: reply.made }),
            ...(storedAs === undefined ? {} : { storedAs }),
          }),
        };
  if (reply.text.length <= sizes.resultChars)
    return { content: [{ type: 'text', text: reply.text }, ...(reply.links ?? [])], ...facts(reply.text) };
  const stored = await storeForReply(session, { kind: 'tool_output', toolName }, reply.text, sizes.pageSize);
  const text = stored.reply(sizes.resultChars);
  return {
    content: [{ type: 'text', text }, resourceLink(session.id, stored.descriptor), ...(reply.links ?? [])],
    ...facts(text, stored.descriptor.id),
  };
}

/**
 * The `outputSchema` of every tool: the facts of its result (`resultFactsSchema`), which each successful result
 * carries as `structuredContent` beside its text (the SDK checks it against this; an error carries none).
 */
export const RESULT_FACTS_OUTPUT: StandardSchemaWithJSON<Record<string, unknown>> = (() => {
  const json = toolInputJsonSchema(resultFactsSchema, 'output') as Record<string, unknown>;
  return {
    '~standard': {
      version: 1,
      vendor: 'fdref',
      validate: (value: unknown) => {
        const parsed = resultFactsSchema.safeParse(value);
        return parsed.success
          ? { value: parsed.data }
          : { issues: parsed.error.issues.map((issue) => ({ message: issue.message, path: issue.path })) };
      },
      jsonSchema: { input: () => json, output: () => json },
    },
  };
})();

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
