/**
 * Descriptors and refs as MCP resources: `fdref://<session>/fd/<n>` and `fdref://<session>/ref/<id>` (`<id>@<n>`
 * for an earlier version), listed (this process's session first, then the others, newest first, up to
 * `LISTED_RESOURCES` of each kind) and readable in any session of the store.
 */
import { McpServer, ResourceNotFoundError, ResourceTemplate, type Resource } from '@modelcontextprotocol/server';
import { errorMessage } from '../core/errors';
import type { StoredDescriptor } from '../core/store';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { ToolError } from '../core/toolError';
import type { ProcessSessions } from './processSession';
import { clipInput, quoteInput } from '../core/quoteInput';
import { decodeUriPart, descriptorIdOf, FD_TEMPLATE, REF_TEMPLATE, resourceLink } from './resourceUris';

/** At most this many descriptors and this many refs are listed; any other is still readable by its URI. */
export const LISTED_RESOURCES = 500;
/**
 * The largest content a resource read returns (characters). A larger one is refused with a message naming
 * read_fd, which pages it: one JSON-RPC message of hundreds of megabytes would stall or break a client.
 */
export const RESOURCE_MAX_CHARS = 4_000_000;

export function registerResources(server: McpServer, sessions: ProcessSessions): void {
  const read = (kind: 'fd' | 'ref') => async (uri: URL, variables: Record<string, string | string[]>) => {
    // A URI is quoted short: a client may send one of a megabyte.
    const shown = quoteInput(uri.href);
    const rawSession = String(variables['session'] ?? '');
    const value = String(variables[kind === 'fd' ? 'n' : 'id'] ?? '');
    const session = decodeUriPart(rawSession);
    if (session === undefined || decodeUriPart(value) === undefined) {
      throw new ResourceNotFoundError(
        uri.href,
        `${shown} has a malformed escape: a % must be followed by two hexadecimal digits that encode UTF-8.`,
      );
    }
    const id = descriptorIdOf(kind, value);
    if (id === undefined)
      throw new ResourceNotFoundError(uri.href, `${shown} names no ${kind === 'fd' ? 'descriptor' : 'ref'}.`);
    let found: StoredDescriptor | undefined;
    try {
      found = (await sessions.forReading(session)).lookup(id);
    } catch (error) {
      if (error instanceof ToolError) throw new ResourceNotFoundError(uri.href, error.message);
      throw error;
    }
    if (found === undefined) throw new ResourceNotFoundError(uri.href, `Session ${quoteInput(session)} has no ${id}.`);
    if (found.content.length > RESOURCE_MAX_CHARS) {
      throw new ResourceNotFoundError(
        uri.href,
        `${id} of session ${session} is ${found.content.length} characters, more than the ${RESOURCE_MAX_CHARS} a resource read returns; page it with read_fd(fd="${id}", session="${session}").`,
      );
    }
    try {
      return { contents: [{ uri: uri.href, mimeType: 'text/plain', text: await found.content.text() }] };
    } catch (error) {
      throw new ResourceNotFoundError(
        uri.href,
        `${id} of session ${session} cannot be read: ${clipInput(errorMessage(error), 300)}`,
      );
    }
  };
  server.registerResource(
    'descriptor',
    new ResourceTemplate(FD_TEMPLATE, { list: async () => ({ resources: await listed(sessions, 'fd') }) }),
    {
      description: 'A file descriptor (fd:N) of an fdref session: a long output or text kept whole.',
      mimeType: 'text/plain',
    },
    read('fd'),
  );
  server.registerResource(
    'ref',
    new ResourceTemplate(REF_TEMPLATE, { list: async () => ({ resources: await listed(sessions, 'ref') }) }),
    {
      description: 'A ref (ref:name) of an fdref session: text a model marked with <ref id="name">.',
      mimeType: 'text/plain',
    },
    read('ref'),
  );
}

async function listed(sessions: ProcessSessions, kind: 'fd' | 'ref'): Promise<Resource[]> {
  const own = await sessions.current();
  const { sessions: metas } = await sessions.store.list();
  const order: StoreToolSession[] = [own];
  const resources: Resource[] = [];
  const add = (session: StoreToolSession): void => {
    const descriptors = kind === 'fd' ? session.descriptors() : session.refs().map((entry) => entry.descriptor);
    for (const descriptor of descriptors) {
      if (resources.length >= LISTED_RESOURCES) return;
      const link = resourceLink(session.id, descriptor);
      resources.push({
        uri: link.uri,
        name: link.name,
        mimeType: 'text/plain',
        size: descriptor.content.bytes,
        ...(link.description === undefined ? {} : { description: link.description }),
      });
    }
  };
  add(order[0] as StoreToolSession);
  for (const meta of metas) {
    if (resources.length >= LISTED_RESOURCES) break;
    if (meta.id === own.id) continue;
    try {
      add(await sessions.forReading(meta.id));
    } catch {
      // removed or unreadable meanwhile: list_sessions says why
    }
  }
  return resources;
}
