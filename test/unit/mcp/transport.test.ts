import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { Store } from '../../../src/core/store';
import {
  clipMessage,
  ERROR_MESSAGE_MAX_CHARS,
  MessageLines,
  RequestIdScanner,
  type OversizedMessage,
} from '../../../src/mcp/stdioTransport';
import {
  attribute,
  callOk,
  connectMcp,
  mcpFolders,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/** What `MessageLines` makes of `chunks`: the lines it passed on and the messages it refused. */
async function split(
  maxBytes: number,
  chunks: readonly string[],
): Promise<{ lines: string[]; refused: OversizedMessage[] }> {
  const lines: string[] = [];
  const refused: OversizedMessage[] = [];
  const splitter = new MessageLines(maxBytes);
  splitter.on('data', (line: Buffer) => lines.push(line.toString('utf8')));
  splitter.on('oversized', (message: OversizedMessage) => refused.push(message));
  const ended = new Promise((resolve) => splitter.on('end', resolve));
  const input = new PassThrough();
  input.pipe(splitter);
  for (const chunk of chunks) input.write(Buffer.from(chunk, 'utf8'));
  input.end();
  await ended;
  return { lines, refused };
}

function idOf(json: string, pieces = 1): ReturnType<RequestIdScanner['requestId']> {
  const scanner = new RequestIdScanner();
  const bytes = Buffer.from(json, 'utf8');
  const size = Math.ceil(bytes.length / pieces);
  for (let at = 0; at < bytes.length; at += size) scanner.feed(bytes.subarray(at, at + size));
  return scanner.requestId();
}

describe('MCP stdio transport: messages longer than the limit', () => {
  it('passes each line whole, also when split across chunks, and skips longer ones with their size', async () => {
    const { lines, refused } = await split(20, [
      '{"a":1}\n{"b"',
      ':2}\n',
      'x'.repeat(15),
      'y'.repeat(15),
      '\n{"c":3}\n',
    ]);
    assert.deepEqual(lines, ['{"a":1}\n', '{"b":2}\n', '{"c":3}\n']);
    assert.deepEqual(refused, [{ bytes: 30 }]);
  });

  it("reads a long request's id wherever it is, and none from a notification or a response", () => {
    const params = `"params":{"name":"store_text","arguments":{"text":"${'a\\"id\\":9,'.repeat(50)}","id":7}}`;
    assert.equal(idOf(`{"jsonrpc":"2.0","method":"tools/call",${params},"id":42}`, 7), 42);
    assert.equal(idOf(`{"id":"req \\"one\\"", "jsonrpc":"2.0",${params}, "method" : "tools/call"}`, 13), 'req "one"');
    assert.equal(idOf(`{"jsonrpc":"2.0","method":"notifications/x",${params}}`), undefined);
    assert.equal(idOf(`{"jsonrpc":"2.0","id":3,"result":{"method":"x","id":4}}`), undefined);
    assert.equal(idOf(`{"jsonrpc":"2.0","method":"x","id":{"not":"an id"}}`), undefined);
    assert.equal(idOf(`{"jsonrpc":"2.0","method":"x","id":"${'z'.repeat(1000)}"}`), undefined);
  });

  it('cuts a long error message to its start and end', () => {
    const message = `Tool ${'x'.repeat(100_000)} not found`;
    const clipped = clipMessage(message);
    assert.ok(clipped.length <= ERROR_MESSAGE_MAX_CHARS, `${clipped.length}`);
    assert.match(clipped, /^Tool x+… \([\d,]+ characters cut\) …x+ not found$/);
    assert.equal(clipMessage('short'), 'short');
  });

  describe('the server (dist/mcp.js, SDK client)', function () {
    this.timeout(60_000);
    let folders: McpFolders;
    let server: Connected;
    before(async () => {
      folders = mcpFolders();
      server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    });
    after(async () => {
      await server.close();
      folders.dispose();
    });

    it('refuses a 12 MB store_text with an error saying the limit, stores nothing, and keeps serving', async () => {
      const id = attribute(await callOk(server.client, 'list_sessions'), 'current');
      await assert.rejects(
        server.client.callTool({ name: 'store_text', arguments: { text: 'x'.repeat(12_000_000) } }),
        /The message of 12,000,\d{3} bytes was not read: this server reads messages of at most 10 MiB\. Send long text in parts/,
      );
      assert.match(
        await callOk(server.client, 'store_text', { text: '<ref id="after">still here</ref>' }),
        /ref:after/,
      );
      const reader = await (await Store.open(folders.store)).read(id);
      assert.deepEqual([reader?.current.fds.size, [...(reader?.current.refs.keys() ?? [])]], [0, ['after']]);
      assert.match(server.stderr(), /The message of 12,000,\d{3} bytes was not read/);
    });

    it('answers a call to a tool with a 9 MB name with a short error', async () => {
      await assert.rejects(
        server.client.callTool({ name: 'n'.repeat(9_000_000), arguments: {} }),
        (error: Error) =>
          error.message.length < 2 * ERROR_MESSAGE_MAX_CHARS && /characters cut.*not found/s.test(error.message),
      );
    });
  });
});
