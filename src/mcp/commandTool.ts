/**
 * Where `run_command`'s output goes in the MCP server: streamed into this process's session as it arrives, and
 * kept as a `tool_output` descriptor of `run_command` when it is long (the core's tool, `src/core/tools/runCommand.ts`).
 */
import type { StoredDescriptor } from '../core/store/sessionReader';
import type { StoreToolSession } from '../core/store/storeToolSession';
import { RUN_COMMAND_TOOL, type CommandOutputTarget } from '../core/tools/runCommand';

export function sessionOutput(session: StoreToolSession): CommandOutputTarget<StoredDescriptor> {
  return {
    start() {
      const sink = session.createSink();
      return {
        write: (piece) => sink.write(piece),
        abort: () => sink.abort(),
        keep: (run) => session.createFdFromSink(sink, 'tool_output', { toolName: RUN_COMMAND_TOOL, command: run }),
      };
    },
  };
}
