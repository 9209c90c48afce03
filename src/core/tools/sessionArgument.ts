import * as z from 'zod';
import type { ToolContext, ToolSession } from './toolContext';

/**
 * The optional `session` argument every descriptor tool takes when its context can open other sessions
 * (`ToolContext.openSession`, the MCP server): the id of a session of the same store to read, never to write.
 */
export const sessionArgument = z
  .string()
  .min(1)
  .optional()
  .describe(
    'Another session of the store to read from, by its id (list_sessions lists them); default this session. ' +
      'Anything created (an extract, a long result) still goes to this session.',
  );

/** `schema` with the `session` argument added when `context` can open other sessions; else `schema` itself. */
export function schemaFor(schema: z.ZodObject, context: Pick<ToolContext, 'openSession'>): z.ZodObject {
  return context.openSession === undefined ? schema : schema.extend({ session: sessionArgument });
}

/** The session a call reads: the one its `session` argument names, or the context's own. */
export async function readingSession(context: ToolContext, input: { session?: unknown }): Promise<ToolSession> {
  const id = input.session;
  if (typeof id !== 'string' || context.openSession === undefined) return context.session;
  return context.openSession(id);
}
