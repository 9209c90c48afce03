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
    // Too long to return whole: the first page, and how to read the rest (the descriptor already holds it all).
    const pages = Number(selection.attributes['pages']);
    const message =
      `${descriptor.id} is ${content.length} characters (${plural(content.totalLines, 'line')}), longer than one ` +
      `page, so only page 1 of ${pages} is here. Read the rest with ${pageReads(descriptor.id, 2, pages)}, ` +
      `search it with search_fd, or write it to a file with fd_to_file.`;
    return parentElement('fd_content', { fd: descriptor.id, ...selection.attributes }, [
      textElement('message', {}, message),
      textElement('content', {}, selection.text),
    ]);
  }
  return textElement('fd_content', { fd: descriptor.id, ...selection.attributes }, selection.text);
}

async function select(context: ToolContext, content: TextSource, input: ReadFdInput, fd: string): Promise<Selection> {
  try {
    if (input.read_all === true) {
      const all = await selectPages(content, context.pageSize, 1, 1);
      return all.end < content.length ? all : { ...all, attributes: { ...all.attributes, page: 'all' } };
    }
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
