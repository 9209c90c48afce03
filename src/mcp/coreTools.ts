/**
 * Every tool of the core's table the MCP server offers (`toolsOn('mcp')`), registered from its record: the same
 * code, schemas and messages as the chat's, run with this process's session as their `ToolSession`, the optional
 * `session` argument opening any other session of the store to read (never to write). A tool that writes files
 * or runs commands waits for the client's roots and is disabled under `--read-only`; one that reads never waits.
 */
import * as z from 'zod';
import { nodeFileSystem } from '../core/files/fileSystemPort';
import { StoreSearch } from '../core/search/storeSearch';
import { formatDescriptorId } from '../core/ids';
import type { ToolContext } from '../core/tools/toolContext';
import { onlyReads, writesOutside } from '../core/tools/toolRecord';
import { runTool, toolDefinition, toolsOn } from '../core/tools/toolTable';
import { sessionOutput } from './commandTool';
import type { ToolRegistrar } from './toolRegistrar';
import { resourceLink } from './resourceUris';
import { withWritableRoots } from './workspaceRoots';

/**
 * Registers the core's tools; returns what tells them again how long an output comes back whole (their
 * descriptions say it), for when the budget changes once the client is known.
 */
export function registerCoreTools(registrar: ToolRegistrar, stopping: AbortSignal): (inlineChars: number) => void {
  const { sessions, roots, budget } = registrar;
  const offered = toolsOn('mcp');
  // The store's search (search_fd with fd="*"): its worker starts at the first search or the first output kept,
  // then keeps the index caught up with what this server keeps.
  const search = new StoreSearch({ root: sessions.store.root });
  stopping.addEventListener('abort', () => void search.dispose(), { once: true });
  const describe = (record: (typeof offered)[number], inlineChars: number): string =>
    toolDefinition(record, { sessionArgument: true, inlineChars }).description;
  const registered = offered.map((record) => {
    const definition = toolDefinition(record, { sessionArgument: true, inlineChars: budget.sizes.inlineChars });
    const tool = registrar.tool(
      record.name,
      {
        title: record.title,
        description: definition.description,
        // The core checks the arguments itself (its messages, its leniency): everything is passed on.
        schema: z.unknown(),
        jsonSchema: definition.inputSchema,
        readOnly: onlyReads(record),
        writesOutside: writesOutside(record),
        openWorld: record.effect === 'run',
      },
      async (args, ctx) => {
        const own = await sessions.current();
        const firstNew = own.reader.nextFd;
        const { pageSize, resultChars, inlineChars } = budget.sizes;
        const run = async (workspaceRoots: readonly string[]) => {
          const context: ToolContext = {
            session: own,
            pageSize,
            resultChars,
            workspaceRoots,
            fileSystem: nodeFileSystem,
            openSession: (id) => sessions.forReading(id),
            storeSearch: { thisSession: own.id, search: (query) => search.search(query) },
            keep: { target: () => Promise.resolve(own), inlineChars },
            commands: {
              output: sessionOutput(own, sessions.jobs),
              inlineChars,
              signal: AbortSignal.any([ctx.mcpReq.signal, stopping]),
            },
          };
          const outcome = await runTool(context, record.name, args, offered);
          if (!outcome.ok) throw outcome.error;
          return outcome;
        };
        // Only what writes or runs waits for the client's roots (one that does not answer roots/list stalled every call).
        const outcome = writesOutside(record) ? await withWritableRoots(roots, run) : await run(roots.known());
        // What the call made (an extract, a long result, kept output, refs) is linked as resources.
        await own.refresh();
        const made = new Set(outcome.made);
        for (let n = firstNew; n < own.reader.nextFd; n++) made.add(formatDescriptorId({ kind: 'fd', number: n }));
        if (made.size > 0) search.poke();
        const links = [];
        for (const id of made) {
          const found = own.lookup(id);
          if (found !== undefined) links.push(resourceLink(own.id, found));
        }
        return {
          text: outcome.text,
          links,
          made: [...made],
          ...(outcome.kept === undefined ? {} : { kept: outcome.kept }),
        };
      },
    );
    return { record, tool };
  });
  return (inlineChars) => {
    // Set in place, not with `update()`: this runs as the client initializes, before it lists the tools, so a
    // `tools/list_changed` notification would only make it list them twice.
    for (const { record, tool } of registered) tool.description = describe(record, inlineChars);
  };
}
