/**
 * `store_text` (refs and long text into this process's session) and `list_sessions` (every session of the store,
 * for the `session` argument of the reading tools).
 */
import * as z from 'zod';
import { errorMessage } from '../core/errors';
import { extractRefs } from '../core/refs/extract';
import { inBatches, type Store } from '../core/store/store';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { emptyElement, parentElement, textElement } from '../core/xml';
import { resourceLink } from './resourceUris';
import { INLINE_OUTPUT_CHARS, type ToolReply } from './toolReply';

export const storeTextInput = z.strictObject({
  text: z
    .string()
    .describe('Text holding <ref id="name">...</ref> blocks; each becomes ref:name (a new version when changed).'),
});
export type StoreTextInput = z.output<typeof storeTextInput>;

export const STORE_TEXT_DESCRIPTION =
  'Keep text in fdref: every <ref id="name">...</ref> block in it becomes ref:name (a changed ref gets a new ' +
  `version, ref:name@1 stays readable), and text longer than ${INLINE_OUTPUT_CHARS} characters is also kept whole ` +
  'as a descriptor fd:N. Returns what was registered. Read them later with get_ref, read_fd or fd_to_file.';

export async function storeText(input: StoreTextInput, session: StoreToolSession): Promise<ToolReply> {
  const { refs, diagnostics } = extractRefs(input.text);
  const registered = [];
  for (const ref of refs) registered.push(await session.registerRef(ref));
  const stored = input.text.length > INLINE_OUTPUT_CHARS;
  const descriptor = stored ? await session.createFd('user_input', input.text) : undefined;
  const parts = [
    refs.length === 0 ? 'No <ref> block was found.' : `${refs.length} ref${refs.length === 1 ? '' : 's'} found.`,
    descriptor === undefined
      ? `The text (${input.text.length} characters) was not kept as a descriptor: it is not longer than ${INLINE_OUTPUT_CHARS}.`
      : `The whole text (${input.text.length} characters) is kept as ${descriptor.id}.`,
  ];
  const children = [
    textElement('message', {}, parts.join(' ')),
    ...registered.map((r) =>
      emptyElement('ref', {
        id: r.id,
        fd: r.descriptor.id,
        version: r.version,
        new_version: r.created ? 'true' : 'false',
        lines: r.descriptor.content.totalLines,
        chars: r.descriptor.content.length,
        language: r.descriptor.language,
      }),
    ),
    ...diagnostics.slice(0, 20).map((d) => textElement('diagnostic', { offset: d.offset }, d.message)),
  ];
  return {
    text: parentElement(
      'store_result',
      { session: session.id, refs: registered.length, fd: descriptor?.id, chars: input.text.length },
      children,
    ),
    links: [
      ...(descriptor === undefined ? [] : [resourceLink(session.id, descriptor)]),
      ...registered.map((r) => resourceLink(session.id, r.descriptor)),
    ],
  };
}

export const listSessionsInput = z.strictObject({});

export const LIST_SESSIONS_DESCRIPTION =
  "List the sessions of the fdref store: this server's own, other agents', and VS Code's chats and captures, " +
  'newest first, with how many descriptors and refs each holds. Pass a session id as `session` to read_fd, ' +
  'search_fd, fd_to_file, list_refs or get_ref to read what another session stored (never to change it).';

/** `<session_list>` of `<session id= name= created= fds= refs=>`; `refs` counts ref ids, not versions. */
export async function listSessions(store: Store, current: string | undefined): Promise<ToolReply> {
  const { sessions, unreadable } = await store.list();
  const counts = new Map<string, { fds: number; refs: number } | string>();
  await inBatches(sessions, 8, async (meta) => {
    try {
      const reader = await store.read(meta.id);
      if (reader !== undefined) counts.set(meta.id, { fds: reader.current.fds.size, refs: reader.current.refs.size });
    } catch (error) {
      counts.set(meta.id, errorMessage(error));
    }
  });
  const items = sessions.flatMap((meta) => {
    const count = counts.get(meta.id);
    if (count === undefined) return []; // removed meanwhile
    return [
      emptyElement('session', {
        id: meta.id,
        name: meta.name,
        created: meta.createdAt,
        fds: typeof count === 'string' ? undefined : count.fds,
        refs: typeof count === 'string' ? undefined : count.refs,
        origin: meta.origin.kind,
        client: meta.origin.kind === 'mcp' ? meta.origin.client : undefined,
        current: meta.id === current ? 'true' : undefined,
        unreadable: typeof count === 'string' ? count : undefined,
      }),
    ];
  });
  const broken = unreadable.map((u) => emptyElement('unreadable_session', { id: u.id, reason: u.reason }));
  return {
    text: parentElement('session_list', { count: items.length, current }, [...items, ...broken]),
  };
}
