import { descriptorIdBody, descriptorKindOf, prefixedDescriptorId } from '../ids';
import { emptyElement, parentElement, textElement } from '../xml';
import { restReads, selectWhole, tooLong } from './readFd';
import type { GetRefInput } from './schemas';
import { requireDescriptor, type ToolContext, type ToolSession } from './toolContext';

/** `list_refs`: every ref of `source`, in the order they were first created, with their latest version. */
export async function listRefs(_context: ToolContext, source: ToolSession): Promise<string> {
  const entries = await source.refs();
  const items = entries.map(({ descriptor, versions, session }) =>
    emptyElement('ref', {
      id: descriptorIdBody(descriptor.id),
      fd: descriptor.id,
      created: descriptor.createdAt,
      lines: descriptor.content.totalLines,
      chars: descriptor.content.length,
      language: descriptor.language,
      versions,
      session: session?.id,
      session_name: session?.name,
    }),
  );
  return parentElement('ref_list', { count: entries.length }, items);
}

/**
 * `get_ref`: the content of a ref (`x`, `ref:x` or `ref:x@2`): all of it when it fits in one result on this surface;
 * a longer one gives its first pages and how to read the rest (the ref is a descriptor already, so nothing is copied).
 */
export async function getRef(context: ToolContext, input: GetRefInput, source: ToolSession): Promise<string> {
  const written = input.id.trim();
  // get_ref reads refs only: anything without `ref:` is a ref id, so `fd:3` is not found.
  const descriptor = await requireDescriptor(
    source,
    descriptorKindOf(written) === 'ref' ? written : prefixedDescriptorId('ref', written),
  );
  const content = descriptor.content;
  const attributes = {
    id: descriptorIdBody(descriptor.id),
    fd: descriptor.id,
    lines: content.totalLines,
    chars: content.length,
    language: descriptor.language,
  };
  const first = await selectWhole(content, context);
  if (first.end >= content.length) return textElement('ref_content', attributes, first.text);
  const pages = Number(first.attributes['pages']);
  const message =
    `${tooLong(descriptor.id, content, context, first)} Read the rest with ${restReads(descriptor.id, first)}, ` +
    'or write it to a file with fd_to_file.';
  return parentElement('ref_content', { ...attributes, page: first.attributes['page'], pages }, [
    textElement('message', {}, message),
    textElement('content', {}, first.text),
  ]);
}
