/**
 * How a tool's answer becomes an MCP `CallToolResult`: the XML text the chat's model sees too, resource links to
 * what the call made, `isError` with the core's `<fd_error>` for a failure. No result is longer than
 * `RESULT_MAX_CHARS`: a longer one is stored as a descriptor of this process's session and answered with a
 * preview, so nothing is cut and no client spills it to a file.
 */
import type { CallToolResult, ResourceLink, StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import { resolveOptions } from '../core/session/options';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError, unexpectedToolError } from '../core/toolError';
import { wrapInToolSession } from '../core/tools/descriptorPreview';
import { resourceLink } from './resourceUris';

/**
 * The most characters one tool result holds. Claude Code saves results over about 50,000 characters to a file
 * and Codex cuts at 10 KB of tokens' worth; 40,000 stays inline in the first with room for the links.
 */
export const RESULT_MAX_CHARS = 40_000;
/** Pages and the inline limit are the chat's (one home: the session options' defaults). */
export const { pageSize: PAGE_SIZE, maxDirectOutputChars: INLINE_OUTPUT_CHARS } = resolveOptions();

export interface ToolReply {
  readonly text: string;
  readonly links?: readonly ResourceLink[];
}

/** A tool's reply as an MCP result, stored as a descriptor of `own` (and previewed) when over the cap. */
export async function toolResult(
  toolName: string,
  reply: ToolReply,
  own: () => Promise<StoreToolSession>,
): Promise<CallToolResult> {
  if (reply.text.length <= RESULT_MAX_CHARS)
    return { content: [{ type: 'text', text: reply.text }, ...(reply.links ?? [])] };
  const session = await own();
  const wrapped = await wrapInToolSession(
    session,
    { kind: 'tool_output', toolName },
    reply.text,
    PAGE_SIZE,
    RESULT_MAX_CHARS,
  );
  const stored = wrapped.descriptor === undefined ? [] : [resourceLink(session.id, wrapped.descriptor)];
  return { content: [{ type: 'text', text: wrapped.text }, ...stored, ...(reply.links ?? [])] };
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
