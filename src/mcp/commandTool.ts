/**
 * `run_command`: a shell command in a workspace folder, its whole output (stdout and stderr in order) streamed
 * into the store as it arrives. Short output comes back as it is; longer output becomes a new `fd:N` with its
 * start and end as a preview. Nothing is cut, whatever the size.
 */
import * as path from 'node:path';
import * as z from 'zod';
import { nodeFileSystem } from '../core/files/fileSystemPort';
import { resolveWorkspacePath } from '../core/files/workspacePath';
import { CommandStartError, runCommand, type CommandResult } from '../core/process/runCommand';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError } from '../core/toolError';
import { emptyElement, parentElement, textElement } from '../core/xml';
import { resourceLink } from './resourceUris';
import { INLINE_OUTPUT_CHARS, PAGE_SIZE, type ToolReply } from './toolReply';

export const DEFAULT_TIMEOUT_S = 120;
export const MAX_TIMEOUT_S = 3600;
/** Characters of the start and of the end of a long output shown in the result. */
export const PREVIEW_HEAD_CHARS = 2_000;
export const PREVIEW_TAIL_CHARS = 2_000;

const seconds = z
  .union(
    [
      z.number(),
      z
        .string()
        .regex(/^\s*\d+(\.\d+)?\s*$/)
        .transform(Number),
    ],
    {
      error: () => 'must be a number of seconds',
    },
  )
  .pipe(
    z
      .number()
      .positive({ message: 'must be more than 0 seconds' })
      .max(MAX_TIMEOUT_S, { message: `must be at most ${MAX_TIMEOUT_S} seconds` }),
  );

export const runCommandInput = z.strictObject({
  command: z.string().min(1, { message: 'must not be empty' }).describe('The shell command (/bin/sh -c).'),
  cwd: z
    .string()
    .optional()
    .describe('Folder to run in: relative to the first workspace folder, or absolute inside a workspace folder.'),
  timeout_s: seconds
    .optional()
    .describe(
      `Seconds before the command and every process it started are ended (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}).`,
    ),
});
export type RunCommandInput = z.output<typeof runCommandInput>;

export const RUN_COMMAND_DESCRIPTION =
  'Run a shell command in a workspace folder and keep its whole output (stdout and stderr in order). ' +
  `Output up to ${INLINE_OUTPUT_CHARS} characters is returned; longer output is stored as a descriptor fd:N and ` +
  'its start and end are shown: read it with read_fd (mode "tail" for the end), search it with search_fd, or write ' +
  'it to a file with fd_to_file. Nothing is cut. stdin is closed; a time limit ends the command and its children.';

export async function runCommandTool(
  input: RunCommandInput,
  session: StoreToolSession,
  roots: readonly string[],
  signal: AbortSignal,
): Promise<ToolReply> {
  const cwd = await commandFolder(input.cwd, roots);
  const timeoutS = input.timeout_s ?? DEFAULT_TIMEOUT_S;
  const sink = session.createSink();
  let result: CommandResult;
  try {
    result = await runCommand({
      command: input.command,
      cwd,
      timeoutMs: timeoutS * 1000,
      onOutput: (piece) => sink.write(piece),
      headChars: Math.max(INLINE_OUTPUT_CHARS, PREVIEW_HEAD_CHARS),
      tailChars: PREVIEW_TAIL_CHARS,
      signal,
    });
  } catch (error) {
    await sink.abort();
    if (error instanceof CommandStartError) throw new ToolError('invalid_argument', error.message);
    throw error;
  }
  const status = statusAttributes(result, timeoutS, cwd);
  const statusMessage = describeStatus(result, timeoutS);
  if (result.chars <= INLINE_OUTPUT_CHARS) {
    await sink.abort();
    return {
      text: parentElement('command_result', { ...status, chars: result.chars }, [
        textElement('message', {}, statusMessage),
        textElement('output', {}, result.head),
      ]),
    };
  }
  const descriptor = await session.createFdFromSink(sink, 'tool_output', { toolName: 'run_command' });
  const content = descriptor.content;
  const pages = (await content.pageTable(PAGE_SIZE)).length - 1;
  const head = result.head.slice(0, PREVIEW_HEAD_CHARS);
  const message =
    `${statusMessage} Its output is ${content.length} characters (${content.totalLines} lines), stored whole as ` +
    `${descriptor.id} in ${pages} pages; its first ${head.length} and last ${result.tail.length} characters are below. ` +
    `Read it with read_fd(fd="${descriptor.id}") (mode "tail" for the end), search it with ` +
    `search_fd(fd="${descriptor.id}", pattern=...), or write it to a file with fd_to_file.`;
  return {
    text: parentElement(
      'command_result',
      { ...status, fd: descriptor.id, chars: content.length, total_lines: content.totalLines, pages },
      [
        textElement('message', {}, message),
        textElement('preview_head', {}, head),
        emptyElement('omitted', { chars: content.length - head.length - result.tail.length }),
        textElement('preview_tail', {}, result.tail),
      ],
    ),
    links: [resourceLink(session.id, descriptor)],
  };
}

/** The folder a command runs in: inside a workspace folder, also after following symbolic links. */
async function commandFolder(cwd: string | undefined, roots: readonly string[]): Promise<string> {
  const folder = await resolveWorkspacePath(cwd ?? '.', roots, nodeFileSystem);
  const stat = await nodeFileSystem.stat(folder);
  if (stat?.type !== 'directory') {
    throw new ToolError(
      'invalid_argument',
      `cwd: ${folder} is ${stat === undefined ? 'missing' : 'not a folder'}; give a folder inside ${roots.map((r) => path.normalize(r)).join(', ')}.`,
    );
  }
  return folder;
}

function statusAttributes(result: CommandResult, timeoutS: number, cwd: string): Record<string, string | number> {
  return {
    ...(result.exitCode === null ? {} : { exit_code: result.exitCode }),
    ...(result.signal === null ? {} : { signal: result.signal }),
    ...(result.ended === 'timeout' ? { timed_out: 'true', timeout_s: timeoutS } : {}),
    ...(result.ended === 'aborted' ? { cancelled: 'true' } : {}),
    duration_ms: Math.round(result.durationMs),
    cwd,
  };
}

function describeStatus(result: CommandResult, timeoutS: number): string {
  const seconds = (result.durationMs / 1000).toFixed(1);
  const how =
    result.exitCode !== null ? `exited with code ${result.exitCode}` : `was ended by ${result.signal ?? 'a signal'}`;
  switch (result.ended) {
    case 'timeout':
      return `The command ran past its time limit of ${timeoutS} s, so it and every process it started were ended (${result.killed ? 'SIGKILL after SIGTERM' : 'SIGTERM'}); it ${how} after ${seconds} s.`;
    case 'aborted':
      return `The command was cancelled and ended with every process it started; it ${how} after ${seconds} s.`;
    case 'lingering':
      return `The command ${how} after ${seconds} s; processes it left running still held its output, so they were ended.`;
    default:
      return `The command ${how} after ${seconds} s.`;
  }
}
