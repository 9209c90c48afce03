import type * as z from 'zod';
import { fdToFile } from './fdToFile';
import { readFd } from './readFd';
import { getRef, listRefs } from './refTools';
import { searchFd } from './searchFd';
import {
  describeIssues,
  fdToFileInput,
  getRefInput,
  listRefsInput,
  readFdInput,
  searchFdInput,
  toolInputJsonSchema,
} from './schemas';
import { readingSession, schemaFor } from './sessionArgument';
import { quoteInput } from '../quoteInput';
import type { ToolContext, ToolSession } from './toolContext';
import { ToolError, unexpectedToolError } from '../toolError';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: object;
}

interface Tool<S extends z.ZodObject> {
  name: string;
  description: string;
  schema: S;
  /** Runs the call; `source` is the session it reads (the context's own, or the one its `session` argument names). */
  run(context: ToolContext, input: z.output<S>, source: ToolSession): string | Promise<string>;
}

function tool<S extends z.ZodObject>(definition: Tool<S>): Tool<S> {
  return definition;
}

const TOOLS = [
  tool({
    name: 'read_fd',
    description:
      'Read stored content: a file descriptor (fd:N, large tool output or user input) or a ref (ref:id) you marked earlier. ' +
      'Reads one page by default; mode "line" or "char" reads exact ranges, mode "tail" the last count lines ' +
      '(at most a page). read_all returns everything when it fits in one result, else the first pages and how to read ' +
      'the rest. extract_to_new_fd stores the selection as a new descriptor.',
    schema: readFdInput,
    run: readFd,
  }),
  tool({
    name: 'search_fd',
    description:
      'Find the lines of a descriptor or ref that contain a text (or match a regular expression with regex=true), ' +
      'case-insensitive unless case_sensitive=true. Shows each matching line with its line number and context ' +
      'lines, the first max_results of them, and counts every match; read around one with read_fd mode "line". ' +
      'A result longer than a page is stored as a new descriptor and its first page shown.',
    schema: searchFdInput,
    run: searchFd,
  }),
  tool({
    name: 'fd_to_file',
    description:
      'Write a descriptor or ref to a file in the workspace: replace it (mode "write", the default), add to its end ' +
      '("append"), or insert before a line ("insert" with line). Parent folders are created.',
    schema: fdToFileInput,
    run: fdToFile,
  }),
  tool({
    name: 'list_refs',
    description: 'List the refs of this conversation with their sizes, languages and number of versions.',
    schema: listRefsInput,
    run: (context, _input, source) => listRefs(context, source),
  }),
  tool({
    name: 'get_ref',
    description:
      'Get the content of a ref by id ("my_code", "ref:my_code", or an earlier version "my_code@1"): all of it when ' +
      'it fits in one result, else its first pages and how to read the rest with read_fd.',
    schema: getRefInput,
    run: getRef,
  }),
] as const;

/** Names of the tools that read descriptors themselves, whose output is never wrapped into a new one. */
export const DESCRIPTOR_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

/**
 * The tools as a model is told about them, with JSON Schema generated from their zod schemas. With
 * `sessionArgument`, each also takes the optional `session` argument (for a context with `openSession`);
 * `sessionDescription` replaces what that argument says of itself (a surface that names sessions otherwise).
 */
export function toolDefinitions(
  options: { sessionArgument?: boolean; sessionDescription?: string } = {},
): ToolDefinition[] {
  const context = options.sessionArgument === true ? { openSession: () => Promise.reject(new Error('unused')) } : {};
  return TOOLS.map((t) => {
    const inputSchema = toolInputJsonSchema(schemaFor(t.schema, context));
    const session = (inputSchema as { properties?: Record<string, { description?: string }> }).properties?.['session'];
    if (session !== undefined && options.sessionDescription !== undefined)
      session.description = options.sessionDescription;
    return { name: t.name, description: t.description, inputSchema };
  });
}

/**
 * What a tool call gave back: the XML the model sees, and whether the call failed (then the XML is the
 * `<fd_error>` of `error`). Callers branch on `ok`, never on the text.
 */
export type ToolOutcome =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly text: string; readonly error: ToolError };

/** The outcome of a call that failed with `error`. */
export function toolFailure(error: ToolError): ToolOutcome {
  return { ok: false, text: error.toXml(), error };
}

/**
 * Runs a tool call over `context.session` (or, with `context.openSession`, the session a `session` argument names);
 * every failure becomes an outcome with `<fd_error>`, nothing throws.
 */
export async function runTool(context: ToolContext, name: string, args: unknown): Promise<ToolOutcome> {
  try {
    const found = TOOLS.find((t) => t.name === name);
    if (found === undefined) {
      throw new ToolError(
        'invalid_argument',
        `Unknown tool ${quoteInput(name)}. The tools are ${TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    const parsed = schemaFor(found.schema, context).safeParse(args ?? {});
    if (!parsed.success) {
      const fd = typeof (args as { fd?: unknown } | null)?.fd === 'string' ? (args as { fd: string }).fd : undefined;
      throw new ToolError('invalid_argument', `${name}: ${describeIssues(parsed.error)}.`, fd);
    }
    const source = await readingSession(context, parsed.data);
    const tool = found as unknown as Tool<z.ZodObject>;
    return { ok: true, text: await tool.run(context, parsed.data, source) };
  } catch (error) {
    if (error instanceof ToolError) return toolFailure(error);
    return toolFailure(unexpectedToolError(name, error, name === 'fd_to_file'));
  }
}
