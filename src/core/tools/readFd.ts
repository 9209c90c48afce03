import {
  selectChars,
  selectLines,
  selectPages,
  selectTail,
  SelectionError,
  type Selection,
} from '../descriptors/selection';
import type { TextSource } from '../descriptors/textSource';
import { parentElement, textElement } from '../xml';
import { DEFAULT_TAIL_LINES, type ReadFdInput } from './schemas';
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
    return parentElement('fd_content', { fd: descriptor.id, ...selection.attributes }, [
      textElement('message', {}, message),
      textElement('content', {}, selection.text),
    ]);
  }
  return textElement('fd_content', { fd: descriptor.id, ...selection.attributes }, selection.text);
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
