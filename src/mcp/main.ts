/**
 * `node dist/mcp.js --store <folder> --workspace <folder> [...] [--read-only]`: fdref's stdio MCP server.
 * Diagnostics go to stderr (stdout is the protocol). The process's session is closed, and its lease given up,
 * when the client closes stdin or the process gets SIGTERM, SIGINT or SIGHUP; the process exits after that.
 */
import { errorMessage } from '../core/errors';
import { Store } from '../core/store';
import { CommandJobs } from '../core/tools/commandJobs';
import { createFdrefServer } from './fdrefMcpServer';
import { ProcessSessions } from './processSession';
import { parseServerArguments, UsageError } from './serverArguments';
import { BoundedStdioTransport } from './stdioTransport';

const VERSION = process.env['FDREF_VERSION'] ?? '0.0.0-dev';

function log(message: string): void {
  process.stderr.write(`fdref-mcp: ${message}\n`);
}

async function main(): Promise<void> {
  const args = parseServerArguments(process.argv.slice(2));
  const store = await Store.open(args.store);
  const sessions = new ProcessSessions(store, undefined, new CommandJobs(args.commandWaitS * 1000));
  const stopping = new AbortController();
  const server = createFdrefServer({ args, sessions, version: VERSION, log, stopping: stopping.signal });
  const transport = new BoundedStdioTransport(process.stdin, process.stdout, { log });

  // One stop, whatever asks first: server.close() calls onclose at once, so the promise is in place before any
  // work starts, and the process exits only once the session is closed and its lease given up.
  let stopped: Promise<void> | undefined;
  const stopAndExit = (why: string): void => {
    stopped ??= Promise.resolve().then(async () => {
      log(`stopping (${why})`);
      stopping.abort(new Error(`The server is stopping (${why}).`));
      await server.close().catch(() => undefined);
      await sessions.close().catch((error: unknown) => log(`The session could not be closed: ${errorMessage(error)}`));
    });
    void stopped.then(() => process.exit(0));
  };
  // A second signal while stopping (a stuck write, a person pressing Ctrl+C again) exits at once.
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const)
    process.on(signal, () => (stopped === undefined ? stopAndExit(signal) : process.exit(1)));
  await server.connect(transport);
  // Set after connect, which takes the transport's own callbacks over.
  server.server.onclose = () => stopAndExit('the client closed the connection');
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
