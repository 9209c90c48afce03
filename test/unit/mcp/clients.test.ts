import assert from 'node:assert/strict';
import { foreignKeywords } from '../support/jsonSchema';
import {
  attribute,
  callError,
  callOk,
  connectMcp,
  mcpFolders,
  textOf,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/** What every tool of the server is called with here: valid arguments of each. */
function everyTool(fd: string): [string, Record<string, unknown>][] {
  return [
    ['read_fd', { fd }],
    ['read_fd', { fd, mode: 'line', start: '2', count: 3 }],
    ['search_fd', { fd, pattern: '7' }],
    ['fd_to_file', { fd, file_path: 'out.txt' }],
    ['list_refs', {}],
    ['get_ref', { id: 'note' }],
    ['list_fds', {}],
    ['store_text', { text: '<ref id="other">y</ref>' }],
    ['run_command', { command: 'echo hi' }],
    ['list_sessions', {}],
  ];
}

describe('MCP server with each client', function () {
  this.timeout(60_000);
  let folders: McpFolders;
  beforeEach(() => (folders = mcpFolders()));
  afterEach(() => folders.dispose());

  async function withServer(name: string, test: (server: Connected) => Promise<void>): Promise<void> {
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name });
    try {
      await test(server);
    } finally {
      await server.close();
    }
  }

  /** A descriptor of 5,000 numbered lines and ref:note in the server's session; returns the descriptor's id. */
  async function seed(server: Connected): Promise<string> {
    await callOk(server.client, 'store_text', { text: '<ref id="note">x</ref>' });
    return attribute(await callOk(server.client, 'run_command', { command: 'seq 1 5000' }), 'fd');
  }

  it("answers Gemini CLI's calls, each with the wait_for_previous it adds, as without it", async () => {
    await withServer('gemini-cli-mcp-client', async (server) => {
      const fd = await seed(server);
      for (const wait of [true, false]) {
        for (const [tool, args] of everyTool(fd)) {
          const result = await server.client.callTool({
            name: tool,
            arguments: { ...args, wait_for_previous: wait },
          });
          assert.notEqual(result.isError, true, `${tool}: ${textOf(result).slice(0, 300)}`);
        }
      }
      assert.match(
        await callError(server.client, 'run_command', { command: 'true', wait_for_previous: true, colour: 'red' }),
        /unknown argument "colour"/,
      );
    });
  });

  it('publishes input and output schemas of JSON Schema keywords only', async () => {
    await withServer('some-agent', async (server) => {
      const { tools } = await server.client.listTools();
      assert.ok(tools.length >= 9);
      const found = tools.flatMap((tool) => [
        ...foreignKeywords(tool.inputSchema, `${tool.name} input`),
        ...foreignKeywords(tool.outputSchema ?? {}, `${tool.name} output`),
      ]);
      assert.deepEqual(found, []);
      assert.ok(
        tools.every((tool) => tool.outputSchema !== undefined),
        'every tool declares its output',
      );
    });
  });

  it('gives structuredContent beside the text: the text, handle, session, sizes, exit code, truncated', async () => {
    await withServer('some-agent', async (server) => {
      const session = attribute(await callOk(server.client, 'list_sessions'), 'current');
      const run = await server.client.callTool({
        name: 'run_command',
        arguments: { command: 'seq 1 30000' },
      });
      const text = textOf(run);
      const facts = run.structuredContent as Record<string, unknown>;
      assert.equal(facts['text'], text);
      assert.equal(facts['tool'], 'run_command');
      assert.equal(facts['session'], session);
      assert.equal(facts['element'], 'command_result');
      assert.equal(facts['handle'], attribute(text, 'fd'));
      assert.equal(facts['exit_code'], 0);
      assert.equal(facts['chars'], Number(attribute(text, 'chars')));
      assert.equal(facts['truncated'], false);
      assert.deepEqual(facts['made'], [attribute(text, 'fd')]);

      const page = await server.client.callTool({
        name: 'read_fd',
        arguments: { fd: attribute(text, 'fd'), start: 2 },
      });
      const pageFacts = page.structuredContent as Record<string, unknown>;
      assert.equal(pageFacts['handle'], attribute(text, 'fd'));
      assert.equal(pageFacts['pages'], Number(attribute(textOf(page), 'pages')));
      assert.equal((pageFacts['attributes'] as Record<string, string>)['page'], '2');

      // An error carries none, and the SDK client (which checks structuredContent against outputSchema) takes it.
      const error = await server.client.callTool({ name: 'read_fd', arguments: { fd: 'fd:999' } });
      assert.equal(error.isError, true);
      assert.equal(error.structuredContent, undefined);
      assert.match(textOf(error), /type="not_found"/);
    });
  });

  it('says when the text stands for a longer answer kept as an fd: (a client with a small budget)', async () => {
    await withServer('Cline', async (server) => {
      const refs = Array.from({ length: 120 }, (_, i) => `<ref id="r${i}_${'x'.repeat(100)}">${i}</ref>`).join('\n');
      const result = await server.client.callTool({
        name: 'store_text',
        arguments: { text: refs },
      });
      const text = textOf(result);
      assert.ok(text.length <= 8000, `${text.length}`);
      const facts = result.structuredContent as Record<string, unknown>;
      assert.equal(facts['truncated'], true);
      assert.equal(facts['stored_as'], attribute(text, 'fd'));
      assert.equal(facts['handle'], attribute(text, 'fd'));
      assert.equal(facts['element'], 'fd_result');
    });
  });

  for (const name of ['claude-code', 'codex-mcp-client', 'Visual Studio Code', 'code-server']) {
    it(`gives ${name}, whose model would see structuredContent instead of the text, none (and no outputSchema)`, async () => {
      await withServer(name, async (server) => {
        const { tools } = await server.client.listTools();
        assert.deepEqual(
          tools.filter((tool) => tool.outputSchema !== undefined).map((tool) => tool.name),
          [],
        );
        const fd = await seed(server);
        for (const [tool, args] of everyTool(fd)) {
          const result = await server.client.callTool({ name: tool, arguments: args });
          assert.notEqual(result.isError, true, `${tool}: ${textOf(result).slice(0, 300)}`);
          assert.equal(result.structuredContent, undefined, tool);
        }
        assert.match(server.stderr(), /no structuredContent/);
      });
    });
  }
});
