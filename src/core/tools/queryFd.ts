import type { TextSource } from '../descriptors/textSource';
import { ToolError } from '../toolError';
import { textElement } from '../xml';
import { plural, wrapInToolSession } from './descriptorPreview';
import {
  fdPart,
  type FinishedCall,
  type HeadlinePart,
  inSessionNote,
  MAX_PATTERN,
  ownSession,
  short,
} from './headline';
import { JqFailure, runJqOffThread } from './jqOffThread';
import { DEFAULT_QUERY_TIMEOUT_S, MAX_QUERY_TIMEOUT_S, queryFdInput, type QueryFdInput } from './schemas';
import { defineTool } from './toolRecord';
import { requireDescriptor, type ToolContext, type ToolSession } from './toolContext';

/**
 * The longest JSON Lines text `query_fd` reads (jq runs on it batch by batch, so this bounds the time, not the
 * memory).
 */
export const MAX_QUERY_LINES_CHARS = 512 * 1024 * 1024;
/**
 * The longest text `query_fd` reads whole (one JSON document, or `slurp`): jq holds it parsed in its 256 MB of wasm
 * memory, which a 32 MB document of small objects about fills.
 */
export const MAX_QUERY_WHOLE_CHARS = 32 * 1024 * 1024;
/** The longest output kept; past it the program should select less. */
export const MAX_QUERY_OUTPUT_CHARS = 64 * 1024 * 1024;
/** Characters of whole lines jq runs on at once in JSON Lines. */
const BATCH_CHARS = 4 * 1024 * 1024;
/** The worker's JavaScript heap: the batches, the output, the pieces in flight. */
const WORKER_HEAP_MB = 512;
/**
 * The longest first line looked at to tell JSON Lines from one document: it is parsed on the calling thread, where
 * 256 KB takes a few milliseconds (see MAX_OUTLINED_CHARS); a text whose first line is longer is read as one document.
 */
const FIRST_LINE_CHARS = 256 * 1024;

/**
 * Whether `content` is JSON Lines: its first non-empty line is a JSON value of its own and more text follows. A
 * pretty-printed document starts with a line such as `{` that is not; a document on one line has nothing after it.
 */
export async function looksLikeJsonLines(content: TextSource): Promise<boolean> {
  const head = await content.slice(0, Math.min(content.length, FIRST_LINE_CHARS));
  const start = head.search(/\S/);
  if (start === -1) return false;
  const end = head.indexOf('\n', start);
  if (end === -1 || (head.slice(end).trim() === '' && end + 1 >= content.length)) return false;
  try {
    JSON.parse(head.slice(start, end));
    return true;
  } catch {
    return false;
  }
}

async function* texts(content: TextSource): AsyncGenerator<string> {
  for await (const chunk of content.chunks()) yield chunk.text;
}

/**
 * `query_fd`: a jq program's output over a descriptor holding JSON or JSON Lines, values one to a line (compact),
 * run off the calling thread within a time limit (`runJqOffThread`). An output longer than the result budget is
 * stored as a new descriptor of the context's session (JSON Lines itself, so it can be queried again) and a preview
 * shown.
 */
export async function queryFd(context: ToolContext, input: QueryFdInput, source: ToolSession): Promise<string> {
  const descriptor = await requireDescriptor(source, input.fd);
  const id = descriptor.id;
  const content = descriptor.content;
  const timeoutS = input.timeout_s ?? DEFAULT_QUERY_TIMEOUT_S;
  if (timeoutS < 1 || timeoutS > MAX_QUERY_TIMEOUT_S)
    throw new ToolError('invalid_argument', `query_fd: timeout_s must be from 1 to ${MAX_QUERY_TIMEOUT_S}.`, id);
  const slurp = input.slurp === true;
  const lines = !slurp && (await looksLikeJsonLines(content));
  const limit = lines ? MAX_QUERY_LINES_CHARS : MAX_QUERY_WHOLE_CHARS;
  if (content.length > limit) {
    const how = lines
      ? 'Extract a part with read_fd (extract_to_new_fd=true) and query that.'
      : slurp
        ? 'Without slurp, JSON Lines are read line by line, with no such limit.'
        : 'Extract a part with read_fd (extract_to_new_fd=true) and query that, or store it as JSON Lines.';
    throw new ToolError(
      'invalid_argument',
      `query_fd: ${id} is ${content.length} characters, more than the ${limit} query_fd reads ` +
        `${lines ? 'as JSON Lines' : 'whole'}. ${how}`,
      id,
    );
  }
  let output: string;
  try {
    output = await runJqOffThread({
      program: input.query,
      lines,
      slurp,
      raw: input.raw === true,
      maxOutputChars: MAX_QUERY_OUTPUT_CHARS,
      batchChars: BATCH_CHARS,
      pieces: texts(content),
      timeoutMs: timeoutS * 1000,
      heapMb: WORKER_HEAP_MB,
    });
  } catch (error) {
    if (error instanceof JqFailure) throw failure(error, id, timeoutS);
    throw error;
  }
  const outputs = output === '' ? 0 : output.split('\n').length;
  const attributes = {
    fd: id,
    query: input.query,
    input: lines ? 'json_lines' : 'json',
    slurp: slurp ? 'true' : undefined,
    values: input.raw === true ? undefined : outputs,
    chars: output.length,
  };
  const budget = context.resultChars ?? context.pageSize;
  const answer = textElement('query_result', attributes, output);
  if (answer.length <= budget) return answer;
  // Stored as it is (not as XML): the new descriptor is JSON Lines that read_fd pages and query_fd queries again.
  const wrapped = await wrapInToolSession(
    context.session,
    { kind: 'tool_output', toolName: 'query_fd' },
    output,
    context.pageSize,
    Math.min(budget, output.length - 1),
  );
  return wrapped.text;
}

/** What the model is told when jq gave no output. */
function failure(error: JqFailure, id: string, timeoutS: number): ToolError {
  switch (error.kind) {
    case 'compile':
      return new ToolError('invalid_argument', `query_fd: the jq program does not compile. ${error.message}`, id);
    case 'parse':
      return new ToolError(
        'invalid_argument',
        `query_fd: ${id} is not JSON or JSON Lines (${error.message.replace(/^jq: /, '')}). ` +
          'Search it with search_fd or read it with read_fd instead.',
        id,
      );
    case 'runtime':
      return new ToolError('invalid_argument', `query_fd: the jq program failed on ${id}. ${error.message}`, id);
    case 'timeout':
      return new ToolError(
        'invalid_argument',
        `query_fd: the jq program ran longer than ${timeoutS} s and was stopped. ` +
          `Check it for a loop (such as repeat or recurse without a limit), or allow more time with timeout_s (at most ${MAX_QUERY_TIMEOUT_S}).`,
        id,
      );
    case 'memory':
      return new ToolError(
        'invalid_argument',
        `query_fd: the jq program used up the memory a query has (256 MB) on ${id} and was stopped. ` +
          'Query less at once: without slurp, or on a part extracted with read_fd.',
        id,
      );
    case 'output':
      return new ToolError(
        'invalid_argument',
        `query_fd: the output is longer than ${MAX_QUERY_OUTPUT_CHARS} characters and was stopped. ` +
          'Select less (a filter with select, limit, or fewer fields).',
        id,
      );
    case 'crashed':
      return new ToolError('internal_error', `query_fd: jq could not run on ${id}: ${error.message}`, id);
  }
}

export const queryFdTool = defineTool({
  name: 'query_fd',
  title: 'Query JSON in a descriptor',
  description:
    'Run a jq program over a descriptor or ref holding JSON or JSON Lines (each line a value, the program run on ' +
    'each in turn; slurp=true gives it all lines as one array). Returns the output values, one compact JSON value ' +
    'a line (raw=true: strings as text). A long output is stored as a new descriptor (JSON Lines: query it again) ' +
    'and a preview shown. The program runs at most timeout_s seconds.',
  schema: queryFdInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  prompt:
    'query_fd runs a jq program over stored JSON or JSON Lines. Example: query_fd(fd="fd:2", query=".items[] | select(.status >= 400) | {id, status}").',
  copilot: {
    referenceName: 'queryFd',
    displayName: 'Query JSON in FD Refs Descriptor',
    userDescription: 'Run a jq program over stored JSON or JSON Lines output (fd:N) or a ref.',
    icon: '$(json)',
    when:
      'Use it on stored JSON (API responses, JSON logs, JSON Lines) to pick out fields, filter or count with jq ' +
      'instead of reading every page.',
    looksUpSessions: true,
    invocation: (args) =>
      `Querying ${args.text('fd') ?? 'a descriptor'}${inSessionNote(args.text('session'))} with \`${args.text('query') ?? ''}\``,
  },
  headline: queryHeadline,
  run: queryFd,
});

function queryHeadline({ args, tag }: FinishedCall): HeadlinePart[] | undefined {
  if (tag?.name === 'fd_result') {
    const query = typeof args['query'] === 'string' ? short(args['query'], MAX_PATTERN) : 'jq';
    return [{ text: `Queried with ${query}: output in ` }, fdPart(tag.attributes['fd'], true)];
  }
  if (tag?.name !== 'query_result') return undefined;
  const a = tag.attributes;
  const values = a['values'] === undefined ? `${a['chars']} chars` : plural(Number(a['values']), 'value');
  return [
    { text: 'Queried ' },
    fdPart(a['fd'], ownSession(args)),
    { text: ` with ${short(a['query'] ?? '', MAX_PATTERN)}: ${values}` },
  ];
}
