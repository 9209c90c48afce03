import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../src/core';
import { Content } from '../../../src/core/descriptors/content';
import { DescriptorTable } from '../../../src/core/descriptors/descriptorTable';
import { tableToolSession } from '../../../src/core/tools/tableToolSession';
import type { CopilotSessions } from '../../../src/lmTools/copilotSessions';
import { LmToolRunner } from '../../../src/lmTools/lmToolRunner';
import { runTool } from '../../../src/core/tools/toolTable';
import type { ToolContext, ToolSession } from '../../../src/core/tools/toolContext';
import { TOOL_ERROR_TYPES, ToolError, unexpectedToolError } from '../../../src/core/toolError';

const root = path.resolve(path.resolve(__dirname, '..'), '../..');

/** A session every read of which fails as nothing foresaw (not a `ToolError`). */
const failingSession: ToolSession = {
  lookup: () => {
    throw new TypeError('the table is gone');
  },
  knownIds: () => [],
  fds: () => {
    throw new TypeError('the table is gone');
  },
  refs: () => {
    throw new TypeError('the table is gone');
  },
  createFd: () => Promise.reject(new TypeError('the table is gone')),
};

function context(session: ToolSession): ToolContext {
  return { session, pageSize: 1000, workspaceRoots: [root], fileSystem: nodeFileSystem };
}

describe('tool error types', () => {
  it('docs/MCP.md lists every type a model can see, and no other', () => {
    const doc = readFileSync(path.join(root, 'docs/MCP.md'), 'utf8');
    const section = doc.slice(doc.indexOf('### Error types'));
    const listed = [...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((m) => m[1]);
    assert.deepEqual(listed, [...TOOL_ERROR_TYPES]);
  });

  it('calls a failure no rule foresaw a read_error for a call that only reads, an internal_error for one that writes, never a write_error', () => {
    const read = unexpectedToolError('read_fd', new TypeError('x'.repeat(1000)), false);
    assert.equal(read.type, 'read_error');
    assert.match(read.message, /^read_fd failed: x+/);
    assert.ok(read.message.length < 400, 'the cause is cut short');
    const written = unexpectedToolError('store_text', 'disk gone', true);
    assert.equal(written.type, 'internal_error');
    assert.equal(written.message, 'store_text failed: disk gone');
    assert.ok(written instanceof ToolError);
  });

  it('reports an unforeseen failure of a reading tool as a read_error, and of fd_to_file as an internal_error', async () => {
    for (const [name, args] of [
      ['read_fd', { fd: 'fd:1' }],
      ['search_fd', { fd: 'fd:1', pattern: 'a' }],
      ['get_ref', { id: 'x' }],
      ['list_refs', {}],
      ['list_fds', {}],
    ] as const) {
      const outcome = await runTool(context(failingSession), name, args);
      assert.equal(outcome.ok, false, name);
      assert.equal(outcome.ok ? undefined : outcome.error.type, 'read_error', `${name}: ${outcome.text}`);
    }
    const written = await runTool(context(failingSession), 'fd_to_file', { fd: 'fd:1', file_path: 'out.txt' });
    assert.equal(written.ok ? undefined : written.error.type, 'internal_error', written.text);
    assert.match(written.text, /fd_to_file failed: the table is gone/);
  });

  it("calls Copilot's store_text failing unforeseen, or a long result that could not be stored, an internal_error", async () => {
    const table = new DescriptorTable();
    for (let i = 0; i < 100; i++) table.addRef(`ref_${i}`, new Content(`text ${i}`), undefined);
    const call = {
      ...tableToolSession(table),
      createFd: () => Promise.reject(new TypeError('the store is gone')),
      foundIn: new Map(),
    };
    const sessions = {
      forCall: () => call,
      storeTextTarget: () => Promise.reject(new TypeError('no session to store in')),
    } as unknown as CopilotSessions;
    const runner = new LmToolRunner(
      sessions,
      { roots: () => [root], fileSystem: nodeFileSystem, trusted: () => true },
      1000,
    );
    const stored = await runner.run('store_text', { text: 'hello' }, { maxChars: 1000 });
    assert.equal(stored, '<fd_error type="internal_error">store_text failed: no session to store in</fd_error>');
    const long = await runner.run('list_refs', {}, { maxChars: 1000 });
    assert.match(long, /^<fd_error type="internal_error">The result of list_refs \(\d+ characters\) is longer than/);
    assert.match(long, /could not be stored: the store is gone/);
  });
});
