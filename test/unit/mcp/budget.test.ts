import assert from 'node:assert/strict';
import * as path from 'node:path';
import { CLIENT_BUDGETS, clientBudget, DEFAULT_RESULT_CHARS } from '../../../src/core/agents/clientBudgets';
import { resultSizes } from '../../../src/core/session/resultSizes';
import { parseServerArguments, UsageError } from '../../../src/mcp/serverArguments';
import {
  attribute,
  callOk,
  connectMcp,
  mcpFolders,
  textOf,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

describe('MCP result budget', function () {
  this.timeout(60_000);

  describe('from the command line', () => {
    it('takes --result-chars, and refuses a value that is not a whole number in its bounds', () => {
      const folders = mcpFolders();
      try {
        const base = ['--store', 's', '--workspace', folders.workspace];
        assert.deepEqual(parseServerArguments([...base, '--result-chars', '8000'], folders.root), {
          store: path.join(folders.root, 's'),
          workspaces: [folders.workspace],
          readOnly: false,
          commandWaitS: 45,
          resultChars: 8000,
        });
        assert.equal(parseServerArguments(base, folders.root).resultChars, undefined);
        for (const bad of ['x', '', '1999', '4000001', '8000.5', '-8000', '8e3']) {
          assert.throws(
            () => parseServerArguments([...base, `--result-chars=${bad}`], folders.root),
            (error: Error) =>
              error instanceof UsageError &&
              /--result-chars needs a whole number from 2000 to 4000000/.test(error.message),
            bad,
          );
        }
      } finally {
        folders.dispose();
      }
    });
  });

  describe('from the client name', () => {
    it('knows the clients that cut results, by the names they give themselves', () => {
      const cases: [string | undefined, number, string | undefined][] = [
        ['Cline', 8_000, 'Cline'],
        ['cline-cli', 8_000, 'Cline'],
        ['@cline/core', 8_000, 'Cline'],
        ['codex-mcp-client', 9_000, 'Codex'],
        ['qwen-code', 24_000, 'Qwen Code'],
        ['gemini-cli-mcp-client', 32_000, 'Gemini CLI'],
        ['claude-code', 40_000, 'Claude Code'],
        ['continue-cli-client', 40_000, 'Continue'],
        ['cursor-vscode', DEFAULT_RESULT_CHARS, 'Cursor'],
        ['Visual Studio Code', DEFAULT_RESULT_CHARS, 'VS Code'],
        ['Visual Studio Code - Insiders', DEFAULT_RESULT_CHARS, 'VS Code'],
        ['Code - OSS', DEFAULT_RESULT_CHARS, 'VS Code'],
        ['code-server', DEFAULT_RESULT_CHARS, 'VS Code'],
        ['mcp-test', DEFAULT_RESULT_CHARS, undefined],
        ['declined', DEFAULT_RESULT_CHARS, undefined],
        [undefined, DEFAULT_RESULT_CHARS, undefined],
      ];
      for (const [name, chars, client] of cases) {
        const budget = clientBudget(name);
        assert.equal(budget.resultChars, chars, String(name));
        assert.equal(budget.client, client, String(name));
      }
      for (const budget of CLIENT_BUDGETS) assert.ok(budget.resultChars <= DEFAULT_RESULT_CHARS, budget.label);
    });

    it('sizes pages and inline output so they fit with their XML', () => {
      assert.deepEqual(resultSizes(40_000), { resultChars: 40_000, pageSize: 4000, inlineChars: 8000 });
      assert.deepEqual(resultSizes(8_000), { resultChars: 8_000, pageSize: 4000, inlineChars: 6500 });
      assert.deepEqual(resultSizes(2_000), { resultChars: 2_000, pageSize: 1000, inlineChars: 500 });
    });
  });

  describe('in the server', () => {
    let folders: McpFolders;
    beforeEach(() => (folders = mcpFolders()));
    afterEach(() => folders.dispose());

    /** A text of `lines` numbered lines, about 25 characters each. */
    const numbered = (lines: number): string =>
      Array.from({ length: lines }, (_, i) => `line ${String(i + 1).padStart(5, '0')} ${'x'.repeat(13)}`).join('\n');

    /** Every kind of long answer, each checked to be at most `limit` characters. */
    async function assertEveryResultWithin(server: Connected, limit: number): Promise<void> {
      const texts: [string, string][] = [];
      const call = async (label: string, name: string, args: Record<string, unknown>): Promise<string> => {
        const text = textOf(await server.client.callTool({ name, arguments: args }));
        texts.push([label, text]);
        return text;
      };
      const stored = await call('store_text', 'store_text', { text: numbered(2000) });
      const fd = attribute(stored, 'fd');
      await call('store_text refs', 'store_text', {
        text: Array.from({ length: 120 }, (_, i) => `<ref id="r${i}_${'x'.repeat(100)}">${i}</ref>`).join('\n'),
      });
      await call('read_fd page', 'read_fd', { fd });
      await call('read_fd 9 pages', 'read_fd', { fd, start: 1, count: 9 });
      await call('read_fd all', 'read_fd', { fd, read_all: true });
      await call('read_fd lines', 'read_fd', { fd, mode: 'line', start: 1, count: 2000 });
      await call('read_fd chars', 'read_fd', { fd, mode: 'char', start: 0, count: 50_000 });
      await call('read_fd tail', 'read_fd', { fd, mode: 'tail', count: 2000 });
      await call('search_fd', 'search_fd', { fd, pattern: 'line', max_results: 500, context: 10 });
      await call('list_fds', 'list_fds', {});
      await call('list_refs', 'list_refs', {});
      await call('get_ref', 'get_ref', { id: 'r0_' + 'x'.repeat(100) });
      await call('run_command long', 'run_command', { command: 'seq 1 30000' });
      await call('run_command short', 'run_command', { command: 'seq 1 1300' });
      await call('list_sessions', 'list_sessions', {});
      for (const [label, text] of texts) assert.ok(text.length <= limit, `${label}: ${text.length} > ${limit}`);
    }

    it("keeps every result within a known client's budget, chosen from its name (Cline: 8,000)", async () => {
      const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'Cline' });
      try {
        await assertEveryResultWithin(server, 8_000);
        assert.match(server.stderr(), /"Cline" gets results of at most 8000 characters \(the budget of Cline\)/);
        // 6,893 characters of output: whole under the default budget, an fd: under Cline's.
        const run = await callOk(server.client, 'run_command', { command: 'seq 1 1600' });
        assert.match(run, /^<command_result [^>]*fd="fd:\d+"/);
        const described = (await server.client.listTools()).tools.find((t) => t.name === 'run_command')?.description;
        assert.match(described ?? '', /6,500|6500/);
        assert.doesNotMatch(described ?? '', /8,000|8000/);
      } finally {
        await server.close();
      }
    });

    it('takes --result-chars over the client name', async () => {
      const server = await connectMcp({
        store: folders.store,
        workspaces: [folders.workspace],
        name: 'claude-code',
        resultChars: 3000,
      });
      try {
        await assertEveryResultWithin(server, 3000);
        assert.match(server.stderr(), /gets results of at most 3000 characters \(--result-chars\)/);
      } finally {
        await server.close();
      }
    });

    it('keeps the default for a client it does not know', async () => {
      const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'some-agent' });
      try {
        await assertEveryResultWithin(server, DEFAULT_RESULT_CHARS);
        const run = await callOk(server.client, 'run_command', { command: 'seq 1 1600' });
        assert.doesNotMatch(run, /fd="fd:/, 'whole under the default budget');
      } finally {
        await server.close();
      }
    });
  });
});
