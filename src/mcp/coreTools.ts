/**
 * The core tools (`read_fd`, `search_fd`, `fd_to_file`, `list_refs`, `get_ref`) over the store, each with an
 * optional `session` to read another session. Written against the core's `ToolSession` (issue 12, engineer T).
 */
import type { ToolRegistrar } from './fdrefMcpServer';

export function registerCoreTools(_registrar: ToolRegistrar): void {
  // Filled in once the core tools run over a ToolSession.
}
