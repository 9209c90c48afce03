import * as z from 'zod';
import { clipInput, LISTED_PROBLEMS, listSome, quoteInput } from '../quoteInput';

/**
 * The zod schemas of the four model-facing tools. Models often send numbers and booleans as strings
 * (`"3"`, `"true"`), so those are accepted; the JSON Schema shown to the model still says
 * `integer` / `boolean` (see `toolInputJsonSchema`).
 */

const LENIENT = 'fdrefLenient';

const wholeNumber = z
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
  .meta({ [LENIENT]: 'integer' });

const flag = z
  .union([z.boolean(), z.enum(['true', 'false']).transform((value) => value === 'true')], {
    error: (issue) => `must be true or false (got ${quoteInput(issue.input)})`,
  })
  .meta({ [LENIENT]: 'boolean' });

export const readFdInput = z.strictObject({
  fd: z.string().describe('Descriptor to read: "fd:3", "ref:my_code" or an earlier version "ref:my_code@1".'),
  mode: z
    .enum(['page', 'line', 'char'])
    .optional()
    .describe('How start and count are counted: pages (default), lines, or characters.'),
  start: wholeNumber
    .optional()
    .describe(
      'Page mode: first page, 1-based (default 1). Line mode: first line, 1-based. Char mode: offset, 0-based (default 0).',
    ),
  count: wholeNumber.optional().describe('How many pages, lines or characters to read (default: one page).'),
  read_all: flag.optional().describe('Return the whole content at once.'),
  extract_to_new_fd: flag
    .optional()
    .describe('Store the selection as a new descriptor and return its id instead of the text.'),
});

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
export type FdToFileInput = z.output<typeof fdToFileInput>;
export type GetRefInput = z.output<typeof getRefInput>;

/** JSON Schema of a tool's input, as a model should see it. */
export function toolInputJsonSchema(schema: z.ZodType): object {
  const json = z.toJSONSchema(schema, {
    io: 'input',
    override: (ctx) => {
      const lenient = z.globalRegistry.get(ctx.zodSchema as unknown as z.ZodType)?.[LENIENT];
      if (typeof lenient !== 'string') return;
      const target = ctx.jsonSchema as Record<string, unknown>;
      delete target['anyOf'];
      target['type'] = lenient;
    },
  }) as Record<string, unknown>;
  delete json['$schema'];
  return json;
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
