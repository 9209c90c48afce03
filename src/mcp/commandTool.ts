/**
 * `run_command` for the MCP server: the core's tool (`src/core/tools/runCommand.ts`) with its output streamed into
 * this process's session, and a resource link to the descriptor a long output became.
 */
import type { StoreToolSession } from '../core/store/storeToolSession';
import type { StoredDescriptor } from '../core/store/sessionReader';
import {
  runCommandDescription,
  runCommandTool as runCoreCommandTool,
  RUN_COMMAND_TOOL,
  type CommandOutputTarget,
  type RunCommandInput,
} from '../core/tools/runCommand';
import { resourceLink } from './resourceUris';
import { INLINE_OUTPUT_CHARS, PAGE_SIZE, type ToolReply } from './toolReply';

export {
  DEFAULT_TIMEOUT_S,
  MAX_TIMEOUT_S,
  PREVIEW_HEAD_CHARS,
  PREVIEW_TAIL_CHARS,
  runCommandInput,
  type RunCommandInput,
} from '../core/tools/runCommand';

export const RUN_COMMAND_DESCRIPTION = runCommandDescription(INLINE_OUTPUT_CHARS);

/** Output written into `session` as it arrives, kept as a `tool_output` descriptor of `run_command`. */
function sessionOutput(session: StoreToolSession): CommandOutputTarget<StoredDescriptor> {
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

export async function runCommandTool(
  input: RunCommandInput,
  session: StoreToolSession,
  roots: readonly string[],
  signal: AbortSignal,
): Promise<ToolReply> {
  const result = await runCoreCommandTool(input, sessionOutput(session), {
    roots,
    inlineChars: INLINE_OUTPUT_CHARS,
    pageSize: PAGE_SIZE,
    signal,
  });
  return result.kept === undefined
    ? { text: result.text }
    : { text: result.text, links: [resourceLink(session.id, result.kept)] };
}
