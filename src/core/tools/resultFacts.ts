/**
 * The facts of a tool's result a client can use without reading its XML (MCP `structuredContent`): the text
 * itself (clients that prefer `structuredContent` show the model that alone), what it is, the descriptor it is
 * about, its sizes, a command's exit, whether the text is all of it. Taken from the result's
 * opening tag (every tool's result starts with one; `openingTag`, the chat's summaries read it too) and from what
 * the call says it made, so every tool gets them without each keeping a second copy of its answer.
 */
import * as z from 'zod';
import { openingTag } from './headline';

const count = z.number().int().min(0);

export const resultFactsSchema = z.object({
  text: z.string().describe('The result, as its text content gives it.'),
  tool: z.string().describe('The tool that answered.'),
  session: z.string().describe("The id of this server's session, which holds what the call made."),
  element: z
    .string()
    .describe('The XML element the text is (fd_content, fd_result, command_result, search_result, ...); "" for none.'),
  handle: z
    .string()
    .optional()
    .describe('The descriptor the result is about or made ("fd:3", "ref:x"): read, search or write it by this id.'),
  chars: count.optional().describe('Characters of that content, where the result says.'),
  lines: count.optional().describe('Lines of that content, where the result says.'),
  pages: count.optional().describe('Pages of that content, where the result says.'),
  exit_code: z.number().int().optional().describe("A command's exit code."),
  signal: z.string().optional().describe('The signal that ended a command.'),
  timed_out: z.boolean().optional().describe('Whether a command was ended by its time limit.'),
  truncated: z
    .boolean()
    .describe('Whether the text shows only part of what it stands for; the rest is read through handle.'),
  stored_as: z
    .string()
    .optional()
    .describe("The descriptor the whole answer was kept in, when it was longer than this client's results may be."),
  made: z.array(z.string()).describe('Descriptors and refs the call made in this session.'),
  attributes: z.record(z.string(), z.string()).describe("The attributes of the result's element, as they are."),
});

export type ResultFacts = z.output<typeof resultFactsSchema>;

/** What the facts are taken from besides the text. */
export interface ResultContext {
  readonly tool: string;
  readonly session: string;
  /** The descriptor holding the call's own output (a command's long output), when there is one. */
  readonly kept?: string;
  readonly made?: readonly string[];
  /** The descriptor the whole text was stored as, when the text given is the reply standing for it. */
  readonly storedAs?: string;
}

/** The facts of `text`, a successful result (errors carry none: their `<fd_error>` says it all). */
export function resultFacts(text: string, context: ResultContext): ResultFacts {
  const tag = openingTag(text);
  const attributes = tag?.attributes ?? {};
  const whole = (name: string): number | undefined => {
    const value = attributes[name];
    return value !== undefined && /^\d{1,15}$/.test(value) ? Number(value) : undefined;
  };
  // `<fd_result>` is a result the core itself kept as a descriptor because it was long (`wrapInToolSession`).
  const storedAs = context.storedAs ?? (tag?.name === 'fd_result' ? attributes['fd'] : undefined);
  const handle = storedAs ?? attributes['new_fd'] ?? context.kept ?? attributes['fd'];
  const exit = attributes['exit_code'];
  const facts: ResultFacts = {
    text,
    tool: context.tool,
    session: context.session,
    element: tag?.name ?? '',
    truncated: storedAs !== undefined || attributes['truncated'] === 'true',
    made: [...(context.made ?? [])],
    attributes,
  };
  const optional: Partial<ResultFacts> = {
    handle,
    stored_as: storedAs,
    chars: whole('chars') ?? whole('total_chars'),
    lines: whole('total_lines') ?? whole('lines'),
    pages: whole('pages'),
    exit_code: exit !== undefined && /^-?\d{1,6}$/.test(exit) ? Number(exit) : undefined,
    signal: attributes['signal'],
    timed_out: attributes['timed_out'] === undefined ? undefined : attributes['timed_out'] === 'true',
  };
  for (const [key, value] of Object.entries(optional)) if (value !== undefined) Object.assign(facts, { [key]: value });
  return facts;
}
