/**
 * Every model-facing tool, one record each (`toolRecord.ts`), and how a call of one runs. Each surface takes what
 * it offers from here: the chat's tool list, consent and summaries, the MCP server's registrations and
 * `--read-only`, VS Code's language model tools and their manifest, the system prompt, the docs' tables.
 * Adding a tool: its file with its record, its test, and one line below.
 */
import { diffFdTool } from './diffFd';
import { fdToFileTool } from './fdToFile';
import { listFdsTool } from './listFds';
import { readFdTool } from './readFd';
import { getRefTool, listRefsTool } from './refTools';
import { runCommandRecord } from './runCommand';
import { queryFdTool } from './queryFd';
import { searchFdTool } from './searchFd';
import { storeTextTool } from './storeText';
import { waitCommandTool } from './waitCommand';
import { describeIssues, parseToolArguments, toolInputJsonSchema } from './schemas';
import { readingSession, schemaFor } from './sessionArgument';
import { quoteInput } from '../quoteInput';
import type { ToolContext } from './toolContext';
import { onlyReads, type Surface, type ToolRecord, type ToolResult } from './toolRecord';
import { ToolError, unexpectedToolError } from '../toolError';

export const TOOLS: readonly ToolRecord[] = [
  readFdTool,
  searchFdTool,
  fdToFileTool,
  listRefsTool,
  getRefTool,
  listFdsTool,
  queryFdTool,
  diffFdTool,
  storeTextTool,
  runCommandRecord,
  waitCommandTool,
];

const BY_NAME = new Map(TOOLS.map((t) => [t.name, t]));

/** The record of the tool called `name`, if fdref has one. */
export function toolRecord(name: string): ToolRecord | undefined {
  return BY_NAME.get(name);
}

/** The tools `surface` offers, in the table's order. */
export function toolsOn(surface: Surface): ToolRecord[] {
  return TOOLS.filter((t) => t.surfaces.includes(surface));
}

/** A tool as a model is told about it. */
export interface ToolDefinition {
  name: string;
  description: string;
  inputSchema: object;
}

export interface DefinitionOptions {
  /** Whether the tools that read sessions take the `session` argument (a context with `openSession`). */
  readonly sessionArgument?: boolean;
  /** What the `session` argument says of itself, where a surface names sessions otherwise. */
  readonly sessionDescription?: string;
  /** The longest output the surface returns as it is (said in some descriptions). */
  readonly inlineChars: number;
}

/** `record` as a model is told about it, with JSON Schema generated from its zod schema. */
export function toolDefinition(record: ToolRecord, options: DefinitionOptions): ToolDefinition {
  const sessions = options.sessionArgument === true && record.sessionArgument;
  const context = sessions ? { openSession: () => Promise.reject(new Error('unused')) } : {};
  const inputSchema = toolInputJsonSchema(schemaFor(record.schema, context, record.sessionFields));
  const session = (inputSchema as { properties?: Record<string, { description?: string }> }).properties?.['session'];
  if (session !== undefined && options.sessionDescription !== undefined)
    session.description = options.sessionDescription;
  const description =
    typeof record.description === 'string' ? record.description : record.description(options.inlineChars);
  return { name: record.name, description, inputSchema };
}

/**
 * What a tool call gave back: the XML the model sees, and whether the call failed (then the XML is the
 * `<fd_error>` of `error`). Callers branch on `ok`, never on the text.
 */
export type ToolOutcome =
  ({ readonly ok: true } & ToolResult) | { readonly ok: false; readonly text: string; readonly error: ToolError };

/** The outcome of a call that failed with `error`. */
export function toolFailure(error: ToolError): ToolOutcome {
  return { ok: false, text: error.toXml(), error };
}

/**
 * Runs a call of one of `offered` (default: every tool) over `context.session` (or, with `context.openSession`,
 * the session a `session` argument names); every failure becomes an outcome with `<fd_error>`, nothing throws.
 */
export async function runTool(
  context: ToolContext,
  name: string,
  args: unknown,
  offered: readonly ToolRecord[] = TOOLS,
): Promise<ToolOutcome> {
  const found = offered.find((t) => t.name === name);
  try {
    if (found === undefined) {
      throw new ToolError(
        'invalid_argument',
        `Unknown tool ${quoteInput(name)}. The tools are ${offered.map((t) => t.name).join(', ')}.`,
      );
    }
    const schema = found.sessionArgument ? schemaFor(found.schema, context, found.sessionFields) : found.schema;
    const parsed = parseToolArguments(schema, args);
    if (!parsed.success) {
      const fd = typeof (args as { fd?: unknown } | null)?.fd === 'string' ? (args as { fd: string }).fd : undefined;
      throw new ToolError('invalid_argument', `${name}: ${describeIssues(parsed.error)}.`, fd);
    }
    const readsOne = found.sessionArgument && (found.readsSession?.(parsed.data) ?? true);
    const source = readsOne ? await readingSession(context, parsed.data) : context.session;
    const result = await found.run(context, parsed.data, source);
    return typeof result === 'string' ? { ok: true, text: result } : { ok: true, ...result };
  } catch (error) {
    if (error instanceof ToolError) return toolFailure(error);
    return toolFailure(unexpectedToolError(name, error, found !== undefined && !onlyReads(found)));
  }
}
