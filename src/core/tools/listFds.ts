/**
 * `list_fds`: the descriptors a session keeps (command output, long tool results, pasted text, extracts), newest
 * first, each with what it came from: enough for a model to find the output of a command run earlier without
 * running it again.
 */
import * as z from 'zod';
import { previewLine } from '../presentation/describe';
import { ToolError } from '../toolError';
import { emptyElement, parentElement } from '../xml';
import { wholeNumber } from './schemas';
import type { ToolContext, ToolFd, ToolSession } from './toolContext';
import { defineTool, listing } from './toolRecord';

const descriptorsListing = listing('descriptors', 'fd_list');

export const DEFAULT_LISTED_FDS = 50;
export const MAX_LISTED_FDS = 500;
/** The longest command line shown; the descriptor keeps it whole. */
const COMMAND_CHARS = 200;

export const listFdsInput = z.strictObject({
  limit: wholeNumber
    .optional()
    .describe(`How many of the newest descriptors to list (default ${DEFAULT_LISTED_FDS}, at most ${MAX_LISTED_FDS}).`),
});
export type ListFdsInput = z.output<typeof listFdsInput>;

/** `<fd_list>` of the newest `limit` descriptors of `source`. */
export async function listFds(_context: ToolContext, input: ListFdsInput, source: ToolSession): Promise<string> {
  const all = await source.fds();
  const limit = input.limit ?? DEFAULT_LISTED_FDS;
  if (limit < 1 || limit > MAX_LISTED_FDS)
    throw new ToolError('invalid_argument', `list_fds: limit must be from 1 to ${MAX_LISTED_FDS} (got ${limit}).`);
  // Newest first; a listing across sessions is ordered by when each was made.
  const newest = [...all].sort((a, b) => (a.descriptor.createdAt < b.descriptor.createdAt ? 1 : -1)).slice(0, limit);
  return parentElement('fd_list', { count: all.length, shown: newest.length }, newest.map(item));
}

function item({ descriptor, session }: ToolFd): string {
  const command = descriptor.command;
  return emptyElement('fd', {
    id: descriptor.id,
    source: descriptor.source,
    tool: descriptor.toolName,
    extracted_from: descriptor.extractedFrom,
    command: command === undefined ? undefined : previewLine(command.commandLine, COMMAND_CHARS),
    exit_code: command?.exitCode,
    created: descriptor.createdAt,
    lines: descriptor.content.totalLines,
    chars: descriptor.content.length,
    session: session?.id,
    session_name: session?.name,
  });
}

export const listFdsTool = defineTool({
  name: 'list_fds',
  title: 'List descriptors',
  description:
    'List the descriptors (fd:N) of this conversation, newest first: what each holds (command output with its ' +
    'command line and exit code, a tool result, pasted text, an extract), its size and when it was made. Use it to ' +
    'find earlier output by its command before reading it with read_fd or search_fd.',
  schema: listFdsInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  prompt: 'list_fds lists the descriptors kept so far, newest first, with the command or tool each came from.',
  copilot: {
    referenceName: 'listFds',
    displayName: 'List FD Refs Descriptors',
    userDescription: 'List the stored outputs (fd:N) of the recent FD Refs sessions with their commands and sizes.',
    icon: '$(list-flat)',
    when: 'Use it to find stored command or tool output (fd:N) from earlier, e.g. the output of a build run before.',
    looksUpSessions: true,
    invocation: descriptorsListing.invocation,
  },
  headline: descriptorsListing.headline,
  run: listFds,
});
