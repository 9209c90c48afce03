import { descriptorIdBody, descriptorKindOf, prefixedDescriptorId, refDescriptorId } from '../ids';
import { emptyElement, parentElement, textElement } from '../xml';
import type { GetRefInput } from './schemas';
import { requireDescriptor, type ToolContext } from './toolContext';

/** `list_refs`: every ref of the session, in the order they were first created, with their latest version. */
export function listRefs(context: ToolContext): string {
  const entries = context.table.refEntries();
  const items = entries.map(([id, versions]) => {
    const latest = versions[versions.length - 1];
    if (latest === undefined) throw new Error(`ref ${id} has no versions`);
    return emptyElement('ref', {
      id,
      fd: refDescriptorId(id),
      created: latest.createdAt,
      lines: latest.content.totalLines,
      chars: latest.content.length,
      language: latest.language,
      versions: versions.length,
    });
  });
  return parentElement('ref_list', { count: entries.length }, items);
}

/** `get_ref`: the whole content of a ref (`x`, `ref:x` or `ref:x@2`). */
export function getRef(context: ToolContext, input: GetRefInput): string {
  const written = input.id.trim();
  // get_ref reads refs only: anything without `ref:` is a ref id, so `fd:3` is not found.
  const descriptor = requireDescriptor(
    context,
    descriptorKindOf(written) === 'ref' ? written : prefixedDescriptorId('ref', written),
  );
  return textElement(
    'ref_content',
    {
      id: descriptorIdBody(descriptor.id),
      fd: descriptor.id,
      lines: descriptor.content.totalLines,
      chars: descriptor.content.length,
      language: descriptor.language,
    },
    descriptor.content.text,
  );
}
