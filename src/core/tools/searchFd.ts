import { growingAttribute } from '../descriptors/descriptorTable';
import type { TextSource } from '../descriptors/textSource';
import { withoutHeadHeader } from '../presentation/outputPreview';
import { errorMessage } from '../errors';
import { ToolError } from '../toolError';
import { parentElement, textElement } from '../xml';
import { plural, wrapInToolSession } from './descriptorPreview';
import {
  DEFAULT_SEARCH_CONTEXT,
  DEFAULT_SEARCH_RESULTS,
  MAX_SEARCH_CONTEXT,
  MAX_SEARCH_RESULTS,
  searchFdInput,
  searchSessionField,
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
import type { SearchHit, SearchPage, SearchQuery } from './storeSearchPort';
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
  if (input.fd.trim() === '*') return searchStore(context, input);
  const storeOnly = (['origin', 'command', 'since', 'until', 'offset'] as const).filter((k) => input[k] !== undefined);
  if (storeOnly.length > 0)
    throw new ToolError(
      'invalid_argument',
      `search_fd: ${storeOnly.join(', ')} ${storeOnly.length === 1 ? 'applies' : 'apply'} only with fd="*" (a search across descriptors).`,
      input.fd,
    );
  if (input.session === '*')
    throw new ToolError(
      'invalid_argument',
      'search_fd: session="*" searches every session and needs fd="*"; to search one descriptor of another session, name that session.',
      input.fd,
    );
  if (input.session !== undefined && context.openSession === undefined)
    throw new ToolError(
      'invalid_argument',
      'search_fd: here session works only with fd="*" (a search across descriptors); other sessions cannot be opened.',
      input.fd,
    );
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
  return resultText(context, xml);
}

/** A search's result as the model gets it: whole up to a page, else stored as a new descriptor and previewed. */
async function resultText(context: ToolContext, xml: string): Promise<string> {
  const wrapped = await wrapInToolSession(
    context.session,
    { kind: 'tool_output', toolName: 'search_fd' },
    xml,
    context.pageSize,
    context.pageSize,
  );
  return wrapped.text;
}

/** A time `since`/`until` names: ISO 8601, or an age ("30m", "2h", "7d") before `now`. */
export function parseSearchTime(name: string, value: string, now: number): number {
  const age = /^(\d+)\s*(s|m|h|d|w)$/i.exec(value.trim());
  if (age !== null) {
    const unit = { s: 1e3, m: 6e4, h: 36e5, d: 864e5, w: 6048e5 }[(age[2] ?? 's').toLowerCase() as 's'];
    return now - Number(age[1]) * unit;
  }
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new ToolError(
      'invalid_argument',
      `search_fd: ${name} must be an ISO 8601 time ("2026-11-27T10:00") or an age ("30m", "2h", "7d"), not ${JSON.stringify(value.slice(0, 40))}.`,
      '*',
    );
  return time;
}

/**
 * `search_fd` with `fd: "*"`: every descriptor and ref of this session, of the session `session` names, or of every
 * session (`session: "*"`), through the store's index; best matches first, a page at a time.
 */
async function searchStore(context: ToolContext, input: SearchFdInput): Promise<string> {
  const port = context.storeSearch;
  if (port === undefined)
    throw new ToolError(
      'invalid_argument',
      'search_fd: fd="*" (a search across descriptors) is not offered here; search one descriptor, e.g. fd="fd:1".',
      '*',
    );
  if (input.regex === true)
    throw new ToolError(
      'invalid_argument',
      'search_fd: regex=true searches one descriptor; across descriptors (fd="*") search for plain text, then ' +
        'search the descriptor it finds with the regular expression.',
      '*',
    );
  const contextLines = bounded('context', input.context ?? DEFAULT_SEARCH_CONTEXT, 0, MAX_SEARCH_CONTEXT);
  const limit = bounded('max_results', input.max_results ?? DEFAULT_SEARCH_RESULTS, 1, MAX_SEARCH_RESULTS);
  const offset = input.offset ?? 0;
  const now = Date.now();
  const session = input.session?.trim();
  const query: SearchQuery = {
    pattern: input.pattern,
    caseSensitive: input.case_sensitive === true,
    offset,
    limit,
    context: contextLines,
    ...(session === '*' || (session ?? port.thisSession) === undefined
      ? {}
      : { sessions: [session ?? port.thisSession ?? ''] }),
    ...(input.origin === undefined ? {} : { origin: input.origin.trim() }),
    ...(input.command === undefined ? {} : { command: input.command }),
    ...(input.since === undefined ? {} : { sinceMs: parseSearchTime('since', input.since, now) }),
    ...(input.until === undefined ? {} : { untilMs: parseSearchTime('until', input.until, now) }),
  };
  let page: SearchPage;
  try {
    page = await port.search(query);
  } catch (error) {
    throw new ToolError('invalid_argument', `search_fd: ${errorMessage(error)}.`, '*');
  }
  const attributes = {
    fd: '*',
    session: session ?? undefined,
    pattern: input.pattern,
    regex: 'false',
    case_sensitive: String(query.caseSensitive),
    matches: page.matches,
    exact: String(page.exact),
    shown: page.hits.length,
    offset: offset === 0 ? undefined : offset,
    next_offset: page.more ? offset + page.hits.length : undefined,
  };
  const blocks = groupHits(page.hits).map((group) => {
    const first = group[0] as SearchHit;
    const shownLines = group.flatMap((hit) => [
      ...hit.before.map((l) => ({ line: l.line, match: false, text: l.text })),
      { line: hit.line, match: true, text: hit.text },
      ...hit.after.map((l) => ({ line: l.line, match: false, text: l.text })),
    ]);
    const unique = shownLines.filter((l, i) => shownLines.findIndex((m) => m.line === l.line) === i);
    unique.sort((a, b) => a.line - b.line);
    return textElement(
      'lines',
      {
        fd: first.handle,
        session: first.session,
        session_name: first.sessionName,
        source: first.originLabel,
        command: first.command,
        from: unique[0]?.line ?? first.line,
        to: unique[unique.length - 1]?.line ?? first.line,
      },
      unique.map((l) => `${l.line}${l.match ? ':' : '-'} ${l.text}`).join('\n'),
    );
  });
  const xml = parentElement('search_result', attributes, [
    textElement('message', {}, describeStoreResult(page, offset, limit, contextLines)),
    ...blocks,
  ]);
  return resultText(context, xml);
}

/** Runs of hits of one descriptor whose shown lines touch, in the order found. */
function groupHits(hits: readonly SearchHit[]): SearchHit[][] {
  const groups: SearchHit[][] = [];
  for (const hit of hits) {
    const group = groups[groups.length - 1];
    const last = group?.[group.length - 1];
    const lastShown = (last?.after[last.after.length - 1]?.line ?? last?.line ?? 0) + 1;
    const firstShown = hit.before[0]?.line ?? hit.line;
    if (
      group !== undefined &&
      last !== undefined &&
      last.session === hit.session &&
      last.handle === hit.handle &&
      firstShown >= last.line &&
      firstShown <= lastShown
    )
      group.push(hit);
    else groups.push([hit]);
  }
  return groups;
}

function describeStoreResult(page: SearchPage, offset: number, limit: number, contextLines: number): string {
  const parts: string[] = [];
  if (page.matches === 0 && page.hits.length === 0) parts.push('No line matches.');
  else {
    const count =
      (page.exact ? plural(page.matches, 'line') : `At least ${plural(page.matches, 'line')}`) +
      (page.matches === 1 ? ' matches' : ' match');
    const where = `each line as "N: text" (a match) or "N- text" (${plural(contextLines, 'line')} of context), in a <lines> element naming its descriptor and session`;
    parts.push(
      page.hits.length === 0
        ? `${count}; none from result ${offset + 1} on.`
        : `${count}, best first; results ${offset + 1}-${offset + page.hits.length} are shown below, ${where}.`,
    );
    if (page.more) parts.push(`The next page: the same call with offset=${offset + limit}.`);
    parts.push(
      'Read around a match with read_fd(fd=<its fd>, session=<its session>, mode="line", start=<line - 10>, count=20).',
    );
  }
  if (page.windowFull)
    parts.push(
      `Its words are in more than ${plural(page.blocks, 'block')} of lines; the newest ${page.blocks} were ranked: narrow with session, origin, command or since to reach older ones.`,
    );
  if (page.unsearchedBytes > 0)
    parts.push(
      `${plural(page.unsearchedBytes, 'byte')} just kept are not indexed yet: search again in a moment to cover them.`,
    );
  return parts.join(' ');
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
    'fd="*" searches every descriptor and ref of the session (session="*": of every session kept, from every ' +
    'agent and terminal) through an index, best matches first, each with its fd and session; filter with origin, ' +
    'command, since and until, page with offset. ' +
    'A result longer than a page is stored as a new descriptor and its start and end shown.',
  schema: searchFdInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  sessionFields: { session: searchSessionField },
  readsSession: (input) => input.fd.trim() !== '*' && input.session?.trim() !== '*',
  prompt:
    'search_fd finds the lines with a text (regex=true: a regular expression), numbered, with context; fd="*" searches every descriptor (session="*": every session kept). Example: search_fd(fd="fd:1", pattern="error").',
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
