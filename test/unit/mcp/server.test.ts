import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../../src/core/store';
import { toolsOn } from '../../../src/core/tools/toolTable';
import { parseServerArguments, UsageError } from '../../../src/mcp/serverArguments';
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
    // Every tool of the core's table offered on MCP, from its record, and the server's own list_sessions.
    const offered = toolsOn('mcp');
    assert.deepEqual([...names].sort(), [...offered.map((t) => t.name), 'list_sessions'].sort());
    assert.ok(names.includes('store_text') && names.includes('run_command') && names.includes('list_fds'));
    for (const record of offered) {
      const listed = tools.find((t) => t.name === record.name);
      assert.equal(listed?.title, record.title, record.name);
      assert.equal(listed?.annotations?.title, record.title, record.name);
      assert.equal(listed?.annotations?.readOnlyHint, record.effect === 'read', record.name);
      assert.equal(listed?.annotations?.destructiveHint, record.effect !== 'read', record.name);
      assert.equal(listed?.annotations?.openWorldHint, record.effect === 'run', record.name);
    }
    const read = tools.find((t) => t.name === 'read_fd');
    assert.ok(read?.inputSchema.properties && 'session' in read.inputSchema.properties, 'read_fd takes session');
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

  it('answers 30 calls at once that each register a ref and read it back', async () => {
    const texts = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        callOk(server.client, 'store_text', { text: `<ref id="same">${i}</ref><ref id="own${i}">${i}</ref>` }),
      ),
    );
    const versions = texts
      .map((t) => Number(/<ref id="same" fd="[^"]*" version="(\d+)"/.exec(t)?.[1]))
      .sort((a, b) => a - b);
    assert.deepEqual(
      versions,
      Array.from({ length: 30 }, (_, i) => i + 1),
    );
    assert.match(await callOk(server.client, 'get_ref', { id: 'own29' }), />29<\/ref_content>/);
  });

  it('keeps a text longer than the limit whole as a descriptor, and links it as a resource', async () => {
    const text = 'word '.repeat(3000);
    const result = await server.client.callTool({ name: 'store_text', arguments: { text } });
    const fd = attribute(textOf(result), 'fd');
    assert.match(fd, /^fd:\d+$/);
    const link = result.content.find((c) => c.type === 'resource_link');
    assert.ok(link?.type === 'resource_link');
    const read = await server.client.readResource({ uri: link.uri });
    const first = read.contents[0];
    assert.ok(first && 'text' in first);
    assert.equal(first.text, text);
  });

  it('queries stored JSON Lines with jq (query_fd), and refuses a program that loops past its time limit', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => JSON.stringify({ i, status: i % 500 === 499 ? 500 : 200 }));
    const stored = await server.client.callTool({ name: 'store_text', arguments: { text: rows.join('\n') } });
    const fd = attribute(textOf(stored), 'fd');
    assert.match(fd, /^fd:\d+$/);
    const result = await callOk(server.client, 'query_fd', { fd, query: 'select(.status >= 500) | .i' });
    assert.equal(attribute(result, 'values'), '4');
    assert.match(result, />499\n999\n1499\n1999</);
    const looped = await callError(server.client, 'query_fd', { fd, query: 'def f: f; f', timeout_s: 1 });
    assert.match(looped, /type="invalid_argument".*ran longer than 1 s and was stopped/s);
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

  it('reads, searches and lists with the core tools, in the core words', async () => {
    const run = await callOk(server.client, 'run_command', { command: 'seq 1 20000' });
    const fd = attribute(run, 'fd');
    const reader = await (
      await Store.open(folders.store)
    ).read(attribute(await callOk(server.client, 'list_sessions'), 'current'));
    const stored = reader?.lookup(fd);
    assert.equal(stored?.toolName, 'run_command');
    assert.deepEqual(
      [stored?.command?.commandLine, stored?.command?.cwd, stored?.command?.exitCode, stored?.command?.outputChars],
      ['seq 1 20000', folders.workspace, 0, 108_894],
    );
    const page = await callOk(server.client, 'read_fd', { fd, start: '2' });
    assert.match(page, new RegExp(`^<fd_content fd="${fd}" page="2"`));
    const tail = await callOk(server.client, 'read_fd', { fd, mode: 'tail', count: 2 });
    assert.match(tail, /19999\n20000\n/);
    const found = await callOk(server.client, 'search_fd', { fd, pattern: '^1234$', regex: true });
    assert.match(found, /1234/);
    assert.match(await callOk(server.client, 'list_refs'), /<ref_list count="\d+"><ref id="greet"/);
    // list_fds names the command whose output a descriptor holds, newest first.
    const listed = await callOk(server.client, 'list_fds', { limit: 1 });
    assert.match(
      listed,
      new RegExp(
        `^<fd_list count="\\d+" shown="1"><fd id="${fd}" source="tool_output" tool="run_command" command="seq 1 20000" exit_code="0"`,
      ),
    );
    assert.match(await callOk(server.client, 'get_ref', { id: 'greet@1' }), />hello<\/ref_content>/);
    assert.match(
      await callError(server.client, 'read_fd', { fd: 'fd:999' }),
      /type="not_found".*"fd:999" does not exist/s,
    );
    assert.match(await callError(server.client, 'search_fd', { fd, pattern: '(', regex: true }), /invalid_argument/);
    assert.match(
      await callError(server.client, 'get_ref', { id: 'greet', session: 'ffffffff' }),
      /type="not_found".*There is no session "ffffffff"/s,
    );
  });

  it('returns read_all and get_ref of a 9,000-character content whole (the seed contract), an extract of all of it', async () => {
    const text = Array.from({ length: 300 }, (_, i) => `line ${String(i + 1).padStart(4, '0')} ${'x'.repeat(19)}`).join(
      '\n',
    );
    const stored = await callOk(server.client, 'store_text', { text: `<ref id="nine_k">${text}</ref>` });
    const fd = attribute(await callOk(server.client, 'store_text', { text }), 'fd');
    assert.match(stored, /nine_k/);
    const all = await callOk(server.client, 'read_fd', { fd, read_all: true });
    assert.ok(all.startsWith(`<fd_content fd="${fd}" page="all"`), all.slice(0, 200));
    assert.ok(all.includes(text), 'read_all gives everything');
    assert.ok((await callOk(server.client, 'get_ref', { id: 'nine_k' })).includes(text), 'get_ref gives everything');
    const extract = await callOk(server.client, 'read_fd', { fd, read_all: true, extract_to_new_fd: true });
    assert.equal(attribute(extract, 'chars'), String(text.length));
  });

  it('reads another session named by its id or its exact name, and refuses a name two sessions have', async () => {
    const store = await Store.open(folders.store);
    const make = async (text: string): Promise<string> => {
      const writer = await store.create({ name: 'Shared Notes', origin: { kind: 'chat' } });
      await writer.addDescriptor(
        { source: 'user_input', createdAt: new Date().toISOString() },
        await writer.putContent(text),
      );
      await writer.close();
      return writer.id;
    };
    const first = await make('the first notes');
    for (const session of [first, 'shared notes', ' SHARED NOTES ']) {
      assert.match(await callOk(server.client, 'read_fd', { fd: 'fd:1', session }), />the first notes<\/fd_content>$/);
    }
    const second = await make('the second notes');
    assert.match(await callOk(server.client, 'read_fd', { fd: 'fd:1', session: second }), /the second notes/);
    const twice = await callError(server.client, 'read_fd', { fd: 'fd:1', session: 'Shared Notes' });
    assert.match(twice, /type="invalid_argument".*2 sessions are named "Shared Notes"; pass one's id instead/s);
    assert.ok(twice.includes(first) && twice.includes(second), twice);
    assert.match(
      await callError(server.client, 'read_fd', { fd: 'fd:1', session: 'No Such Notes' }),
      /type="not_found".*There is no session "No Such Notes" \(by id or by name\).*list_sessions lists every session/s,
    );
  });

  it('writes a descriptor to a file in the workspace, and refuses a path outside it, also through a symbolic link', async () => {
    const written = await callOk(server.client, 'fd_to_file', { fd: 'ref:greet', file_path: 'out/greet.txt' });
    assert.match(written, /success="true"/);
    const { readFileSync, existsSync } = await import('node:fs');
    assert.equal(readFileSync(path.join(folders.workspace, 'out/greet.txt'), 'utf8'), 'hello, world');
    const outside = path.join(folders.root, 'outside.txt');
    assert.match(
      await callError(server.client, 'fd_to_file', { fd: 'ref:greet', file_path: outside }),
      /type="outside_workspace"/,
    );
    assert.match(
      await callError(server.client, 'fd_to_file', { fd: 'ref:greet', file_path: 'escape/through-link.txt' }),
      /type="outside_workspace".*symbolic link/s,
    );
    assert.ok(!existsSync(outside) && !existsSync(path.join(folders.root, 'through-link.txt')));
  });

  it('stores a result longer than 40,000 characters as a descriptor and answers with its start and end', async () => {
    // Long ids make a long answer from few refs (each ref is a content file and a record written).
    const refs = Array.from({ length: 250 }, (_, i) => `<ref id="r${i}_${'x'.repeat(120)}">${i}</ref>`).join('\n');
    const text = await callOk(server.client, 'store_text', { text: refs });
    assert.ok(text.length <= 40_000, `${text.length} characters`);
    assert.match(text, /^<fd_result fd="fd:\d+"/);
    assert.match(
      text,
      /<message>fd:\d+ holds the whole output of store_text: \d+ characters \(\d+ lines?\) in \d+ pages/,
    );
    assert.match(text, /<preview>(?:<!\[CDATA\[)?--- first \d+ characters ---\n(?:&lt;|<)store_result/);
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

describe("MCP server and the client's roots", function () {
  this.timeout(30_000);
  it('lets fd_to_file write in a folder the client offers as a root, beside the --workspace folders', async () => {
    const folders = mcpFolders();
    const extra = path.join(folders.root, 'client-root');
    mkdirSync(extra);
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], roots: [extra] });
    try {
      await callOk(server.client, 'store_text', { text: '<ref id="r">root text</ref>' });
      await callOk(server.client, 'fd_to_file', { fd: 'ref:r', file_path: path.join(extra, 'r.txt') });
      const { readFileSync } = await import('node:fs');
      assert.equal(readFileSync(path.join(extra, 'r.txt'), 'utf8'), 'root text');
      assert.match(
        await callError(server.client, 'fd_to_file', { fd: 'ref:r', file_path: path.join(folders.root, 'r.txt') }),
        /outside_workspace/,
      );
    } finally {
      await server.close();
      folders.dispose();
    }
  });
});

describe('MCP server and a client that never answers roots/list', function () {
  this.timeout(30_000);
  it('reads at once, and writes inside the --workspace folders after a short wait, saying why a path outside is refused', async () => {
    const folders = mcpFolders();
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], roots: 'unanswered' });
    try {
      await callOk(server.client, 'store_text', { text: '<ref id="r">root text</ref>' });
      assert.match(await callOk(server.client, 'read_fd', { fd: 'ref:r' }), />root text<\/fd_content>/);
      assert.match(await callOk(server.client, 'search_fd', { fd: 'ref:r', pattern: 'root' }), /root text/);
      assert.match(await callOk(server.client, 'list_refs'), /<ref id="r"/);
      assert.match(await callOk(server.client, 'get_ref', { id: 'r' }), /root text/);
      await callOk(server.client, 'fd_to_file', { fd: 'ref:r', file_path: 'r.txt' });
      assert.equal(readFileSync(path.join(folders.workspace, 'r.txt'), 'utf8'), 'root text');
      assert.match(await callOk(server.client, 'run_command', { command: 'cat r.txt' }), /<output>root text<\/output>/);
      assert.match(
        await callError(server.client, 'fd_to_file', { fd: 'ref:r', file_path: path.join(folders.root, 'r.txt') }),
        /type="outside_workspace".*The client has not answered the server's roots\/list request \(waited 5 s\)/s,
      );
    } finally {
      await server.close();
      folders.dispose();
    }
  });
});

describe("MCP server and a client's name", function () {
  this.timeout(30_000);
  it('names the session after a cleaned, bounded client name, and lists long names of older sessions short', async () => {
    const folders = mcpFolders();
    const servers: Connected[] = [];
    try {
      const huge = await connectMcp({
        store: folders.store,
        workspaces: [folders.workspace],
        name: `\u001b[31m${'n'.repeat(1_000_000)}`,
      });
      servers.push(huge);
      const hugeId = attribute(await callOk(huge.client, 'list_sessions'), 'current');
      const odd = await connectMcp({
        store: folders.store,
        workspaces: [folders.workspace],
        name: ' evil\nname\u202e\u0007 x ',
      });
      servers.push(odd);
      const oddId = attribute(await callOk(odd.client, 'list_sessions'), 'current');
      const store = await Store.open(folders.store);
      const older = await store.create({ name: `older ${'o'.repeat(100_000)}`, origin: { kind: 'chat' } });
      await older.close();

      const meta = JSON.parse(readFileSync(path.join(folders.store, 'sessions', hugeId, 'meta.json'), 'utf8')) as {
        name: string;
        origin: { client: string };
      };
      assert.equal(meta.origin.client, `[31m${'n'.repeat(76)}…`);
      assert.match(meta.name, /^\[31mn{76}… \d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      const listed = await callOk(odd.client, 'list_sessions');
      assert.match(listed, /^<session_list /, 'the list is answered inline, not stored as a descriptor');
      assert.match(listed, new RegExp(`<session id="${oddId}" name="evil name x [^"]*"[^>]* client="evil name x"`));
      assert.match(listed, new RegExp(`<session id="${older.id}" name="older o{194}…"`));
      assert.ok(listed.length < 5_000, `${listed.length} characters`);
    } finally {
      await Promise.all(servers.map((s) => s.close()));
      folders.dispose();
    }
  });
});

describe('MCP server command line', () => {
  it('says what is wrong with the arguments, and shows the usage', () => {
    const folders = mcpFolders();
    try {
      const cases: [string[], RegExp][] = [
        [[], /--store <folder> is required/],
        [['--store', 's'], /At least one --workspace <folder> is required/],
        [['--store', 's', '--workspace', 'missing'], /--workspace .*missing cannot be used: ENOENT/],
        [['--store', 's', '--workspace', folders.workspace, '--colour'], /Unknown option '--colour'/],
        [['--store', 's', '--workspace', folders.workspace, 'extra'], /Unexpected argument 'extra'/],
        [['--store', 's', '--workspace', folders.workspace, '--command-wait', 'soon'], /--command-wait must be/],
        [['--store', 's', '--workspace', folders.workspace, '--command-wait', '0'], /--command-wait must be/],
      ];
      for (const [argv, message] of cases) {
        assert.throws(
          () => parseServerArguments(argv, folders.root),
          (error: Error) => error instanceof UsageError && message.test(error.message) && /Usage: /.test(error.message),
          argv.join(' '),
        );
      }
      assert.deepEqual(
        parseServerArguments(
          ['--store', 's', '--workspace', 'workspace', '--workspace', folders.workspace, '--read-only'],
          folders.root,
        ),
        { store: path.join(folders.root, 's'), workspaces: [folders.workspace], readOnly: true, commandWaitS: 45 },
      );
      assert.equal(
        parseServerArguments(['--store', 's', '--workspace', 'workspace', '--command-wait', '2.5'], folders.root)
          .commandWaitS,
        2.5,
      );
    } finally {
      folders.dispose();
    }
  });
});
