/** `list_sessions`: every session of the store, for the `session` argument of the reading tools. */
import * as z from 'zod';
import { errorMessage } from '../core/errors';
import { inBatches, type Store } from '../core/store/store';
import { clipInput } from '../core/quoteInput';
import { emptyElement, parentElement } from '../core/xml';
import type { ToolReply } from './toolReply';

export const listSessionsInput = z.strictObject({});

export const LIST_SESSIONS_DESCRIPTION =
  "List the sessions of the fdref store: this server's own, other agents', and VS Code's chats and captures, " +
  'newest first, with how many descriptors and refs each holds. Pass a session id or name as `session` to read_fd, ' +
  'search_fd, fd_to_file, list_refs or get_ref to read what another session stored (never to change it).';

/**
 * The most characters of a session's name (and client, and why it is unreadable) listed: a session written by an
 * older version, or by hand, may have a name of megabytes; its id still names it.
 */
export const LISTED_NAME_CHARS = 200;

/** `<session_list>` of `<session id= name= created= fds= refs=>`; `refs` counts ref ids, not versions. */
export async function listSessions(store: Store, current: string | undefined): Promise<ToolReply> {
  const { sessions, unreadable } = await store.list();
  const counts = new Map<string, { fds: number; refs: number } | string>();
  await inBatches(sessions, 8, async (meta) => {
    try {
      const reader = await store.read(meta.id);
      if (reader !== undefined) {
        const fds = reader.current.fds.size + reader.current.growing.size; // a command's output still growing too
        counts.set(meta.id, { fds, refs: reader.current.refs.size });
      }
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
        name: clipInput(meta.name, LISTED_NAME_CHARS),
        created: meta.createdAt,
        fds: typeof count === 'string' ? undefined : count.fds,
        refs: typeof count === 'string' ? undefined : count.refs,
        origin: meta.origin.kind,
        client: meta.origin.kind === 'mcp' ? clipInput(meta.origin.client, LISTED_NAME_CHARS) : undefined,
        current: meta.id === current ? 'true' : undefined,
        unreadable: typeof count === 'string' ? clipInput(count, LISTED_NAME_CHARS) : undefined,
      }),
    ];
  });
  const broken = unreadable.map((u) =>
    emptyElement('unreadable_session', { id: u.id, reason: clipInput(u.reason, LISTED_NAME_CHARS) }),
  );
  return {
    text: parentElement('session_list', { count: items.length, current }, [...items, ...broken]),
  };
}
