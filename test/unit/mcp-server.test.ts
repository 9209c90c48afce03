import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { Store } from '../../src/core/store';
import {
  attribute,
  callError,
  callOk,
  connectMcp,
  mcpFolders,
  textOf,
  type Connected,
  type McpFolders,
} from '../support/mcp/mcpServer';

describe('MCP server: tools, resources and errors over stdio (dist/mcp.js, SDK client)', function () {
  this.timeout(30_000);
  let folders: McpFolders;
  let server: Connected;
  before(async () => {
    folders = mcpFolders();
    server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'tool-tester' });
  });
  after(async () => {
    await server.close();
    folders.dispose();
  });

  it('creates a session of its own, named after the client, that the store lists with origin mcp', async () => {
    const list = await callOk(server.client, 'list_sessions');
    const id = attribute(list, 'current');
    const store = await Store.open(folders.store);
    const meta = (await store.list()).sessions.find((s) => s.id === id);
    assert.ok(meta, `session ${id} is not in the store`);
    assert.match(meta.name, /^tool-tester \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
    assert.deepEqual(meta.origin, { kind: 'mcp', client: 'tool-tester' });
  });

  it('lists its tools with JSON Schemas', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const name of ['run_command', 'store_text', 'list_sessions']) assert.ok(names.includes(name), name);
    const run = tools.find((t) => t.name === 'run_command');
    assert.deepEqual(run?.inputSchema.required, ['command']);
  });

  it('runs a command and returns short output whole, stdout and stderr in their real order, with the exit code', async () => {
    const text = await callOk(server.client, 'run_command', {
      command: 'echo one; echo two >&2; echo three; exit 3',
    });
    assert.equal(attribute(text, 'exit_code'), '3');
    assert.match(text, /<output>one\ntwo\nthree\n<\/output>/);
    assert.doesNotMatch(text, /fd="/);
  });

  it('runs in the folder asked for inside the workspace, and refuses one outside it, also through a symbolic link', async () => {
    mkdirSync(path.join(folders.workspace, 'sub'), { recursive: true });
    const inside = await callOk(server.client, 'run_command', { command: 'pwd', cwd: 'sub' });
    assert.match(inside, new RegExp(`<output>${path.join(folders.workspace, 'sub')}\n</output>`));
    const outside = await callError(server.client, 'run_command', { command: 'pwd', cwd: folders.root });
    assert.match(outside, /type="outside_workspace"/);
    symlinkSync(folders.root, path.join(folders.workspace, 'escape'));
    const linked = await callError(server.client, 'run_command', { command: 'pwd', cwd: 'escape' });
    assert.match(linked, /type="outside_workspace".*symbolic link/s);
  });

  it('registers refs with store_text: a changed ref gets a new version, the same content keeps its version', async () => {
    const first = await callOk(server.client, 'store_text', {
      text: 'Here: <ref id="greet">hello</ref> and <ref id="other">x</ref>',
    });
    assert.equal(attribute(first, 'refs'), '2');
    assert.match(first, /<ref id="greet" fd="ref:greet" version="1" new_version="true"/);
    const again = await callOk(server.client, 'store_text', { text: '<ref id="greet">hello</ref>' });
    assert.match(again, /<ref id="greet" fd="ref:greet" version="1" new_version="false"/);
    const changed = await callOk(server.client, 'store_text', { text: '<ref id="greet">hello, world</ref>' });
    assert.match(changed, /<ref id="greet" fd="ref:greet" version="2" new_version="true"/);
  });

  it('keeps a text longer than the limit whole as a descriptor, and links it as a resource', async () => {
    const text = 'word '.repeat(3000);
    const result = (await server.client.callTool({ name: 'store_text', arguments: { text } })) as CallToolResult;
    const fd = attribute(textOf(result), 'fd');
    assert.match(fd, /^fd:\d+$/);
    const link = result.content.find((c) => c.type === 'resource_link');
    assert.ok(link?.type === 'resource_link');
    const read = await server.client.readResource({ uri: link.uri });
    const first = read.contents[0];
    assert.ok(first && 'text' in first);
    assert.equal(first.text, text);
  });

  it('lists descriptors and refs as resources and reads every version of a ref by its URI', async () => {
    const session = attribute(await callOk(server.client, 'list_sessions'), 'current');
    const { resources } = await server.client.listResources();
    const uris = resources.map((r) => r.uri);
    assert.ok(uris.includes(`fdref://${session}/ref/greet`), uris.join(', '));
    const latest = await server.client.readResource({ uri: `fdref://${session}/ref/greet` });
    const earlier = await server.client.readResource({ uri: `fdref://${session}/ref/greet@1` });
    assert.deepEqual(
      [latest.contents[0], earlier.contents[0]].map((c) => (c && 'text' in c ? c.text : undefined)),
      ['hello, world', 'hello'],
    );
    await assert.rejects(server.client.readResource({ uri: `fdref://${session}/ref/nothing` }), /has no ref:nothing/);
    await assert.rejects(server.client.readResource({ uri: 'fdref://ffffffff/fd/1' }), /There is no session/);
  });

  it('answers bad arguments with an isError result saying what is wrong, in the core words', async () => {
    assert.match(await callError(server.client, 'run_command', {}), /command: is required/);
    assert.match(
      await callError(server.client, 'run_command', { command: 'true', timeout_s: 99999, color: 'red' }),
      /timeout_s: must be at most 3600 seconds.*unknown argument "color"|unknown argument "color".*timeout_s/s,
    );
    assert.match(await callError(server.client, 'store_text', { text: 42 }), /type="invalid_argument".*text:/s);
    assert.match(
      await callError(server.client, 'run_command', { command: 'true', cwd: 'no/such/folder' }),
      /is missing; give a folder inside/,
    );
  });

  it('stores a result longer than 40,000 characters as a descriptor and answers with its first page', async () => {
    const refs = Array.from({ length: 800 }, (_, i) => `<ref id="r${i}">${i}</ref>`).join('\n');
    const text = await callOk(server.client, 'store_text', { text: refs });
    assert.ok(text.length < 40_000, `${text.length} characters`);
    assert.match(text, /^<fd_result fd="fd:\d+"/);
    assert.match(text, /more than the 40000 this server returns at once/);
    assert.match(text, /<preview>&lt;store_result|<preview><!\[CDATA\[<store_result/);
  });
});

describe('MCP server with --read-only', function () {
  this.timeout(30_000);
  it('offers neither run_command nor fd_to_file, and refuses a call to them', async () => {
    const folders = mcpFolders();
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], readOnly: true });
    try {
      const names = (await server.client.listTools()).tools.map((t) => t.name);
      assert.ok(!names.includes('run_command') && !names.includes('fd_to_file'), names.join(', '));
      assert.ok(names.includes('list_sessions'));
      await assert.rejects(
        server.client.callTool({ name: 'run_command', arguments: { command: 'touch x' } }),
        /run_command disabled/,
      );
    } finally {
      await server.close();
      folders.dispose();
    }
  });
});
