import {
  selectChars,
  selectLines,
  selectPages,
  selectTail,
  SelectionError,
  type Selection,
} from '../descriptors/selection';
import { growingAttribute } from '../descriptors/descriptorTable';
import type { TextSource } from '../descriptors/textSource';
import { parentElement, textElement } from '../xml';
import { DEFAULT_TAIL_LINES, readFdInput, type ReadFdInput } from './schemas';
import * as headline from './headline';
import { fdPart, type FinishedCall, type HeadlinePart, inSessionNote, number, ownSession, range } from './headline';
import { defineTool } from './toolRecord';
import { requireDescriptor, type ToolContext, type ToolSession } from './toolContext';
import { ToolError } from '../toolError';
import { pageReads, plural } from './descriptorPreview';
import { upperBound } from '../descriptors/content';

/**
 * `read_fd`: a page, lines, characters or the last lines of a descriptor, or all of it when it fits in a page;
 * optionally into a new descriptor. Reads from `source` (the context's session, or another one named by the call),
 * adds extracts to the context's session.
 */
export async function readFd(context: ToolContext, input: ReadFdInput, source: ToolSession): Promise<string> {
  const descriptor = await requireDescriptor(source, input.fd);
  const content = descriptor.content;
  const selection = await select(context, content, input, descriptor.id);
  if (input.extract_to_new_fd === true) {
    const fromHere = source === context.session;
    const created = await context.session.createFd(
      'extract',
      selection.text,
      fromHere ? { extractedFrom: descriptor.id } : {},
    );
    const pages = (await created.content.pageTable(context.pageSize)).length - 1;
    const message =
      `Extracted ${selection.text.length} characters of ${descriptor.id}${fromHere ? '' : ' (of the other session)'} ` +
      `into ${created.id} (${created.content.totalLines} lines, ${pages} pages) of this session. ` +
      'Read it with read_fd or write it with fd_to_file.';
    return parentElement(
      'fd_extraction',
      { source_fd: descriptor.id, new_fd: created.id, ...selection.attributes, chars: selection.text.length },
      [textElement('message', {}, message)],
    );
  }
  if (input.read_all === true && selection.end < content.length) {
    // Too long for one result here: the first pages, and how to read the rest (the descriptor already holds it all).
    const message = `${tooLong(descriptor.id, content, context, selection)} Read the rest with ${restReads(descriptor.id, selection)}, search it with search_fd, or write it to a file with fd_to_file.`;
    return parentElement(
      'fd_content',
      { fd: descriptor.id, growing: growingAttribute(descriptor), ...selection.attributes },
      [textElement('message', {}, message), textElement('content', {}, selection.text)],
    );
  }
  // A command's output still being written says so: more may follow (a later read sees it).
  return textElement(
    'fd_content',
    { fd: descriptor.id, growing: growingAttribute(descriptor), ...selection.attributes },
    selection.text,
  );
}

async function select(context: ToolContext, content: TextSource, input: ReadFdInput, fd: string): Promise<Selection> {
  try {
    // Everything into a new descriptor: nothing is returned to the model, so no result budget applies.
    if (input.read_all === true) return await selectWhole(content, context, input.extract_to_new_fd === true);
    switch (input.mode ?? 'page') {
      case 'page':
        return await selectPages(content, context.pageSize, input.start ?? 1, input.count ?? 1);
      case 'line':
        return await selectLines(content, context.pageSize, input.start ?? 1, input.count);
      case 'char':
        return await selectChars(content, input.start ?? 0, input.count ?? context.pageSize);
      case 'tail':
        return await selectTail(content, input.count ?? DEFAULT_TAIL_LINES, context.pageSize);
    }
  } catch (error) {
    if (error instanceof SelectionError) throw new ToolError(error.type, `${fd}: ${error.message}`, fd);
    throw error;
  }
}

/** Room a result keeps for its XML and message around the content. */
const RESULT_OVERHEAD_CHARS = 1000;

/**
 * What `read_all` and `get_ref` give of `content`: all of it when it fits in one result on this surface
 * (`context.resultChars`; one page when that is unset) or when `unbounded`, else as many whole pages from the first
 * as fit (at least one). All of it has `page: "all"`.
 */
export async function selectWhole(content: TextSource, context: ToolContext, unbounded = false): Promise<Selection> {
  const table = await content.pageTable(context.pageSize);
  const pages = Math.max(1, table.length - 1);
  const room = roomFor(context);
  // The last page that ends within `room` characters of the start.
  const fit = unbounded || content.length <= room ? pages : Math.max(1, upperBound(table, room) - 1);
  const selection = await selectPages(content, context.pageSize, 1, Math.min(fit, pages));
  if (selection.end < content.length) return selection;
  return { ...selection, attributes: { ...selection.attributes, page: 'all' } };
}

/** The characters of content one result may hold on the context's surface: at least a page. */
function roomFor(context: ToolContext): number {
  const budget = context.resultChars ?? 0;
  return Math.max(context.pageSize, budget - RESULT_OVERHEAD_CHARS);
}

/** Why only the first pages of a content are in a result: the handle, its size, what is here (handles first). */
export function tooLong(id: string, content: TextSource, context: ToolContext, selection: Selection): string {
  const room = roomFor(context);
  const limit = room > context.pageSize ? `the ${room} characters one result holds here` : 'one page';
  const pages = Number(selection.attributes['pages']);
  const shown = String(selection.attributes['page']);
  const here = shown === '1' ? `page 1 of ${pages} is` : `pages ${shown} of ${pages} are`;
  const size = `${content.length} characters (${plural(content.totalLines, 'line')})`;
  return `${id} is ${size}, longer than ${limit}, so only ${here} here (lines ${String(selection.attributes['lines'])}).`;
}

/** The reads that give the pages after `selection` (which starts at page 1). */
export function restReads(id: string, selection: Selection): string {
  const pages = Number(selection.attributes['pages']);
  const shown = String(selection.attributes['page']).split('-');
  return pageReads(id, Number(shown.at(-1)) + 1, pages);
}

export const readFdTool = defineTool({
  name: 'read_fd',
  title: 'Read a descriptor',
  description:
    'Read stored content: a file descriptor (fd:N, large tool output or user input) or a ref (ref:id) you marked earlier. ' +
    'Reads one page by default; mode "line" or "char" reads exact ranges, mode "tail" the last count lines ' +
    '(at most a page). read_all returns everything when it fits in one result, else the first pages and how to read ' +
    'the rest. extract_to_new_fd stores the selection as a new descriptor.',
  schema: readFdInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  prompt:
    'read_fd reads more of it: one page by default, or lines or characters (mode "line"/"char"), or the last lines (mode "tail", count=N). Example: read_fd(fd="fd:1", start=2) reads page 2; read_fd(fd="fd:1", mode="tail", count=20) the last 20 lines.',
  copilot: {
    referenceName: 'readFd',
    displayName: 'Read FD Refs Descriptor',
    userDescription: 'Read stored output (fd:N) or a ref page by page, by lines, characters or its last lines.',
    icon: '$(book)',
    when:
      'Use it whenever a result, the user or a terminal names an fd:N or ref:name, or says output was stored: read ' +
      'it page by page (or by lines, or its tail) instead of running the command again or guessing its content.',
    looksUpSessions: true,
    invocation: (args) => `Reading ${args.text('fd') ?? 'a descriptor'}${inSessionNote(args.text('session'))}`,
  },
  headline: readHeadline,
  run: readFd,
});

function readHeadline({ args, tag }: FinishedCall): HeadlinePart[] | undefined {
  const a = tag?.attributes ?? {};
  const own = ownSession(args);
  if (tag?.name === 'fd_content') return [{ text: 'Read ' }, ...readPart(a, own)];
  if (tag?.name !== 'fd_extraction') return undefined;
  return [
    { text: `Extracted ${a['lines'] ? `lines ${range(a['lines'])}` : `${number(a['chars'])} characters`} of ` },
    fdPart(a['source_fd'], own),
    { text: ' into ' },
    fdPart(a['new_fd'], true),
  ];
}

/** After "Read ": which part of which descriptor. */
function readPart(a: Readonly<Record<string, string>>, own: boolean): HeadlinePart[] {
  const fd = fdPart(a['fd'], own);
  const page = a['page'];
  const of = a['total_lines'] ? ` of ${number(a['total_lines'])}` : '';
  if (page === 'all') return [{ text: 'all of ' }, fd, { text: ` (${headline.plural(a['total_lines'], 'line')})` }];
  if (page !== undefined) {
    const pages = number(a['pages']);
    return page.includes('-')
      ? [fd, { text: ` pages ${range(page)} of ${pages}` }]
      : [fd, { text: ` page ${number(page)} of ${pages}` }];
  }
  switch (a['mode']) {
    case 'tail':
      return [{ text: 'the end of ' }, fd, { text: a['lines'] ? `, lines ${range(a['lines'])}${of}` : '' }];
    case 'char':
      return [{ text: `${headline.plural(a['count'], 'character')} of ` }, fd, { text: ` from ${number(a['start'])}` }];
    default:
      return [fd, { text: a['lines'] ? ` lines ${range(a['lines'])}${of}` : '' }];
  }
}
