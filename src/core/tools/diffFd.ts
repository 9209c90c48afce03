/**
 * `diff_fd`: a unified diff of two kept outputs (a test run before and after a fix), or of one and a workspace
 * file. Each side is a descriptor or ref of any session the surface can read, or a file confined to the workspace;
 * the diff itself is `unifiedDiff` (jsdiff, bounded), run off the calling thread (`diffOffThread`). A long diff is stored as a descriptor of the caller's session
 * and its start shown, as other long results are.
 */
import * as z from 'zod';
import { growingAttribute } from '../descriptors/descriptorTable';
import {
  DEFAULT_DIFF_CONTEXT,
  DIFF_TIMEOUT_MS,
  lineCount,
  MAX_DIFF_CONTEXT,
  MAX_DIFF_EDITS,
  MAX_DIFF_SIDE_CHARS,
  MAX_DIFF_SIDE_LINES,
} from '../diff/unifiedDiff';
import { diffOffThread } from '../diff/diffOffThread';
import { readWorkspaceText } from '../files/workspaceRead';
import { descriptorKindOf } from '../ids';
import { clipInput, quoteInput } from '../quoteInput';
import { ToolError } from '../toolError';
import { parentElement, textElement } from '../xml';
import { plural, storeForReply } from './descriptorPreview';
import { fdPart, type FinishedCall, type HeadlinePart, inSessionNote, number, ownSession } from './headline';
import { flag, MAX_PATTERN_CHARS, wholeNumber } from './schemas';
import { sessionArgument } from './sessionArgument';
import { defineTool, type ToolResult } from './toolRecord';
import { requireDescriptor, type ToolContext, type ToolSession } from './toolContext';

const side = (name: 'a' | 'b', role: string): z.ZodString =>
  z
    .string()
    .min(1, { message: 'must not be empty' })
    .describe(
      `The ${role} side (${name === 'a' ? "'-' lines" : "'+' lines"}): a descriptor or ref ("fd:3", "ref:my_code", ` +
        '"ref:my_code@1"), or a workspace file path (relative to the workspace folder, or absolute inside it).',
    );

export const diffFdInput = z.strictObject({
  a: side('a', 'old'),
  b: side('b', 'new'),
  ignore_whitespace: flag
    .optional()
    .describe('Treat lines that differ only in the amount of whitespace as equal (default false).'),
  ignore_pattern: z
    .string()
    .min(1, { message: 'must not be empty' })
    .max(MAX_PATTERN_CHARS, { message: `must be at most ${MAX_PATTERN_CHARS} characters` })
    .optional()
    .describe(
      'A JavaScript regular expression whose matches are left out when lines are compared, so lines that differ ' +
        'only there are equal: timestamps, durations (e.g. "\\d+ ?ms|\\d\\d:\\d\\d:\\d\\d"). A pattern ' +
        'matching whole lines ignores what those lines say.',
    ),
  context: wholeNumber
    .optional()
    .describe(`Lines of context around each change (default ${DEFAULT_DIFF_CONTEXT}, at most ${MAX_DIFF_CONTEXT}).`),
});

/** Where other sessions can be read: a side from a session other than the one `session` names. */
const diffFdSessionFields = {
  a_session: sessionArgument.describe('The session a is read from, when not the one `session` names.'),
  b_session: sessionArgument.describe('The session b is read from, when not the one `session` names.'),
};

export type DiffFdInput = z.output<typeof diffFdInput> & { readonly a_session?: string; readonly b_session?: string };

/** One side as read: its text, its name in the diff and the result, and how it was found. */
interface Side {
  readonly text: string;
  /** `fd:3`, `fd:3 (session build)`, or the file's path in the workspace. */
  readonly label: string;
  readonly attribute: string;
  readonly growing?: string | undefined;
}

/**
 * Compares `a` with `b` (each read from `source`, the session `session` names, unless `a_session`/`b_session` name
 * another). The result is `<diff_result>` with the counts and the unified diff in `<diff>`; a diff longer than a
 * page is stored as a new descriptor of the context's session and its first part shown.
 */
export async function diffFd(context: ToolContext, input: DiffFdInput, source: ToolSession): Promise<ToolResult> {
  const contextLines = input.context ?? DEFAULT_DIFF_CONTEXT;
  if (contextLines < 0 || contextLines > MAX_DIFF_CONTEXT) {
    throw new ToolError(
      'invalid_argument',
      `diff_fd: context must be from 0 to ${MAX_DIFF_CONTEXT} (got ${contextLines}).`,
    );
  }
  const ignorePattern = compileIgnorePattern(input.ignore_pattern);
  const a = await readSide(context, source, input.a, input.a_session, 'a_session');
  const b = await readSide(context, source, input.b, input.b_session, 'b_session');
  const outcome = await diffOffThread(a.text, b.text, {
    aLabel: a.label,
    bLabel: b.label,
    context: contextLines,
    ignoreWhitespace: input.ignore_whitespace === true,
    ...(ignorePattern === undefined ? {} : { ignorePattern }),
  });
  if (outcome.kind === 'too_large') throw tooLarge(outcome.side === 'a' ? a : b, outcome);
  if (outcome.kind === 'too_different') throw tooDifferent(a, b);

  const ignoring = input.ignore_whitespace === true || ignorePattern !== undefined;
  const attributes = {
    a: a.attribute,
    b: b.attribute,
    identical: String(outcome.kind === 'identical'),
    added: outcome.added,
    removed: outcome.removed,
    hunks: outcome.hunks,
    ignore_whitespace: input.ignore_whitespace === true ? 'true' : undefined,
    ignore_pattern: input.ignore_pattern,
    a_growing: a.growing,
    b_growing: b.growing,
  };
  if (outcome.kind === 'identical') {
    const same = a.text === b.text;
    const message =
      same || !ignoring
        ? `${a.label} and ${b.label} are identical (${plural(lineCount(a.text), 'line')}).`
        : `No line differs between ${a.label} and ${b.label} once ${ignoredWhat(input)} are ignored; ` +
          'they differ only in what was ignored.';
    return { text: parentElement('diff_result', attributes, [textElement('message', {}, message)]) };
  }
  const summary = `${a.label} → ${b.label}: ${plural(outcome.added, 'line')} added and ${outcome.removed} removed, in ${plural(outcome.hunks, 'hunk')}`;
  const legend =
    `a unified diff ("-" lines only in ${a.label}, "+" lines only in ${b.label}, " " lines in both; ` +
    '"@@ -start,count +start,count @@" gives the line numbers on each side)' +
    (ignoring ? `, ${ignoredWhat(input)} ignored` : '');
  const whole = parentElement('diff_result', attributes, [
    textElement('message', {}, `${summary}, as ${legend}.`),
    textElement('diff', {}, outcome.text),
  ]);
  if (whole.length <= context.pageSize) return { text: whole };
  return await storedDiff(context, attributes, `${summary}. The diff is ${legend}.`, outcome.text);
}

/** A diff too long for one result: stored whole as a descriptor, its start shown within the page. */
async function storedDiff(
  context: ToolContext,
  attributes: Readonly<Record<string, string | number | undefined>>,
  summary: string,
  diff: string,
): Promise<ToolResult> {
  const stored = await storeForReply(
    context.session,
    { kind: 'tool_output', toolName: 'diff_fd' },
    diff,
    context.pageSize,
  );
  const id = stored.descriptor.id;
  const around = (reply: string): string =>
    // `truncated`: the result shows only the start of the diff `fd` holds (the MCP server's facts read it).
    parentElement('diff_result', { ...attributes, fd: id, truncated: 'true' }, [
      textElement('message', {}, summary),
      reply,
    ]);
  // The reply's preview is as long as the page leaves room for around it.
  const text = around(stored.reply(Math.max(0, context.pageSize - around('').length)));
  return { text, made: [id] };
}

/** What the options ignored, for the messages. */
function ignoredWhat(input: DiffFdInput): string {
  const parts = [
    ...(input.ignore_whitespace === true ? ['differences in whitespace'] : []),
    ...(input.ignore_pattern === undefined ? [] : [`the parts of lines matching /${input.ignore_pattern}/`]),
  ];
  return parts.join(' and ');
}

function compileIgnorePattern(pattern: string | undefined): RegExp | undefined {
  if (pattern === undefined) return undefined;
  try {
    return new RegExp(pattern, 'g');
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : String(error);
    throw new ToolError(
      'invalid_argument',
      `diff_fd: ignore_pattern is not a valid JavaScript regular expression (${reason}). Escape special characters ` +
        'with \\ (a literal dot is \\.).',
    );
  }
}

/**
 * One side: a descriptor or ref (an id starting `fd:` or `ref:`) of `source`, or of the session `sessionName`
 * names; else a workspace file, read only, at most `MAX_DIFF_SIDE_CHARS` bytes.
 */
async function readSide(
  context: ToolContext,
  source: ToolSession,
  named: string,
  sessionName: string | undefined,
  sessionKey: string,
): Promise<Side> {
  const wanted = named.trim();
  if (descriptorKindOf(wanted) === undefined) {
    if (sessionName !== undefined) {
      throw new ToolError(
        'invalid_argument',
        `diff_fd: ${sessionKey} names a session, but ${quoteInput(clipInput(wanted, 200))} is a file path, not a descriptor id.`,
      );
    }
    if (context.workspaceTrusted === false) throw untrustedFileError(wanted);
    const file = await readWorkspaceText(
      wanted,
      context.workspaceRoots,
      context.fileSystem,
      MAX_DIFF_SIDE_CHARS,
      wanted,
    );
    return { text: file.text, label: file.shown, attribute: file.shown };
  }
  const session = await sideSession(context, source, sessionName, sessionKey);
  const descriptor = await requireDescriptor(session, wanted);
  const { content } = descriptor;
  const label = sessionName === undefined ? descriptor.id : `${descriptor.id} (session ${sessionName})`;
  // Refused before it is read: the text is held whole in memory to diff.
  if (content.length > MAX_DIFF_SIDE_CHARS || content.totalLines > MAX_DIFF_SIDE_LINES)
    throw tooLarge({ label }, { chars: content.length, lines: content.totalLines });
  return {
    text: await content.slice(0, content.length),
    label,
    attribute: descriptor.id,
    growing: growingAttribute(descriptor),
  };
}

async function sideSession(
  context: ToolContext,
  source: ToolSession,
  name: string | undefined,
  key: string,
): Promise<ToolSession> {
  if (name === undefined) return source;
  if (context.openSession === undefined)
    throw new ToolError('invalid_argument', `diff_fd: ${key} cannot be used here: only this session can be read.`);
  return context.openSession(name);
}

/**
 * Why a workspace-file side is refused in Restricted Mode: the workspace is not trusted, so its files are not handed
 * to a model (descriptors and refs, which FD Refs itself keeps, still are).
 */
export function untrustedFileError(named: string): ToolError {
  return new ToolError(
    'permission_denied',
    `diff_fd cannot read the workspace file ${quoteInput(clipInput(named, 200))} in Restricted Mode: this workspace ` +
      'is not trusted, so FD Refs does not read its files for a model. Compare descriptors or refs (fd:N, ' +
      'ref:name) instead; the user can trust the workspace (Manage Workspace Trust) to compare files.',
    named,
  );
}

function tooLarge(side: Pick<Side, 'label'>, size: { chars: number; lines: number }): ToolError {
  return new ToolError(
    'invalid_argument',
    `${side.label} is ${size.chars.toLocaleString('en-US')} characters (${size.lines.toLocaleString('en-US')} ` +
      `line${size.lines === 1 ? '' : 's'}), more than ` +
      `diff_fd compares (at most ${MAX_DIFF_SIDE_CHARS.toLocaleString('en-US')} characters and ` +
      `${MAX_DIFF_SIDE_LINES.toLocaleString('en-US')} lines a side). Compare a part of it: extract the lines with ` +
      'read_fd(mode="line", start=..., count=..., extract_to_new_fd=true) and diff the extract, or find what ' +
      'changed with search_fd.',
  );
}

function tooDifferent(a: Side, b: Side): ToolError {
  return new ToolError(
    'invalid_argument',
    `${a.label} and ${b.label} differ in more than ${MAX_DIFF_EDITS.toLocaleString('en-US')} lines (or the diff ` +
      `took longer than ${DIFF_TIMEOUT_MS / 1000} s), too many to diff: they are probably not two versions of one ` +
      'text. Compare parts of them (read_fd with extract_to_new_fd), or set ignore_pattern to the lines that vary.',
  );
}

export const diffFdTool = defineTool({
  name: 'diff_fd',
  title: 'Compare two descriptors',
  description:
    'Compare two stored outputs, refs or workspace files (a and b: "fd:3", "ref:name", or a file path) as a ' +
    'unified diff: which lines were removed from a and added in b, with line numbers and context. Optionally ' +
    'ignores whitespace and lines matching a pattern (timestamps, durations). Says so when they are identical; a ' +
    'diff longer than a page is stored as a new descriptor and its start shown.',
  schema: diffFdInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  sessionFields: diffFdSessionFields,
  prompt:
    'diff_fd compares two descriptors, refs or workspace files as a unified diff (ignore_pattern for timestamps). Example: diff_fd(a="fd:1", b="fd:4", ignore_pattern="\\d+ms").',
  copilot: {
    referenceName: 'diffFd',
    displayName: 'Compare FD Refs Descriptors',
    userDescription: 'Diff two stored outputs (fd:N), refs or workspace files.',
    icon: '$(diff)',
    when:
      'Use it to see what changed between two runs of a command (a test run before and after a fix), or between ' +
      'stored content and a workspace file, instead of reading both.',
    looksUpSessions: true,
    invocation: (args) =>
      `Comparing ${args.text('a') ?? 'a'} with ${args.text('b') ?? 'b'}${inSessionNote(args.text('session'))}`,
  },
  headline: diffHeadline,
  run: diffFd,
});

function diffHeadline({ args, tag }: FinishedCall): HeadlinePart[] | undefined {
  if (tag?.name !== 'diff_result') return undefined;
  const a = tag.attributes;
  const own = ownSession(args);
  const sidePart = (id: string | undefined, sessionArg: unknown): HeadlinePart =>
    descriptorKindOf(id ?? '') === undefined ? { text: id ?? '?' } : fdPart(id, own && sessionArg === undefined);
  const parts: HeadlinePart[] = [
    { text: 'Compared ' },
    sidePart(a['a'], args['a_session']),
    { text: ' with ' },
    sidePart(a['b'], args['b_session']),
  ];
  if (a['identical'] === 'true') return [...parts, { text: ': identical' }];
  parts.push({ text: `: ${number(a['added'])} added, ${number(a['removed'])} removed` });
  if (a['fd'] !== undefined) parts.push({ text: ', diff in ' }, fdPart(a['fd'], true));
  return parts;
}
