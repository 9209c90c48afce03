/**
 * fdref's MCP server: the core's tools over the store (`toolsOn('mcp')` of `src/core/tools/toolTable.ts`, the
 * reading ones with an optional `session` to read another session), `list_sessions`, and every descriptor and ref
 * as a resource. Built on the official SDK's `McpServer`.
 */
import { McpServer, type CallToolResult, type RegisteredTool } from '@modelcontextprotocol/server';
import { describeIssues, parseToolArguments, toolInputJsonSchema } from '../core/tools/schemas';
import { ToolError } from '../core/toolError';
import type { ProcessSessions } from './processSession';
import { registerResources } from './resources';
import type { ServerArguments } from './serverArguments';
import { LIST_SESSIONS_DESCRIPTION, listSessions, listSessionsInput } from './sessionTools';
import { advertisedSchema, errorResult, RESULT_FACTS_OUTPUT, ResultBudget, toolResult } from './toolReply';
import type { ToolRegistrar } from './toolRegistrar';
import { WorkspaceRoots } from './workspaceRoots';
import { registerCoreTools } from './coreTools';

export const SERVER_NAME = 'fdref';

export interface FdrefServerOptions {
  readonly args: ServerArguments;
  readonly sessions: ProcessSessions;
  readonly version: string;
  /** Diagnostics for the person running the server (stderr). */
  readonly log: (message: string) => void;
  /** Ends every running command when the server stops. */
  readonly stopping: AbortSignal;
}

export function createFdrefServer(options: FdrefServerOptions): McpServer {
  const { args, sessions, log } = options;
  const server = new McpServer(
    { name: SERVER_NAME, version: options.version },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'fdref keeps large outputs and marked text whole. run_command stores long output as fd:N: page it with read_fd, ' +
        'search it with search_fd, write it with fd_to_file. store_text turns <ref id="x">...</ref> blocks into ref:x. ' +
        'list_sessions shows what other agents and VS Code stored; pass `session` to read it.',
    },
  );
  const roots = new WorkspaceRoots(args.workspaces, log);
  const budget = new ResultBudget(args.resultChars);
  // Set once registerCoreTools has run, below; oninitialized runs only once a client connects.
  let describeCoreTools: (inlineChars: number) => void = () => undefined;
  const registeredTools: RegisteredTool[] = [];
  server.server.oninitialized = () => {
    const name = server.server.getClientVersion()?.name;
    const inlineBefore = budget.sizes.inlineChars;
    log(`${name === undefined ? 'a client' : JSON.stringify(name.slice(0, 80))} gets ${budget.fitClient(name)}`);
    if (budget.sizes.inlineChars !== inlineBefore) describeCoreTools(budget.sizes.inlineChars);
    // A client whose model would see structuredContent instead of the text gets none, and no outputSchema (which
    // requires it); set in place before the client lists the tools, as the descriptions.
    if (!budget.structured) {
      for (const tool of registeredTools) {
        delete tool.outputSchema;
        delete tool.outputSchemaJson;
      }
    }
    sessions
      .start(name ?? 'an MCP client')
      .catch((error: unknown) => log(`The session could not be created: ${String(error)}`));
    roots.refresh(server.server);
  };
  server.server.setNotificationHandler('notifications/roots/list_changed', () => roots.refresh(server.server));

  const registrar: ToolRegistrar = {
    server,
    sessions,
    roots,
    budget,
    tool(name, config, run) {
      const registered = server.registerTool(
        name,
        {
          ...(config.title === undefined ? {} : { title: config.title }),
          description: config.description,
          inputSchema: advertisedSchema(config.jsonSchema ?? toolInputJsonSchema(config.schema)),
          outputSchema: RESULT_FACTS_OUTPUT,
          annotations: {
            ...(config.title === undefined ? {} : { title: config.title }),
            readOnlyHint: config.readOnly,
            destructiveHint: !config.readOnly,
            openWorldHint: config.openWorld ?? false,
          },
        },
        async (raw, ctx): Promise<CallToolResult> => {
          try {
            const parsed = parseToolArguments(config.schema, raw);
            if (!parsed.success) throw new ToolError('invalid_argument', `${name}: ${describeIssues(parsed.error)}.`);
            const reply = await run(parsed.data, ctx);
            return await toolResult(name, reply, () => sessions.current(), budget);
          } catch (error) {
            return errorResult(name, error, config.readOnly);
          }
        },
      );
      if (args.readOnly && config.writesOutside === true) registered.disable();
      registeredTools.push(registered);
      return registered;
    },
  };

  describeCoreTools = registerCoreTools(registrar, options.stopping);
  registrar.tool(
    'list_sessions',
    { description: LIST_SESSIONS_DESCRIPTION, schema: listSessionsInput, readOnly: true },
    async () => listSessions(sessions.store, (await sessions.current()).id),
  );
  registerResources(server, sessions);
  return server;
}
