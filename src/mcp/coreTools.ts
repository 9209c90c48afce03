/**
 * The core tools (`read_fd`, `search_fd`, `fd_to_file`, `list_refs`, `get_ref`) over the store: the same code,
 * schemas and messages as the chat's, run with this process's session as their `ToolSession` and the optional
 * `session` argument opening any other session of the store to read (never to write).
 */
import * as z from 'zod';
import { nodeFileSystem } from '../core/files/fileSystemPort';
import { formatDescriptorId } from '../core/ids';
import { runTool, toolDefinitions } from '../core/tools';
import type { ToolContext } from '../core/tools/toolContext';
import type { ToolRegistrar } from './toolRegistrar';
import { resourceLink } from './resourceUris';
import { PAGE_SIZE, RESULT_MAX_CHARS } from './toolReply';
import { withWritableRoots } from './workspaceRoots';

/** Tools that only read the store (an extract or a long result adds a descriptor to this process's session). */
const READING = new Set(['read_fd', 'search_fd', 'list_refs', 'get_ref']);

export function registerCoreTools(registrar: ToolRegistrar): void {
  const { sessions, roots } = registrar;
  for (const definition of toolDefinitions({ sessionArgument: true })) {
    const reads = READING.has(definition.name);
    registrar.tool(
      definition.name,
      {
        description: definition.description,
        // The core checks the arguments itself (its messages, its leniency): everything is passed on.
        schema: z.unknown(),
        jsonSchema: definition.inputSchema,
        readOnly: reads,
        writesOutside: !reads,
      },
      async (args) => {
        const own = await sessions.current();
        const firstNew = own.reader.nextFd;
        const run = async (workspaceRoots: readonly string[]): Promise<string> => {
          const context: ToolContext = {
            session: own,
            pageSize: PAGE_SIZE,
            resultChars: RESULT_MAX_CHARS,
            workspaceRoots,
            fileSystem: nodeFileSystem,
            openSession: (id) => sessions.forReading(id),
          };
          const outcome = await runTool(context, definition.name, args);
          if (!outcome.ok) throw outcome.error;
          return outcome.text;
        };
        // Reading never waits for the client's roots (a client that does not answer roots/list stalled every call).
        const text = reads ? await run(roots.known()) : await withWritableRoots(roots, run);
        // Descriptors the call made (an extract, a long result) are linked as resources.
        await own.refresh();
        const links = [];
        for (let n = firstNew; n < own.reader.nextFd; n++) {
          const made = own.lookup(formatDescriptorId({ kind: 'fd', number: n }));
          if (made !== undefined) links.push(resourceLink(own.id, made));
        }
        return { text, links };
      },
    );
  }
}
