import {
  selectAll,
  selectChars,
  selectLines,
  selectPages,
  SelectionError,
  type Selection,
} from '../descriptors/selection';
import { Content } from '../descriptors/content';
import { parentElement, textElement } from '../xml';
import type { ReadFdInput } from './schemas';
import { requireDescriptor, type ToolContext } from './toolContext';
import { ToolError } from '../toolError';

/** `read_fd`: a page, lines or characters of a descriptor, or all of it; optionally into a new descriptor. */
export function readFd(context: ToolContext, input: ReadFdInput): string {
  const descriptor = requireDescriptor(context, input.fd);
  const content = descriptor.content;
  const selection = select(context, content, input, descriptor.id);
  const text = content.text.slice(selection.start, selection.end);
  if (input.extract_to_new_fd === true) {
    const created = context.table.createFd('extract', new Content(text), { extractedFrom: descriptor.id });
    const pages = created.content.pageTable(context.pageSize).length - 1;
    const message =
      `Extracted ${text.length} characters of ${descriptor.id} into ${created.id} ` +
      `(${created.content.totalLines} lines, ${pages} pages). Read it with read_fd or write it with fd_to_file.`;
    return parentElement(
      'fd_extraction',
      {
        source_fd: descriptor.id,
        new_fd: created.id,
        ...selection.attributes,
        chars: text.length,
      },
      [textElement('message', {}, message)],
    );
  }
  return textElement('fd_content', { fd: descriptor.id, ...selection.attributes }, text);
}

function select(context: ToolContext, content: Content, input: ReadFdInput, fd: string): Selection {
  try {
    if (input.read_all === true) return selectAll(content, context.pageSize);
    switch (input.mode ?? 'page') {
      case 'page':
        return selectPages(content, context.pageSize, input.start ?? 1, input.count ?? 1);
      case 'line':
        return selectLines(content, context.pageSize, input.start ?? 1, input.count);
      case 'char':
        return selectChars(content, input.start ?? 0, input.count ?? context.pageSize);
    }
  } catch (error) {
    if (error instanceof SelectionError) throw new ToolError(error.type, `${fd}: ${error.message}`, fd);
    throw error;
  }
}
