/**
 * The MCP resource URIs of descriptors and refs: `fdref://<session>/fd/<n>` and `fdref://<session>/ref/<id>`
 * (`<id>@<n>` for an earlier version). One home for building and reading them.
 */
import type { ResourceLink } from '@modelcontextprotocol/server';
import { descriptorIdBody, formatDescriptorId, parseDescriptorId, prefixedDescriptorId } from '../core/ids';
import { StoredContent } from '../core/store';
import type { ToolDescriptor } from '../core/tools/toolContext';

export const RESOURCE_SCHEME = 'fdref';
export const FD_TEMPLATE = `${RESOURCE_SCHEME}://{session}/fd/{n}`;
export const REF_TEMPLATE = `${RESOURCE_SCHEME}://{session}/ref/{id}`;

/** The URI of `fd:N`, `ref:x` or `ref:x@n` in `session`. */
export function resourceUri(session: string, descriptorId: string): string {
  const parts = parseDescriptorId(descriptorId);
  if (parts === undefined) throw new Error(`${descriptorId} is not a descriptor id.`);
  return parts.kind === 'fd'
    ? `${RESOURCE_SCHEME}://${session}/fd/${parts.number}`
    : `${RESOURCE_SCHEME}://${session}/ref/${descriptorIdBody(descriptorId)}`;
}

/** A part of a resource URI with its `%XX` escapes decoded; undefined when an escape is malformed. */
export function decodeUriPart(value: string): string | undefined {
  try {
    return decodeURIComponent(value);
  } catch {
    return undefined;
  }
}

/** The descriptor id a template's variables name (`fd:3`, `ref:x`, `ref:x@2`); undefined when they name none. */
export function descriptorIdOf(kind: 'fd' | 'ref', value: string): string | undefined {
  const text = decodeUriPart(value);
  if (text === undefined) return undefined;
  const id =
    kind === 'fd'
      ? /^\d+$/.test(text)
        ? formatDescriptorId({ kind: 'fd', number: Number(text) })
        : undefined
      : prefixedDescriptorId('ref', text);
  return id !== undefined && parseDescriptorId(id) !== undefined ? id : undefined;
}

/** A `resource_link` content block for a descriptor of `session`. */
export function resourceLink(session: string, descriptor: ToolDescriptor): ResourceLink {
  const kind = descriptor.source === 'reference' ? 'ref' : 'descriptor';
  return {
    type: 'resource_link',
    uri: resourceUri(session, descriptor.id),
    name: `${descriptor.id} (session ${session})`,
    description: `The ${kind} ${descriptor.id}: ${descriptor.content.length} characters, ${descriptor.content.totalLines} lines.`,
    mimeType: 'text/plain',
    ...(descriptor.content instanceof StoredContent ? { size: descriptor.content.bytes } : {}),
  };
}
