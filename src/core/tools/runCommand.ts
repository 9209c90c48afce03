/**
 * `run_command` as a model sees it, wherever it runs (the MCP server, fdref's chat): its input schema and
 * description, the folder check, and the `<command_result>` it answers with. The whole output (stdout and stderr
 * in order) goes, piece by piece as it arrives, to a `CommandOutputTarget`: the caller's store. Short output comes
 * back as it is; longer output is kept there as a new `fd:N` and answered with its start and end. Nothing is cut.
 */
import * as path from 'node:path';
import * as z from 'zod';
import { nodeFileSystem } from '../files/fileSystemPort';
import { resolveWorkspaceTarget } from '../files/workspacePath';
import {
  OutputPreviewBuilder,
  previewLimits,
  renderErrorLines,
  type OutputSummary,
} from '../presentation/outputPreview';
import { CommandStartError, runCommand, type CommandResult } from '../process/runCommand';
import { CommandJob, LOOK_HEAD_CHARS, LOOK_TAIL_CHARS, OutputWatch, type CommandJobs } from './commandJobs';
import { errorCode, errorMessage } from '../errors';
import { quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';
import { emptyElement, parentElement, textElement } from '../xml';
import { describeIssues } from './schemas';
import type { CommandOutput, CommandOutputTarget, GrowingOutput, KeptOutput } from './toolContext';
import { type FinishedCall, type HeadlinePart, MAX_CODE, number, oneLine, plural, short } from './headline';
import { defineTool } from './toolRecord';

export const RUN_COMMAND_TOOL = 'run_command';
/** The tool that waits for or stops a command still running (`waitCommand.ts`). */
export const WAIT_COMMAND_TOOL = 'wait_command';
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

/**
 * The longest command, in UTF-8 bytes: it is one argument of the shell, and Linux refuses an argument of 128 KiB
 * or more (MAX_ARG_STRLEN, the terminating NUL included) with E2BIG.
 */
export const MAX_COMMAND_BYTES = 128 * 1024 - 1;
/** The longest `cwd`, in UTF-8 bytes: a longer path is refused by the system (PATH_MAX) whatever it names. */
export const MAX_CWD_BYTES = 4095;

/** A string argument of at most `max` UTF-8 bytes; `fix` says what to do instead. */
function boundedBytes(max: number, fix: string) {
  return (value: string, ctx: z.RefinementCtx): void => {
    // A length in UTF-16 units at most a third of the limit cannot pass it: only a long value is encoded.
    const bytes = value.length * 3 <= max ? value.length : Buffer.byteLength(value, 'utf8');
    if (bytes > max) {
      ctx.addIssue({
        code: 'custom',
        message: `is ${bytes.toLocaleString('en-US')} bytes, more than the ${max.toLocaleString('en-US')} the system takes; ${fix}`,
      });
    }
  };
}

export const runCommandInput = z.strictObject({
  command: z
    .string()
    .min(1, { message: 'must not be empty' })
    .superRefine(
      boundedBytes(
        MAX_COMMAND_BYTES,
        'write a longer script to a file in the workspace (store_text, then fd_to_file) and run that file',
      ),
    )
    .describe('The shell command (/bin/sh -c).'),
  cwd: z
    .string()
    .superRefine(boundedBytes(MAX_CWD_BYTES, 'give a shorter path to a folder inside the workspace'))
    .optional()
    .describe('Folder to run in: relative to the first workspace folder, or absolute inside a workspace folder.'),
  timeout_s: seconds
    .optional()
    .describe(
      `Seconds before the command and every process it started are ended (default ${DEFAULT_TIMEOUT_S}, at most ${MAX_TIMEOUT_S}).`,
    ),
  wait_s: seconds
    .optional()
    .describe(
      'Where the client limits how long a call may take (an MCP client): seconds to wait before answering with ' +
        `the output so far as a descriptor that keeps growing while the command runs (then ${WAIT_COMMAND_TOOL} ` +
        "waits for more or stops it). At most, and by default, the server's own wait; ignored where a call waits " +
        "for the end (fdref's chat).",
    ),
});
export type RunCommandInput = z.output<typeof runCommandInput>;

/** What the model is told; `inlineChars` is the longest output returned as it is. */
export function runCommandDescription(inlineChars: number): string {
  return (
    'Run a shell command in a workspace folder and keep its whole output (stdout and stderr in order). ' +
    `Output up to ${inlineChars} characters is returned; longer output is stored as a descriptor fd:N and ` +
    'its start, its error and warning lines (numbered) and its end are shown: read it with read_fd (mode "tail" for the end), search it with search_fd, or write ' +
    'it to a file with fd_to_file. Nothing is cut. stdin is closed; a time limit ends the command and its children.'
  );
}

/** Checks a model's arguments; a `ToolError` naming every problem otherwise. */
export function parseRunCommandInput(args: unknown): RunCommandInput {
  const parsed = runCommandInput.safeParse(args ?? {});
  if (!parsed.success) throw new ToolError('invalid_argument', `${RUN_COMMAND_TOOL}: ${describeIssues(parsed.error)}.`);
  return parsed.data;
}

export type { CommandOutput, CommandOutputTarget, KeptOutput } from './toolContext';

export interface CommandToolOptions {
  /** Workspace folders, absolute; the command runs inside one of them. */
  readonly roots: readonly string[];
  /** The longest output returned as it is. */
  readonly inlineChars: number;
  /** Page size of the descriptors (for the page count the result names). */
  readonly pageSize: number;
  readonly signal: AbortSignal;
}

/** What a run gave: the XML for the model, a short line for a person, the descriptor when one was made. */
export interface CommandToolResult<K> {
  readonly text: string;
  /** E.g. `exit code 0 · 688,895 chars in fd:3`. */
  readonly summary: string;
  readonly kept?: K;
  /** The run ended because `signal` aborted. */
  readonly cancelled: boolean;
}

/** Runs `input` with its output streamed into `target`; a `ToolError` for a bad folder or a command that cannot start. */
export async function runCommandTool<K extends KeptOutput>(
  input: RunCommandInput,
  target: CommandOutputTarget<K>,
  options: CommandToolOptions,
): Promise<CommandToolResult<K>> {
  const cwd = await commandFolder(input.cwd, options.roots);
  const timeoutS = input.timeout_s ?? DEFAULT_TIMEOUT_S;
  const output = target.start();
  const startedAt = new Date();
  const startedMs = performance.now();
  // The call's signal ends the command only while the call waits for it: one that went on is ended by its job.
  const abort = new AbortController();
  const forward = (): void => abort.abort();
  if (options.signal.aborted) forward();
  else options.signal.addEventListener('abort', forward, { once: true });
  const watch = new OutputWatch();
  // Picks the lines that look like errors or warnings, for the preview of a long output (its head and tail are
  // the runner's).
  const seen = new OutputPreviewBuilder(previewLimits(PREVIEW_HEAD_CHARS + PREVIEW_TAIL_CHARS));
  let pid: number | undefined;
  const running = runCommand({
    command: input.command,
    cwd,
    timeoutMs: timeoutS * 1000,
    onOutput: (piece) => {
      watch.push(piece);
      seen.push(piece);
      return output.write(piece);
    },
    onStart: (started) => (pid = started),
    headChars: Math.max(options.inlineChars, PREVIEW_HEAD_CHARS),
    tailChars: PREVIEW_TAIL_CHARS,
    signal: abort.signal,
  }).catch(async (error: unknown) => {
    await output.abort();
    throw commandError(error);
  });
  const jobs = target.background;
  const waitMs = backgroundWaitMs(input, jobs);
  try {
    if (jobs === undefined || output.grow === undefined || waitMs === undefined)
      return await describeRun(input, await running, {
        cwd,
        timeoutS,
        startedAt,
        output,
        seen,
        options,
        keepAlways: false,
      });
    const early = await Promise.race([running, delay(waitMs)]);
    if (early !== undefined)
      return await describeRun(input, early, { cwd, timeoutS, startedAt, output, seen, options, keepAlways: false });
  } finally {
    options.signal.removeEventListener('abort', forward);
  }
  // Still running after the wait the client can afford: its output so far becomes a descriptor that grows.
  const commandRun = {
    commandLine: input.command,
    cwd,
    startedAt: startedAt.toISOString(),
    outputChars: 0,
    cut: false,
  };
  let grown: GrowingOutput;
  try {
    grown = await output.grow({ ...commandRun, unfinished: true }, pid);
  } catch (error) {
    // It cannot go on unseen: it ends now, with its call.
    abort.abort();
    await running.catch(() => undefined);
    throw error;
  }
  const job = new CommandJob(grown.id, input.command, pid, startedMs, timeoutS, watch, abort, () => grown.sync(), {
    running,
    complete: (result) =>
      describeRun(input, result, { cwd, timeoutS, startedAt, output, seen, options, keepAlways: true }),
  });
  jobs.add(job);
  return runningResult(job, await job.sync().catch(() => ({ chars: watch.chars, lines: undefined })), 'run');
}

/** How long a call waits before answering with a growing descriptor; undefined where commands cannot go on. */
function backgroundWaitMs(input: RunCommandInput, jobs: CommandJobs | undefined): number | undefined {
  if (jobs === undefined || !jobs.accepting) return undefined;
  return Math.min(jobs.waitMs, (input.wait_s ?? Infinity) * 1000);
}

/** Resolves to undefined after `ms` (the timer does not keep the process alive). */
function delay(ms: number): Promise<undefined> {
  return new Promise((resolve) => setTimeout(() => resolve(undefined), ms).unref());
}

/** A failure of `runCommand` as the model is told it. */
function commandError(error: unknown): unknown {
  if (error instanceof CommandStartError) return new ToolError('invalid_argument', error.message);
  if (errorCode(error) === 'E2BIG') {
    // The command is within its limit (checked above): the environment is what is too large.
    return new ToolError(
      'invalid_argument',
      'The command could not start: the system refused its arguments and environment as too large (E2BIG). ' +
        'Run a shorter command, or a script file.',
    );
  }
  return error;
}

interface RunPlace<K> {
  readonly cwd: string;
  readonly timeoutS: number;
  readonly startedAt: Date;
  readonly output: CommandOutput<K>;
  /** What the preview builder saw of the output: its error and warning lines. */
  readonly seen: OutputPreviewBuilder;
  readonly options: CommandToolOptions;
  /** The output is a descriptor already (it grew while the command ran): it is completed whatever its size. */
  readonly keepAlways: boolean;
}

/** What a command that ended answers: its output as it is when short, else kept as `fd:N` with its start and end. */
async function describeRun<K extends KeptOutput>(
  input: RunCommandInput,
  result: CommandResult,
  { cwd, timeoutS, startedAt, output, seen, options, keepAlways }: RunPlace<K>,
): Promise<CommandToolResult<K>> {
  const status = statusAttributes(result, timeoutS, cwd);
  const statusMessage = describeStatus(result, timeoutS) + describeStrays(result);
  const cancelled = result.ended === 'aborted';
  if (result.chars <= options.inlineChars && !keepAlways) {
    await output.abort();
    return {
      text: parentElement('command_result', { ...status, chars: result.chars }, [
        textElement('message', {}, statusMessage),
        textElement('output', {}, result.head),
      ]),
      summary: `${shortStatus(result)} · ${result.chars.toLocaleString('en-US')} chars`,
      cancelled,
    };
  }
  const kept = await output.keep({
    commandLine: input.command,
    cwd,
    ...(result.exitCode === null ? {} : { exitCode: result.exitCode }),
    startedAt: startedAt.toISOString(),
    endedAt: new Date(startedAt.getTime() + result.durationMs).toISOString(),
    outputChars: result.chars,
    cut: false,
    ...(result.signal === null ? {} : { signal: result.signal }),
    ...(result.ended === undefined ? {} : { ended: result.ended === 'aborted' ? 'stopped' : result.ended }),
  });
  const content = kept.content;
  const pages = (await content.pageTable(options.pageSize)).length - 1;
  const room = errorLinesWithin(seen.finish(), PREVIEW_HEAD_CHARS, PREVIEW_TAIL_CHARS);
  const { errors } = room;
  const head = result.head.slice(0, room.headChars);
  const tailChars = Math.min(result.tail.length, room.tailChars);
  const tail = result.tail.slice(result.tail.length - Math.min(tailChars, content.length - head.length));
  const between = errorsBetween(errors);
  const message =
    `${statusMessage} Its output is ${content.length} characters (${content.totalLines} lines), stored whole as ` +
    `${kept.id} in ${pages} pages; its first ${head.length} and last ${tail.length} characters are below${between}. ` +
    `Read it with read_fd(fd="${kept.id}") (mode "tail" for the end), search it with ` +
    `search_fd(fd="${kept.id}", pattern=...), or write it to a file with fd_to_file.`;
  return {
    text: parentElement(
      'command_result',
      { ...status, fd: kept.id, chars: content.length, total_lines: content.totalLines, pages },
      [
        textElement('message', {}, message),
        textElement('preview_head', {}, head),
        ...(errors === '' ? [] : [textElement('error_lines', {}, errors)]),
        emptyElement('omitted', { chars: content.length - head.length - tail.length }),
        textElement('preview_tail', {}, tail),
      ],
    ),
    summary: `${shortStatus(result)} · ${content.length.toLocaleString('en-US')} chars in ${kept.id}`,
    kept,
    cancelled,
  };
}

/**
 * The error and warning lines of `seen` for a preview of a head of `headChars` and a tail of `tailChars`, and the
 * room they leave each: they take theirs from both, so the preview keeps its size.
 */
function errorLinesWithin(
  seen: OutputSummary,
  headChars: number,
  tailChars: number,
): { errors: string; headChars: number; tailChars: number } {
  const errors = renderErrorLines(seen, Math.floor((headChars + tailChars) / 3));
  return {
    errors,
    headChars: headChars - Math.ceil(errors.length / 2),
    tailChars: tailChars - Math.floor(errors.length / 2),
  };
}

/** What the message says of the error lines between a preview's head and tail ('' when there are none). */
function errorsBetween(errors: string): string {
  return errors === '' ? '' : ', and between them the lines that look like errors or warnings with their numbers';
}

/**
 * What is said of a command still running (`run_command` once its wait is over, `wait_command` while it runs):
 * `<command_result state="running">` with the output written since the last look (its start and end), and how to
 * read, wait for and stop it.
 */
export function runningResult(
  job: CommandJob,
  size: { chars: number; lines: number | undefined },
  by: 'run' | 'wait',
): CommandToolResult<never> & { made: string[] } {
  const elapsedS = (performance.now() - job.startedMs) / 1000;
  const look = job.watch.look();
  // The lines that look like errors or warnings, as a finished command's preview shows them (`describeRun`).
  const room = errorLinesWithin(look.seen, LOOK_HEAD_CHARS, LOOK_TAIL_CHARS);
  const { errors } = room;
  // New output that fits in the head is shown whole: the error lines then only repeat some of it.
  const head = look.tail === '' ? look.head : look.head.slice(0, room.headChars);
  const tail = look.tail.slice(look.tail.length - Math.min(look.tail.length, Math.max(0, room.tailChars)));
  const fd = job.id;
  const message =
    `The command is still running after ${elapsedS.toFixed(1)} s (its time limit: ${job.timeoutS} s). ` +
    `Its output so far is ${size.chars} characters${size.lines === undefined ? '' : ` (${size.lines} lines)`} in ${fd}, ` +
    'which keeps growing until the command ends: ' +
    `read its end with read_fd(fd="${fd}", mode="tail"), search it with search_fd(fd="${fd}", pattern=...), ` +
    `wait for more or for the end with ${WAIT_COMMAND_TOOL}(fd="${fd}"), or stop it with ${WAIT_COMMAND_TOOL}(fd="${fd}", stop=true). ` +
    (look.chars === 0
      ? 'Nothing new was written since the last look.'
      : `The ${look.chars} characters written ${by === 'run' ? 'so far' : 'since the last look'} (from character ${look.from}): ` +
        `the first ${head.length} and the last ${tail.length} are below${errorsBetween(errors)}.`);
  return {
    text: parentElement(
      'command_result',
      {
        state: 'running',
        fd,
        ...(job.pid === undefined ? {} : { pid: job.pid }),
        elapsed_s: Number(elapsedS.toFixed(1)),
        chars: size.chars,
        ...(size.lines === undefined ? {} : { total_lines: size.lines }),
        new_from: look.from,
        new_chars: look.chars,
      },
      [
        textElement('message', {}, message),
        textElement('preview_head', {}, head),
        ...(errors === '' ? [] : [textElement('error_lines', {}, errors)]),
        emptyElement('omitted', { chars: look.chars - head.length - tail.length }),
        textElement('preview_tail', {}, tail),
      ],
    ),
    summary: `running · ${size.chars.toLocaleString('en-US')} chars so far in ${fd}`,
    cancelled: false,
    made: [fd],
  };
}

/** The folder a command runs in: inside a workspace folder, also after following symbolic links. */
export async function commandFolder(cwd: string | undefined, roots: readonly string[]): Promise<string> {
  if (roots.length === 0)
    throw new ToolError(
      'outside_workspace',
      'No workspace folder is open, so there is nowhere to run a command. Open a folder first.',
    );
  const { target: folder, shown } = await resolveWorkspaceTarget(cwd ?? '.', roots, nodeFileSystem);
  const stat = await nodeFileSystem.stat(folder).catch((error: unknown) => {
    throw new ToolError(
      'invalid_argument',
      `cwd: ${quoteInput(shown)} cannot be used: ${errorCode(error) ?? errorMessage(error)}; give a folder inside ${roots.map((r) => path.normalize(r)).join(', ')}.`,
    );
  });
  if (stat?.type !== 'directory') {
    throw new ToolError(
      'invalid_argument',
      `cwd: ${shown} is ${stat === undefined ? 'missing' : 'not a folder'}; give a folder inside ${roots.map((r) => path.normalize(r)).join(', ')}.`,
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
    ...(result.strays !== 'unseen' && result.strays.escaped.length > 0
      ? { still_running: result.strays.escaped.join(' ') }
      : {}),
    duration_ms: Math.round(result.durationMs),
    cwd,
  };
}

function shortStatus(result: CommandResult): string {
  const how = result.exitCode !== null ? `exit code ${result.exitCode}` : `ended by ${result.signal ?? 'a signal'}`;
  if (result.ended === 'timeout') return `timed out, ${how}`;
  if (result.ended === 'aborted') return `stopped, ${how}`;
  return how;
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

/** What became of processes that left the command's process group (a daemon, `setsid`): said only when any did. */
function describeStrays(result: CommandResult): string {
  const strays = result.strays;
  if (strays === 'unseen')
    return result.ended === undefined
      ? ''
      : ' Processes that left its process group (e.g. with setsid) cannot be seen on this system and may still run.';
  let text = '';
  if (strays.ended.length > 0)
    text += ` ${processes(strays.ended.length)} it started had left its process group (e.g. with setsid) and ${strays.ended.length === 1 ? 'was' : 'were'} ended (pid ${strays.ended.join(', ')}).`;
  if (strays.escaped.length > 0)
    text += ` ${processes(strays.escaped.length)} it started left its process group and could not be ended: still running (pid ${strays.escaped.join(', ')}).`;
  return text;
}

function processes(count: number): string {
  return `${count} ${count === 1 ? 'process' : 'processes'}`;
}

/** Why `run_command` is refused in Restricted Mode. */
export function untrustedCommandError(): ToolError {
  return new ToolError(
    'permission_denied',
    'This workspace is not trusted (Restricted Mode), so commands cannot run. Do not try again; tell the user ' +
      'the command instead, to run it themselves.',
  );
}

export const runCommandRecord = defineTool({
  name: RUN_COMMAND_TOOL,
  title: 'Run a command',
  description: runCommandDescription,
  schema: runCommandInput,
  effect: 'run',
  surfaces: ['chat', 'mcp'],
  sessionArgument: false,
  preview: async (context, args) => {
    const input = parseRunCommandInput(args);
    const cwd = await commandFolder(input.cwd, context.workspaceRoots);
    return { kind: 'command', command: input.command, cwd, timeoutS: input.timeout_s ?? DEFAULT_TIMEOUT_S };
  },
  untrusted: untrustedCommandError,
  headline: (call) => (call.tag?.name === 'command_result' ? ran(call) : undefined),
  run: async (context, input) => {
    const commands = context.commands;
    if (commands === undefined) throw new ToolError('invalid_argument', `${RUN_COMMAND_TOOL} is not offered here.`);
    const result = await runCommandTool(input, commands.output, {
      roots: context.workspaceRoots,
      inlineChars: commands.inlineChars,
      pageSize: context.pageSize,
      signal: commands.signal,
    });
    return {
      text: result.text,
      summary: result.summary,
      cancelled: result.cancelled,
      ...(result.kept === undefined ? {} : { made: [result.kept.id], kept: result.kept.id }),
    };
  },
});

/** "Ran `npm test`, exit 1, output in fd:4"; also for a call that failed with a `<command_result>`. */
export function ran({ args, tag, confirmed }: FinishedCall): HeadlinePart[] {
  const a = tag?.attributes ?? {};
  const command = confirmed?.command ?? (typeof args['command'] === 'string' ? args['command'] : '');
  const code: HeadlinePart = { code: short(oneLine(command), MAX_CODE) };
  if (a['state'] === 'running' && a['fd'] !== undefined)
    return [{ text: 'Started ' }, code, { text: ', still running, output so far in ' }, { fd: a['fd'] }];
  const how =
    a['exit_code'] !== undefined ? `exit ${a['exit_code']}` : `ended by ${short(a['signal'] ?? 'a signal', 20)}`;
  const head: HeadlinePart[] =
    a['timed_out'] === 'true'
      ? [code, { text: ` timed out after ${number(a['timeout_s'])} s, ${how}` }]
      : a['cancelled'] === 'true'
        ? [{ text: 'Stopped ' }, code, { text: `, ${how}` }]
        : [{ text: 'Ran ' }, code, { text: `, ${how}` }];
  if (a['fd'] !== undefined) return [...head, { text: ', output in ' }, { fd: a['fd'] }];
  return [...head, { text: a['chars'] === '0' ? ', no output' : `, ${plural(a['chars'], 'character')} of output` }];
}
