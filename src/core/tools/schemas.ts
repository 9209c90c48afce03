import * as z from 'zod';
import { clipInput, LISTED_PROBLEMS, listSome, quoteInput } from '../quoteInput';

/**
 * The zod schemas of the five model-facing tools. Models often send numbers and booleans as strings
 * (`"3"`, `"true"`), so those are accepted; the JSON Schema shown to the model still says
 * `integer` / `boolean` (see `toolInputJsonSchema`).
 */

/**
 * The lenient schemas and the plain JSON Schema type each stands for. A registry of its own, not `.meta()`: zod
 * copies meta into the JSON Schema, and clients (Qwen Code, Cline, Gemini CLI) pass a tool's schema on to model
 * APIs that may refuse a keyword outside the JSON Schema vocabulary.
 */
const lenient = z.registry<{ readonly type: 'integer' | 'boolean' }>();

export const wholeNumber = z
  .union(
    [
      z.number().int(),
      z
        .string()
        .regex(/^\s*[-+]?\d+\s*$/)
        .transform(Number),
    ],
    {
      error: (issue) => `must be a whole number (got ${quoteInput(issue.input)})`,
    },
  )
  .register(lenient, { type: 'integer' });

export const flag = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
    error: (issue) => `must be true or false (got ${quoteInput(issue.input)})`,
  })
  .register(lenient, { type: 'boolean' });

/** Lines `read_fd` mode "tail" gives when no count is given. */
export const DEFAULT_TAIL_LINES = 50;

export const readFdInput = z.strictObject({
  fd: z.string().describe('Descriptor to read: "fd:3", "ref:my_code" or an earlier version "ref:my_code@1".'),
  mode: z
    .enum(['page', 'line', 'char', 'tail'])
    .optional()
    .describe(
      'How start and count are counted: pages (default), lines, characters, or "tail": the last count lines ' +
        `(default ${DEFAULT_TAIL_LINES}, at most one page of characters; start is not used).`,
    ),
  start: wholeNumber
    .optional()
    .describe(
      'Page mode: first page, 1-based (default 1). Line mode: first line, 1-based. Char mode: offset, 0-based (default 0).',
    ),
  count: wholeNumber
    .optional()
    .describe('How many pages, lines or characters to read (default: one page; tail: the number of last lines).'),
  read_all: flag
    .optional()
    .describe(
      'Return the whole content when it fits in one result (with extract_to_new_fd: always all of it); a longer one gives its first pages and says how to read the rest.',
    ),
  extract_to_new_fd: flag
    .optional()
    .describe('Store the selection as a new descriptor and return its id instead of the text.'),
});

/** Lines of context `search_fd` shows around a match by default, and at most. */
export const DEFAULT_SEARCH_CONTEXT = 2;
export const MAX_SEARCH_CONTEXT = 10;
/** Matches `search_fd` shows by default, and at most (it always counts them all). */
export const DEFAULT_SEARCH_RESULTS = 50;
export const MAX_SEARCH_RESULTS = 500;
/** The longest pattern `search_fd` accepts. */
export const MAX_PATTERN_CHARS = 1000;

/** `search_fd`'s `session`, which also takes "*" (every session) where the surface can search the whole store. */
export const searchSessionField = z
  .string()
  .min(1)
  .optional()
  .describe(
    'The session to search or read from, by its id or exact name (case-insensitive; list_sessions lists them), or ' +
      '"*" with fd="*" for every session; default this session.',
  );

export const searchFdInput = z.strictObject({
  fd: z
    .string()
    .describe(
      'Descriptor to search: "fd:3", "ref:my_code" or "ref:my_code@1"; or "*" for every descriptor and ref of the ' +
        'session (of every session with session="*"), best matches first.',
    ),
  pattern: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(MAX_PATTERN_CHARS, { message: `must be at most ${MAX_PATTERN_CHARS} characters` })
    .describe(
      'Text to find in each line (a JavaScript regular expression when regex is true). With fd="*" plain text ' +
        'found by its words: it must start at the start of a word.',
    ),
  regex: flag
    .optional()
    .describe('Treat pattern as a regular expression (default false: plain text; not with fd="*").'),
  case_sensitive: flag.optional().describe('Match case exactly (default false: "error" also finds "Error").'),
  context: wholeNumber
    .optional()
    .describe(
      `Lines shown before and after each match (default ${DEFAULT_SEARCH_CONTEXT}, at most ${MAX_SEARCH_CONTEXT}).`,
    ),
  max_results: wholeNumber
    .optional()
    .describe(
      `Most matching lines shown (default ${DEFAULT_SEARCH_RESULTS}, at most ${MAX_SEARCH_RESULTS}); all are counted.`,
    ),
  origin: z
    .string()
    .min(1)
    .optional()
    .describe('With fd="*": only output from this source: "chat", "terminal", or an agent ("claude-code", "codex").'),
  command: z
    .string()
    .min(1)
    .optional()
    .describe('With fd="*": only output of commands whose command line contains this text.'),
  since: z
    .string()
    .min(1)
    .optional()
    .describe(
      'With fd="*": only output kept since this time: ISO 8601 ("2026-11-27T10:00") or an age ("30m", "2h", "7d").',
    ),
  until: z.string().min(1).optional().describe('With fd="*": only output kept until this time (as since).'),
  offset: wholeNumber
    .optional()
    .describe('With fd="*": results to skip, for the next page (the result says where the next page starts).'),
  session: searchSessionField,
});

/** The longest jq program `query_fd` accepts. */
export const MAX_QUERY_CHARS = 4000;
/** How long a `query_fd` program may run by default, and at most, in seconds. */
export const DEFAULT_QUERY_TIMEOUT_S = 10;
export const MAX_QUERY_TIMEOUT_S = 60;

export const queryFdInput = z.strictObject({
  fd: z.string().describe('Descriptor holding JSON or JSON Lines: "fd:3", "ref:payload".'),
  query: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(MAX_QUERY_CHARS, { message: `must be at most ${MAX_QUERY_CHARS} characters` })
    .describe('A jq program, e.g. ".items[] | select(.status != 200) | .url" or "keys".'),
  slurp: flag
    .optional()
    .describe(
      'Read every value (each line of JSON Lines) into one array first, as jq --slurp (default false: the ' +
        'program runs on each value in turn).',
    ),
  raw: flag.optional().describe('Output strings as their text, without quotes, as jq -r (default false).'),
  timeout_s: wholeNumber
    .optional()
    .describe(`Seconds the program may run (default ${DEFAULT_QUERY_TIMEOUT_S}, at most ${MAX_QUERY_TIMEOUT_S}).`),
});

export type QueryFdInput = z.output<typeof queryFdInput>;

/** Longer than any path a file system accepts (Linux's PATH_MAX); a longer one is refused before it is resolved. */
const MAX_PATH_CHARS = 4096;

export const fdToFileInput = z.strictObject({
  fd: z.string().describe('Descriptor or ref to write: "fd:3", "ref:my_code".'),
  file_path: z
    .string()
    .min(1)
    .max(MAX_PATH_CHARS, { message: `must be at most ${MAX_PATH_CHARS} characters` })
    .describe('Target file, relative to the workspace folder or absolute inside it.'),
  mode: z
    .enum(['write', 'append', 'insert'])
    .optional()
    .describe(
      'write (default) creates or replaces the file; append adds at the end; insert puts the content before `line`.',
    ),
  line: wholeNumber
    .optional()
    .describe('With mode "insert": the 1-based line to insert before; total lines + 1 inserts at the end.'),
  create: flag.optional().describe('Create the file when it does not exist (default true).'),
  exist_ok: flag.optional().describe('Allow the file to exist already (default true).'),
});

export const listRefsInput = z.strictObject({});

export const getRefInput = z.strictObject({
  id: z.string().describe('Ref id, with or without the "ref:" prefix, e.g. "my_code" or "ref:my_code@1".'),
});

export type ReadFdInput = z.output<typeof readFdInput>;
export type SearchFdInput = z.output<typeof searchFdInput>;
export type FdToFileInput = z.output<typeof fdToFileInput>;
export type GetRefInput = z.output<typeof getRefInput>;

/** JSON Schema of a tool's input (or of what it gives back), as a model or a client should see it. */
export function toolInputJsonSchema(schema: z.ZodType, io: 'input' | 'output' = 'input'): object {
  const json = z.toJSONSchema(schema, {
    io,
    override: (ctx) => {
      const plain = lenient.get(ctx.zodSchema as unknown as z.ZodType);
      if (plain === undefined) return;
      const target = ctx.jsonSchema as Record<string, unknown>;
      delete target['anyOf'];
      target['type'] = plain.type;
    },
  }) as Record<string, unknown>;
  delete json['$schema'];
  return json;
}

/**
 * Arguments some clients add to every tool call, for themselves, whatever the tool's schema says. They are dropped
 * before a call is checked, on every surface, so that they never fail it:
 * - `wait_for_previous` (boolean): Gemini CLI adds it to every tool's schema and the model sets it to ask for the
 *   call to wait for the ones before it in the turn (google-gemini/gemini-cli `packages/core/src/tools/tools.ts`,
 *   `addWaitForPreviousParameter`; read back by `packages/core/src/scheduler/scheduler.ts`, `_isParallelizable`),
 *   and passes it on to MCP servers with the rest of the arguments.
 * Any other unknown argument is still refused with its name (`describeIssues`): it is most often a model's
 * misspelling of an option that changes what is read or written (`lines` for `count`, `overwrite` for
 * `exist_ok`), and a call run without it would answer something else than what was asked, silently.
 */
export const CLIENT_ADDED_ARGUMENTS: readonly string[] = ['wait_for_previous'];

/**
 * `schema.safeParse(args)` with the arguments clients add for themselves (`CLIENT_ADDED_ARGUMENTS`) left out,
 * unless the tool takes an argument of that name. The one way every surface checks a call's arguments.
 */
export function parseToolArguments<S extends z.ZodType>(schema: S, args: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(withoutClientAdditions(schema, args ?? {}));
}

function withoutClientAdditions(schema: z.ZodType, args: unknown): unknown {
  if (!(schema instanceof z.ZodObject) || typeof args !== 'object' || args === null || Array.isArray(args)) return args;
  const added = CLIENT_ADDED_ARGUMENTS.filter((key) => Object.hasOwn(args, key) && !(key in schema.shape));
  if (added.length === 0) return args;
  const kept: Record<string, unknown> = { ...(args as Record<string, unknown>) };
  for (const key of added) delete kept[key];
  return kept;
}

/**
 * One readable line per problem, e.g. `start: must be a whole number (got "x")`: at most `LISTED_PROBLEMS`
 * problems, each quoting at most a short prefix of the input, however many and however large the problems are.
 */
export function describeIssues(error: z.ZodError): string {
  const problems = error.issues.slice(0, LISTED_PROBLEMS).map((issue) => {
    if (issue.code === 'unrecognized_keys') return `unknown argument ${listSome(issue.keys.map(quoteInput))}`;
    const where = issue.path.length > 0 ? clipInput(issue.path.join('.')) : 'arguments';
    if (issue.code === 'invalid_type' && issue.input === undefined) return `${where}: is required`;
    return `${where}: ${issue.message}`;
  });
  const more = error.issues.length - LISTED_PROBLEMS;
  return more > 0 ? `${problems.join('; ')}; and ${more} more problem${more === 1 ? '' : 's'}` : problems.join('; ');
}
