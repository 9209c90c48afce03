import type * as z from 'zod';
import { fdToFile } from './fdToFile';
import { readFd } from './readFd';
import { getRef, listRefs } from './refTools';
import { describeIssues, fdToFileInput, getRefInput, listRefsInput, readFdInput, toolInputJsonSchema } from './schemas';
import { quoteInput } from '../quoteInput';
import type { ToolContext } from './toolContext';
import { ToolError } from '../toolError';
import { errorMessage } from '../errors';

export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: object;
}

interface Tool<S extends z.ZodType> {
  name: string;
  description: string;
  schema: S;
  run(context: ToolContext, input: z.output<S>): string | Promise<string>;
}

function tool<S extends z.ZodType>(definition: Tool<S>): Tool<S> {
  return definition;
}

const TOOLS = [
  tool({
    name: 'read_fd',
    description:
      'Read stored content: a file descriptor (fd:N, large tool output or user input) or a ref (ref:id) you marked earlier. ' +
      'Reads one page by default; use mode "line" or "char" for exact ranges, read_all for everything, ' +
      'extract_to_new_fd to store a selection as a new descriptor.',
    schema: readFdInput,
    run: readFd,
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
    run: (context) => listRefs(context),
  }),
  tool({
    name: 'get_ref',
    description: 'Get the whole content of a ref by id ("my_code", "ref:my_code", or an earlier version "my_code@1").',
    schema: getRefInput,
    run: getRef,
  }),
] as const;

/** Names of the tools that read descriptors themselves, whose output is never wrapped into a new one. */
export const DESCRIPTOR_TOOL_NAMES: ReadonlySet<string> = new Set(TOOLS.map((t) => t.name));

/** The tools as a model is told about them, with JSON Schema generated from their zod schemas. */
export function toolDefinitions(): ToolDefinition[] {
  return TOOLS.map((t) => ({ name: t.name, description: t.description, inputSchema: toolInputJsonSchema(t.schema) }));
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

/** Runs a tool call; every failure becomes an outcome with `<fd_error>`, nothing throws. */
export async function runTool(context: ToolContext, name: string, args: unknown): Promise<ToolOutcome> {
  try {
    const found = TOOLS.find((t) => t.name === name);
    if (found === undefined) {
      throw new ToolError(
        'invalid_argument',
        `Unknown tool ${quoteInput(name)}. The tools are ${TOOLS.map((t) => t.name).join(', ')}.`,
      );
    }
    const parsed = found.schema.safeParse(args ?? {});
    if (!parsed.success) {
      const fd = typeof (args as { fd?: unknown } | null)?.fd === 'string' ? (args as { fd: string }).fd : undefined;
      throw new ToolError('invalid_argument', `${name}: ${describeIssues(parsed.error)}.`, fd);
    }
    return {
      ok: true,
      text: await (found.run as (c: ToolContext, i: unknown) => string | Promise<string>)(context, parsed.data),
    };
  } catch (error) {
    if (error instanceof ToolError) return toolFailure(error);
    return toolFailure(new ToolError('write_error', `${name} failed unexpectedly: ${errorMessage(error)}`));
  }
}
