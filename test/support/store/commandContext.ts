import assert from 'node:assert/strict';
import { nodeFileSystem } from '../../../src/core/files/fileSystemPort';
import { StoreToolSession } from '../../../src/core/store/storeToolSession';
import { CommandJobs } from '../../../src/core/tools/commandJobs';
import type { ToolContext } from '../../../src/core/tools/toolContext';
import { sessionOutput } from '../../../src/mcp/commandTool';
import type { tempStoreFolder } from './tempStore';

/**
 * A tool context over a new session of the store in `folder`, with `run_command`'s commands running in the folder
 * (as the MCP server runs them: a command still running after `waitMs` is answered with its output so far).
 */
export async function commandToolContext(
  folder: ReturnType<typeof tempStoreFolder>,
  waitMs: number,
): Promise<{ context: ToolContext; session: StoreToolSession; jobs: CommandJobs }> {
  const store = await folder.open();
  const writer = await store.create({ name: 's', origin: { kind: 'mcp', client: 'test' } });
  const reader = await store.read(writer.id);
  assert.ok(reader);
  const session = new StoreToolSession(reader, writer);
  const jobs = new CommandJobs(waitMs);
  const context: ToolContext = {
    session,
    pageSize: 4000,
    workspaceRoots: [folder.root],
    fileSystem: nodeFileSystem,
    commands: { output: sessionOutput(session, jobs), inlineChars: 200, signal: new AbortController().signal },
  };
  return { context, session, jobs };
}
