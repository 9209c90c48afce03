import { descriptorIdBody, descriptorKindOf, prefixedDescriptorId } from '../ids';
import { emptyElement, parentElement, textElement } from '../xml';
import { restReads, selectWhole, tooLong } from './readFd';
import { getRefInput, listRefsInput, type GetRefInput } from './schemas';
import {
  fdPart,
  type FinishedCall,
  type HeadlinePart,
  inSession,
  number,
  ownSession,
  plural,
  inSessionNote,
} from './headline';
import { defineTool, listing } from './toolRecord';
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

const refsListing = listing('refs', 'ref_list');

export const listRefsTool = defineTool({
  name: 'list_refs',
  title: 'List refs',
  description: 'List the refs of this conversation with their sizes, languages and number of versions.',
  schema: listRefsInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  copilot: {
    referenceName: 'listRefs',
    displayName: 'List FD Refs',
    userDescription: 'List the refs (marked code and text) of the recent FD Refs sessions.',
    icon: '$(list-unordered)',
    when:
      'Use it to see which refs exist before getting one, e.g. when the user mentions code marked earlier. ' +
      'Without `session` it lists the refs of the recent sessions, each with its session.',
    looksUpSessions: true,
    invocation: refsListing.invocation,
  },
  headline: refsListing.headline,
  run: (context, _input, source) => listRefs(context, source),
});

export const getRefTool = defineTool({
  name: 'get_ref',
  title: 'Get a ref',
  description:
    'Get the content of a ref by id ("my_code", "ref:my_code", or an earlier version "my_code@1"): all of it when ' +
    'it fits in one result, else its first pages and how to read the rest with read_fd.',
  schema: getRefInput,
  effect: 'read',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  copilot: {
    referenceName: 'getRef',
    displayName: 'Get FD Refs Ref',
    userDescription: 'Get the content of a ref (marked code or text) by its name.',
    icon: '$(symbol-snippet)',
    when: 'Use it when the user or a result names a ref ("ref:name", "#name") whose content you need.',
    looksUpSessions: true,
    invocation: (args) => `Getting ref ${args.text('id') ?? ''}${inSessionNote(args.text('session'))}`,
  },
  headline: ({ args, tag }: FinishedCall): HeadlinePart[] | undefined => {
    if (tag?.name !== 'ref_content') return undefined;
    const a = tag.attributes;
    return [
      { text: 'Read ' },
      fdPart(a['fd'], ownSession(args)),
      { text: a['pages'] ? ` page 1 of ${number(a['pages'])}` : ` (${plural(a['lines'], 'line')})` },
      ...inSession(args),
    ];
  },
  run: getRef,
});
