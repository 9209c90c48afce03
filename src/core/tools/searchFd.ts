import { growingAttribute } from '../descriptors/descriptorTable';
import type { TextSource } from '../descriptors/textSource';
import { withoutHeadHeader } from '../presentation/outputPreview';
import { ToolError } from '../toolError';
import { parentElement, textElement } from '../xml';
import { plural, wrapInToolSession } from './descriptorPreview';
import {
  DEFAULT_SEARCH_CONTEXT,
  DEFAULT_SEARCH_RESULTS,
  MAX_SEARCH_CONTEXT,
  MAX_SEARCH_RESULTS,
  searchFdInput,
  type SearchFdInput,
} from './schemas';
import * as headline from './headline';
import {
  fdPart,
  type FinishedCall,
  type HeadlinePart,
  MAX_PATTERN,
  ownSession,
  short,
  inSessionNote,
} from './headline';
import { defineTool } from './toolRecord';
import { requireDescriptor, type ToolContext, type ToolSession } from './toolContext';

/**
 * The longest part of one line a regular expression is run on. JavaScript's backtracking engine cannot be bounded
 * per match, so a pattern such as `(a+)+b` can still take long on a line shorter than this; the cap bounds the
 * polynomial cases (`.*x.*y` on a line of megabytes). Longer lines are searched in their first part only, and the
 * result counts them.
 */
export const MAX_REGEX_LINE_CHARS = 10_000;
/** The longest part of one line a plain search looks at (it is linear; this bounds the memory a line may take). */
export const MAX_PLAIN_LINE_CHARS = 1_000_000;
/** Characters of a line shown in a result; a matching line is shown around its first match. */
export const SHOWN_LINE_CHARS = 400;
/** How long a search runs before it lets other work run (the extension host must not stall for a frame). */
const SLICE_MS = 8;

interface ShownLine {
  readonly line: number;
  readonly match: boolean;
  readonly text: string;
  readonly clipped: boolean;
}

/**
 * `search_fd`: the lines of a descriptor that match `pattern`, each with a few lines of context, the first
 * `max_results` shown and all counted. One pass over `content.chunks()`: memory is one line (capped) plus the
 * context, never the whole text; CRLF line ends match and show as LF. A result longer than a page is stored as a
 * new descriptor of the context's session, and its first page is shown.
 */
export async function searchFd(context: ToolContext, input: SearchFdInput, source: ToolSession): Promise<string> {
  const descriptor = await requireDescriptor(source, input.fd);
  const regex = input.regex === true;
  const caseSensitive = input.case_sensitive === true;
  const contextLines = bounded('context', input.context ?? DEFAULT_SEARCH_CONTEXT, 0, MAX_SEARCH_CONTEXT);
  const maxResults = bounded('max_results', input.max_results ?? DEFAULT_SEARCH_RESULTS, 1, MAX_SEARCH_RESULTS);
  const matcher = compileMatcher(input.pattern, regex, caseSensitive, descriptor.id);
  const found = await scan(descriptor.content, matcher, regex ? MAX_REGEX_LINE_CHARS : MAX_PLAIN_LINE_CHARS, {
    contextLines,
    maxResults,
  });

  const id = descriptor.id;
  const attributes = {
    fd: id,
    pattern: input.pattern,
    regex: String(regex),
    case_sensitive: String(caseSensitive),
    matches: found.matches,
    shown: found.shown,
    total_lines: descriptor.content.totalLines,
    long_lines: found.longLines === 0 ? undefined : found.longLines,
    growing: growingAttribute(descriptor),
  };
  const message = describeResult(id, found, contextLines, maxResults, regex);
  const blocks = groupBlocks(found.lines).map((block) =>
    textElement(
      'lines',
      { from: block[0]?.line ?? 0, to: block[block.length - 1]?.line ?? 0 },
      block.map((l) => `${l.line}${l.match ? ':' : '-'} ${l.text}`).join('\n'),
    ),
  );
  const xml = parentElement('search_result', attributes, [textElement('message', {}, message), ...blocks]);
  const wrapped = await wrapInToolSession(
    context.session,
    { kind: 'tool_output', toolName: 'search_fd' },
    xml,
    context.pageSize,
    context.pageSize,
  );
  return wrapped.text;
}

/** Tests one line (without its line end); `at` gives where the first match starts, for showing the line around it. */
export interface Matcher {
  test(line: string): boolean;
  at(line: string): number;
}

/** The test of a line for `pattern`; a `ToolError` naming `fd` for a regular expression that does not compile. */
export function compileMatcher(pattern: string, regex: boolean, caseSensitive: boolean, fd = '*'): Matcher {
  if (!regex && caseSensitive) return { test: (line) => line.includes(pattern), at: (line) => line.indexOf(pattern) };
  let compiled: RegExp;
  try {
    compiled = new RegExp(regex ? pattern : escapeRegExp(pattern), caseSensitive ? '' : 'i');
  } catch (error) {
    const reason = error instanceof SyntaxError ? error.message : String(error);
    throw new ToolError(
      'invalid_argument',
      `search_fd: pattern is not a valid JavaScript regular expression (${reason}). ` +
        'Escape special characters with \\, or pass regex=false to search for the text as it is.',
      fd,
    );
  }
  return { test: (line) => compiled.test(line), at: (line) => line.search(compiled) };
}

function escapeRegExp(text: string): string {
  return text.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
}

function bounded(name: string, value: number, min: number, max: number): number {
  if (value < min || value > max)
    throw new ToolError('invalid_argument', `search_fd: ${name} must be from ${min} to ${max} (got ${value}).`);
  return value;
}

interface ScanResult {
  /** Matching lines in all. */
  matches: number;
  shown: number;
  /** Matching lines and their context, in order (at most `maxResults` matches). */
  lines: ShownLine[];
  /** Lines longer than the searched part. */
  longLines: number;
  /** The line of the first match not shown, when there are more. */
  firstNotShown?: number;
}

/** One pass over the text, line by line, a partial line carried from chunk to chunk. */
async function scan(
  content: TextSource,
  matcher: Matcher,
  maxLineChars: number,
  limits: { contextLines: number; maxResults: number },
): Promise<ScanResult> {
  const result: ScanResult = { matches: 0, shown: 0, lines: [], longLines: 0 };
  const before: ShownLine[] = [];
  let afterLeft = 0;
  let lineNumber = 0;
  let carry = '';
  let carryLength = 0;

  /** Ends the current line with `piece`; `newline` when a `\n` ended it (only then is a CR before it a line end). */
  const finishLine = (piece: string, newline: boolean): void => {
    lineNumber++;
    let line = carry + piece;
    let fullLength = carryLength + piece.length;
    carry = '';
    carryLength = 0;
    if (newline && line.endsWith('\r') && fullLength === line.length) {
      line = line.slice(0, -1);
      fullLength--;
    }
    if (line.length > maxLineChars) line = line.slice(0, maxLineChars);
    if (fullLength > maxLineChars) result.longLines++;
    const match = matcher.test(line);
    if (match) result.matches++;
    if (match && result.shown < limits.maxResults) {
      result.shown++;
      result.lines.push(...before.splice(0));
      result.lines.push(shownLine(line, lineNumber, true, fullLength, matcher.at(line)));
      afterLeft = limits.contextLines;
      return;
    }
    if (match) {
      // A match past the cap ends the context shown: it would read as a match nobody counted.
      result.firstNotShown ??= lineNumber;
      afterLeft = 0;
      return;
    }
    if (afterLeft > 0) {
      afterLeft--;
      result.lines.push(shownLine(line, lineNumber, false, fullLength, 0));
    } else if (limits.contextLines > 0 && result.shown < limits.maxResults) {
      before.push(shownLine(line, lineNumber, false, fullLength, 0));
      if (before.length > limits.contextLines) before.shift();
    }
  };

  let sliceStart = Date.now();
  for await (const chunk of content.chunks()) {
    const text = chunk.text;
    let from = 0;
    for (let newline = text.indexOf('\n'); newline !== -1; newline = text.indexOf('\n', from)) {
      finishLine(text.slice(from, newline), true);
      from = newline + 1;
      if ((lineNumber & 1023) === 0 && Date.now() - sliceStart >= SLICE_MS) {
        await new Promise((resolve) => setTimeout(resolve, 0));
        sliceStart = Date.now();
      }
    }
    if (from < text.length) {
      // Keep at most the searched part of a long line, but count all of it.
      const rest = text.slice(from, from + Math.max(0, maxLineChars + 1 - carry.length));
      carry += rest;
      carryLength += text.length - from;
    }
    if (Date.now() - sliceStart >= SLICE_MS) {
      await new Promise((resolve) => setTimeout(resolve, 0));
      sliceStart = Date.now();
    }
  }
  if (carryLength > 0) finishLine('', false);
  return result;
}

/** A line as the result shows it: at most `SHOWN_LINE_CHARS`, a matching line around its match. */
export function shownLine(line: string, lineNumber: number, match: boolean, fullLength: number, at: number): ShownLine {
  if (line.length <= SHOWN_LINE_CHARS && fullLength === line.length)
    return { line: lineNumber, match, text: line, clipped: false };
  const start = Math.max(0, Math.min(at - SHOWN_LINE_CHARS / 4, line.length - SHOWN_LINE_CHARS));
  const end = Math.min(line.length, start + SHOWN_LINE_CHARS);
  const text = `${start > 0 ? '…' : ''}${line.slice(start, end)}${end < fullLength ? '…' : ''}`;
  return { line: lineNumber, match, text, clipped: true };
}

/** Runs of consecutive lines. */
function groupBlocks(lines: readonly ShownLine[]): ShownLine[][] {
  const blocks: ShownLine[][] = [];
  for (const line of lines) {
    const block = blocks[blocks.length - 1];
    const last = block?.[block.length - 1];
    if (block !== undefined && last !== undefined && last.line + 1 === line.line) block.push(line);
    else blocks.push([line]);
  }
  return blocks;
}

function describeResult(
  id: string,
  found: ScanResult,
  contextLines: number,
  maxResults: number,
  regex: boolean,
): string {
  const parts: string[] = [];
  if (found.matches === 0) parts.push(`No line of ${id} matches.`);
  else {
    const where = `each line as "N: text" (a match) or "N- text" (${plural(contextLines, 'line')} of context)`;
    parts.push(
      found.shown === found.matches
        ? `${plural(found.matches, 'line')} of ${id} match${found.matches === 1 ? 'es' : ''}, all shown below, ${where}.`
        : `${plural(found.matches, 'line')} of ${id} match; the first ${found.shown} are shown below, ${where}.` +
            ` The next match is on line ${found.firstNotShown}: search again with a narrower pattern` +
            (maxResults < MAX_SEARCH_RESULTS ? ` or a larger max_results (at most ${MAX_SEARCH_RESULTS})` : '') +
            ', or read from there with read_fd line mode.',
    );
    parts.push(
      `Read around a match with read_fd(fd="${id}", mode="line", start=<line - 10>, count=20). ` +
        `Lines longer than ${SHOWN_LINE_CHARS} characters are shown in part, cut where "…" stands.`,
    );
  }
  if (found.longLines > 0) {
    const limit = regex ? MAX_REGEX_LINE_CHARS : MAX_PLAIN_LINE_CHARS;
    parts.push(
      `${plural(found.longLines, 'line')} longer than ${limit} characters ${found.longLines === 1 ? 'was' : 'were'} ` +
        `searched in ${found.longLines === 1 ? 'its' : 'their'} first ${limit} characters only` +
        (regex ? '; a plain search (regex=false) looks further.' : '.'),
    );
  }
  return parts.join(' ');
}

export const searchFdTool = defineTool({
  name: 'search_fd',
  title: 'Search a descriptor',
  description:
    'Find the lines of a descriptor or ref that contain a text (or match a regular expression with regex=true), ' +
    'case-insensitive unless case_sensitive=true. Shows each matching line with its line number and context ' +
    'lines, the first max_results of them, and counts every match; read around one with read_fd mode "line". ' +
    'A result longer than a page is stored as a new descriptor and its start and end shown.',
  schema: searchFdInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  prompt:
    'search_fd finds the lines that contain a text (regex=true for a regular expression), with line numbers and context, and counts all matches; read around one with mode "line". Example: search_fd(fd="fd:1", pattern="error").',
  copilot: {
    referenceName: 'searchFd',
    displayName: 'Search FD Refs Descriptor',
    userDescription: 'Find the lines of stored output (fd:N) or a ref that contain a text or match a pattern.',
    icon: '$(search)',
    when:
      'Use it to find errors, names or values in long stored output before reading around them with read_fd ' +
      'mode "line", instead of reading every page.',
    looksUpSessions: true,
    invocation: (args) =>
      `Searching ${args.text('fd') ?? 'a descriptor'}${inSessionNote(args.text('session'))} for "${args.text('pattern') ?? ''}"`,
  },
  headline: searchHeadline,
  run: searchFd,
});

function searchHeadline({ args, tag, result }: FinishedCall): HeadlinePart[] | undefined {
  const own = ownSession(args);
  if (tag?.name === 'search_result') return searched(tag.attributes, own);
  if (tag?.name !== 'fd_result') return undefined;
  // A long search result is itself stored: its preview starts with the search's own tag.
  const preview = result.slice(tag.end, headline.SCAN_CHARS).replace(/^[^]*?<preview>/, '');
  const inner = headline.openingTag(withoutHeadHeader(headline.unwrapCdata(preview)));
  if (inner?.name !== 'search_result') return undefined;
  return [...searched(inner.attributes, own), { text: ', all results in ' }, fdPart(tag.attributes['fd'], true)];
}

function searched(a: Readonly<Record<string, string>>, own: boolean): HeadlinePart[] {
  const pattern = short((a['pattern'] ?? '').replace(/[\r\n\t]+/g, ' '), MAX_PATTERN);
  const shown = a['regex'] === 'true' ? `/${pattern}/` : `"${pattern}"`;
  const matches = a['matches'] === '0' ? 'no matches' : headline.plural(a['matches'], 'match', 'matches');
  return [{ text: 'Searched ' }, fdPart(a['fd'], own), { text: ` for ${shown}: ${matches}` }];
}
