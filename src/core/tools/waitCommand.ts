/**
 * `wait_command`: for a command `run_command` answered while it still ran (its output a descriptor that keeps
 * growing), wait for more of its output or for its end, or stop it. Offered where commands go on after their call
 * (the MCP server, `CommandOutputTarget.background`); fdref's chat waits for every command's end instead.
 */
import * as z from 'zod';
import { quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';
import { textElement } from '../xml';
import { type FinishedCall, type HeadlinePart, number } from './headline';
import { runningResult, WAIT_COMMAND_TOOL } from './runCommand';
import { flag } from './schemas';
import type { ToolContext } from './toolContext';
import { defineTool, type ToolResult } from './toolRecord';

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
  .pipe(z.number().nonnegative({ message: 'must be 0 seconds or more' }));

export const waitCommandInput = z.strictObject({
  fd: z.string().describe('The descriptor run_command answered with while the command was still running, "fd:N".'),
  seconds: seconds
    .optional()
    .describe("Seconds to wait for the command's end at most (default, and at most, the server's wait; 0: just look)."),
  stop: flag
    .optional()
    .describe('End the command and every process it started now (SIGTERM, then SIGKILL), and answer with its end.'),
});
export type WaitCommandInput = z.output<typeof waitCommandInput>;

/** Waits for, looks at or stops the command whose output is `input.fd`. */
export async function waitCommand(context: ToolContext, input: WaitCommandInput): Promise<ToolResult> {
  const jobs = context.commands?.output.background;
  if (jobs === undefined)
    throw new ToolError('invalid_argument', `${WAIT_COMMAND_TOOL} is not offered here: commands run to their end.`);
  const job = jobs.get(input.fd);
  if (job === undefined) return notRunningHere(context, input.fd);
  if (input.stop === true) await job.stop();
  else await job.waitFor(Math.min(jobs.waitMs, (input.seconds ?? Infinity) * 1000), context.commands?.signal);
  const outcome = job.outcome;
  if (outcome === undefined) {
    const size = await job.sync().catch(() => ({ chars: job.watch.chars, lines: undefined }));
    return runningResult(job, size, 'wait');
  }
  if ('failure' in outcome)
    throw new ToolError('internal_error', `The output of ${job.id} could not be kept whole: ${outcome.failure}`);
  const { result } = outcome;
  return {
    text: result.text,
    summary: result.summary,
    cancelled: result.cancelled,
    made: [job.id],
    kept: job.id,
  };
}

/** What is said of an `fd` that is no command running in this process: ended, someone else's, or unknown. */
async function notRunningHere(context: ToolContext, fd: string): Promise<ToolResult> {
  const found = await context.session.lookup(fd.trim());
  const growing = (found as { growing?: { state: string } } | undefined)?.growing;
  const command = found?.command;
  if (found === undefined || command === undefined)
    throw new ToolError(
      'not_found',
      `${quoteInput(fd)} is not the output of a command started by run_command here. run_command answers with one ` +
        'when a command runs past its wait.',
      fd,
    );
  if (growing !== undefined) {
    const why =
      growing.state === 'cut off'
        ? 'was cut off: the process running it stopped before it ended'
        : 'is being written by another process, which alone can wait for or stop its command';
    return {
      text: textElement(
        'command_status',
        { fd: found.id, state: growing.state.replace(' ', '_'), chars: found.content.length },
        `${found.id} ${why}; read it with read_fd or search_fd.`,
      ),
    };
  }
  const how =
    command.exitCode !== undefined
      ? `exited with code ${command.exitCode}`
      : `was ended${command.signal === undefined ? '' : ` by ${command.signal}`}`;
  return {
    text: textElement(
      'command_status',
      {
        fd: found.id,
        state: 'ended',
        exit_code: command.exitCode,
        signal: command.signal,
        chars: found.content.length,
        total_lines: found.content.totalLines,
      },
      `Its command ${how}; its output is complete: read it with read_fd or search_fd.`,
    ),
  };
}

/** "Waited for fd:4: still running", "Stopped `make`, exit 1, output in fd:4". */
function waited(call: FinishedCall): HeadlinePart[] | undefined {
  const { tag, args } = call;
  if (tag === undefined) return undefined;
  const fd = typeof args['fd'] === 'string' ? args['fd'] : tag.attributes['fd'];
  if (tag.name === 'command_result' && tag.attributes['state'] === 'running')
    return [
      { text: 'Waited for ' },
      { fd: fd ?? '' },
      { text: `: still running, ${number(tag.attributes['chars'])} characters so far` },
    ];
  if (tag.name === 'command_result') {
    const a = tag.attributes;
    const how = a['exit_code'] !== undefined ? `exit ${a['exit_code']}` : `ended by ${a['signal'] ?? 'a signal'}`;
    return [{ text: a['cancelled'] === 'true' ? 'Stopped ' : 'Waited for ' }, { fd: fd ?? '' }, { text: `: ${how}` }];
  }
  if (tag.name === 'command_status')
    return [{ text: 'Looked at ' }, { fd: fd ?? '' }, { text: `: ${tag.attributes['state'] ?? ''}` }];
  return undefined;
}

export const waitCommandTool = defineTool({
  name: WAIT_COMMAND_TOOL,
  title: 'Wait for a command',
  description:
    'For a command run_command answered while it was still running (its output a descriptor fd:N that keeps ' +
    'growing): wait for its end or for more output, up to `seconds`, or stop it (`stop`: the command and every ' +
    'process it started are ended). Answers with the end as run_command would (exit code, the output kept whole ' +
    'in the same fd:N, its error and warning lines numbered), or, while it still runs, with the output written ' +
    'since the last look (its start, the lines in it that look like errors or warnings with their numbers, its end). ' +
    'read_fd (mode "tail") and search_fd read the output so far at any time.',
  schema: waitCommandInput,
  effect: 'run',
  surfaces: ['mcp'],
  sessionArgument: false,
  headline: waited,
  run: waitCommand,
});
