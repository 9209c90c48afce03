/**
 * What a group of the MCP server's tools is registered through (`registerCoreTools` and the server's own), in a
 * file of its own so that those groups and the server that builds the registrar need not import each other.
 */
import type { McpServer, RegisteredTool, ServerContext } from '@modelcontextprotocol/server';
import type * as z from 'zod';
import type { ProcessSessions } from './processSession';
import type { ResultBudget, ToolReply } from './toolReply';
import type { WorkspaceRoots } from './workspaceRoots';

/** How a tool of this server runs: its checked input and the request's context. */
export type ToolRun<S extends z.ZodType> = (input: z.output<S>, ctx: ServerContext) => Promise<ToolReply>;

export interface ToolRegistrar {
  readonly server: McpServer;
  readonly sessions: ProcessSessions;
  readonly roots: WorkspaceRoots;
  /** How long a result may be, and the pages and inline output sized to it (set for the client at initialize). */
  readonly budget: ResultBudget;
  /**
   * Registers a tool whose arguments are checked by its own zod schema (the core's messages, numbers sent as
   * strings accepted); `jsonSchema` is what clients are shown (default: from the schema). A tool that writes
   * files or runs commands (`readOnly: false` with `writesOutside`) is disabled under `--read-only`: not listed,
   * and a call is refused by the SDK ("Tool run_command disabled").
   */
  tool<S extends z.ZodType>(
    name: string,
    config: {
      /** A short title for people (the MCP `title` annotation). */
      title?: string;
      description: string;
      schema: S;
      jsonSchema?: object;
      readOnly: boolean;
      writesOutside?: boolean;
      openWorld?: boolean;
    },
    run: ToolRun<S>,
  ): RegisteredTool;
}
