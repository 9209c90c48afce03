/**
 * Where `run_command`'s output goes in the MCP server: streamed into this process's session as it arrives, and
 * kept as a `tool_output` descriptor of `run_command` when it is long (the core's tool, `src/core/tools/runCommand.ts`).
 * A command still running after the server's wait goes on in `jobs`, its output a descriptor that grows.
 */
import type { StoredDescriptor } from '../core/store/sessionReader';
import type { StoreToolSession } from '../core/store/storeToolSession';
import type { CommandJobs } from '../core/tools/commandJobs';
import { RUN_COMMAND_TOOL, type CommandOutputTarget } from '../core/tools/runCommand';

export function sessionOutput(session: StoreToolSession, jobs?: CommandJobs): CommandOutputTarget<StoredDescriptor> {
  return {
    ...(jobs === undefined ? {} : { background: jobs }),
    start() {
      const sink = session.createSink();
      let growing: number | undefined;
      return {
        write: (piece) => sink.write(piece),
        abort: () => sink.abort(),
        keep: (run) =>
          session.createFdFromSink(sink, 'tool_output', { toolName: RUN_COMMAND_TOOL, command: run }, growing),
        grow: async (run, pid) => {
          const grown = await session.startGrowingFd(
            sink,
            'tool_output',
            { toolName: RUN_COMMAND_TOOL, command: run },
            pid,
          );
          growing = grown.n;
          return grown;
        },
      };
    },
  };
}
