/**
 * `node dist/mcp.js --store <folder> --workspace <folder> [...] [--read-only]`: fdref's stdio MCP server.
 * Diagnostics go to stderr (stdout is the protocol). The process's session is closed, and its lease given up,
 * when the client closes stdin or the process gets SIGTERM or SIGINT.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio';
import { errorMessage } from '../core/errors';
import { Store } from '../core/store';
import { createFdrefServer } from './fdrefMcpServer';
import { ProcessSessions } from './processSession';
import { parseServerArguments, UsageError } from './serverArguments';

const VERSION = process.env['FDREF_VERSION'] ?? '0.0.0-dev';

function log(message: string): void {
  process.stderr.write(`fdref-mcp: ${message}\n`);
}

async function main(): Promise<void> {
  const args = parseServerArguments(process.argv.slice(2));
  const store = await Store.open(args.store);
  const sessions = new ProcessSessions(store);
  const stopping = new AbortController();
  const server = createFdrefServer({ args, sessions, version: VERSION, log, stopping: stopping.signal });
  const transport = new StdioServerTransport();

  let stopped: Promise<void> | undefined;
  const stop = (why: string): Promise<void> =>
    (stopped ??= (async () => {
      log(`stopping (${why})`);
      stopping.abort(new Error(`The server is stopping (${why}).`));
      await server.close().catch(() => undefined);
      await sessions.close();
    })());
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => void stop(signal).then(() => process.exit(0)));
  }
  await server.connect(transport);
  // Set after connect, which takes the transport's own callbacks over.
  server.server.onclose = () => void stop('the client closed the connection').then(() => process.exit(0));
  log(`serving ${args.store} for ${args.workspaces.join(', ')}${args.readOnly ? ' (read-only)' : ''}`);
}

main().catch((error: unknown) => {
  if (error instanceof UsageError) {
    process.stderr.write(`fdref-mcp: ${error.message}\n`);
    process.exit(2);
  }
  log(`could not start: ${errorMessage(error)}`);
  process.exit(1);
});
