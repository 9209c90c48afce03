import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { refreshLauncher } from '../../../src/core/agents/launcher';
import {
  attribute,
  callError,
  callOk,
  connectMcp,
  MCP_BUNDLE,
  mcpFolders,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/** A test run as mocha prints it: 3,000 passing tests, test 1500 failing in the middle. */
const SUITE = `
const lines = ['', '  parser'];
for (let n = 1; n <= 3000; n++)
  lines.push(n === 1500 ? '    1) rejects trailing commas' : '    ✔ case ' + n + ' (' + (n % 90) + 'ms)');
lines.push('', '  2999 passing (4s)', '  1 failing', '', '  1) parser', '       rejects trailing commas:');
lines.push('     AssertionError: expected 3 to equal 4');
console.log(lines.join('\\n'));
`;

describe('MCP server: search_fd across descriptors and sessions (dist/mcp.js, SDK client)', function () {
  this.timeout(90_000);
  let folders: McpFolders;
  let server: Connected;
  let other: Connected;
  before(async () => {
    folders = mcpFolders();
    writeFileSync(path.join(folders.workspace, 'suite.js'), SUITE);
    server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'searcher' });
    other = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'builder' });
  });
  after(async () => {
    await other.close();
    await server.close();
    folders.dispose();
  });

  it('finds a failure kept by another agent: its fd, session, command, line and context', async () => {
    const kept = attribute(await callOk(other.client, 'run_command', { command: 'node suite.js' }), 'fd');
    const session = attribute(await callOk(other.client, 'list_sessions'), 'current');
    const own = await callOk(server.client, 'search_fd', { fd: '*', pattern: 'AssertionError: expected' });
    assert.match(own, /matches="0"/, 'fd="*" alone searches this session only');
    const result = await callOk(server.client, 'search_fd', {
      fd: '*',
      session: '*',
      pattern: 'AssertionError: expected',
      context: 1,
    });
    assert.match(result, /^<search_result fd="\*" session="\*" pattern="AssertionError: expected"/);
    assert.match(result, /matches="1" exact="true"/);
    assert.ok(
      result.includes(`<lines fd="${kept}" session="${session}" session_name="`),
      `the hit names its descriptor and session:\n${result}`,
    );
    assert.match(result, /command="node suite\.js"/);
    assert.match(result, /\n3009: {6}AssertionError: expected 3 to equal 4<\/lines>/);
    assert.match(result, />3008- {8}rejects trailing commas:\n/);
    // The same hit through the session's name, and by source and command line.
    assert.match(
      await callOk(server.client, 'search_fd', { fd: '*', session, pattern: 'trailing commas' }),
      /matches="2"/,
    );
    assert.match(
      await callOk(server.client, 'search_fd', { fd: '*', session: '*', pattern: 'trailing commas', command: 'suite' }),
      /matches="2"/,
    );
    assert.match(
      await callOk(server.client, 'search_fd', { fd: '*', session: '*', pattern: 'trailing commas', command: 'make' }),
      /matches="0"/,
    );
    assert.match(
      await callOk(server.client, 'search_fd', { fd: '*', session: '*', pattern: 'trailing commas', since: '1h' }),
      /matches="2"/,
    );
    // Paging: the page after the first.
    const first = await callOk(server.client, 'search_fd', { fd: '*', session: '*', pattern: 'case', max_results: 5 });
    assert.match(first, /matches="2999" exact="true" shown="5" next_offset="5"/);
    const next = await callOk(server.client, 'search_fd', {
      fd: '*',
      session: '*',
      pattern: 'case',
      max_results: 5,
      offset: 5,
    });
    assert.match(next, /shown="5" offset="5" next_offset="10"/);
  });

  it('finds a line of a real `git log -p` at its line number, as read_fd reads it', async () => {
    const root = path.resolve(__dirname, '../../..');
    const kept = await callOk(other.client, 'run_command', {
      command: `git -C '${root}' log -p -n 40 --no-color -- src/core/store`,
    });
    const fd = attribute(kept, 'fd');
    const session = attribute(await callOk(other.client, 'list_sessions'), 'current');
    const total = Number(
      attribute(
        await callOk(server.client, 'read_fd', { fd, session, mode: 'line', start: 1, count: 1 }),
        'total_lines',
      ),
    );
    const start = Math.max(1, Math.floor(total / 2));
    const read = await callOk(server.client, 'read_fd', { fd, session, mode: 'line', start, count: 400 });
    // A changed line of code (added or removed) with a few words, in the second half.
    const lines = read.split('\n');
    const index = lines.findIndex((l) => /^[+-] {2,}\S.*[a-z]{4,} [a-z]{4,}/i.test(l) && !/[<>&"]/.test(l));
    assert.ok(index > 0, `a changed line in:\n${read.slice(0, 2000)}`);
    const line = lines[index] ?? '';
    const number = start + index; // the first line follows the opening tag
    const pattern = line.slice(1).trim().split(/\s+/).slice(0, 4).join(' ');
    const found = await callOk(server.client, 'search_fd', { fd: '*', session, pattern, max_results: 500 });
    assert.ok(
      found.includes(`\n${number}: ${line}`) || found.includes(`>${number}: ${line}`),
      `${number}: ${line}\n${found.slice(0, 3000)}`,
    );
  });

  it('searches from the copy agents run (fdref-mcp.js beside fdref-searchWorker.js and native/)', async () => {
    const launchers = path.join(folders.root, 'launchers');
    const { path: bundle } = await refreshLauncher(MCP_BUNDLE, launchers);
    const copy = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'agent', bundle });
    try {
      await callOk(copy.client, 'run_command', { command: 'seq 1 5000 | sed "s/^2500$/kept by the copy: zanzibar/"' });
      const found = await callOk(copy.client, 'search_fd', { fd: '*', pattern: 'zanzibar' });
      assert.match(found, /matches="1" exact="true"/);
      assert.match(found, /\n2500: kept by the copy: zanzibar\n/);
    } finally {
      await copy.close();
    }
  });

  it('says what is wrong with a search across descriptors', async () => {
    assert.match(
      await callError(server.client, 'search_fd', { fd: '*', pattern: 'a.*b', regex: true }),
      /regex=true searches one descriptor/,
    );
    assert.match(
      await callError(server.client, 'search_fd', { fd: 'fd:1', session: '*', pattern: 'x' }),
      /session="\*" searches every session and needs fd="\*"/,
    );
    assert.match(
      await callError(server.client, 'search_fd', { fd: 'fd:1', pattern: 'x', origin: 'codex' }),
      /origin applies only with fd="\*"/,
    );
    assert.match(
      await callError(server.client, 'search_fd', { fd: '*', pattern: 'x', since: 'yesterday-ish' }),
      /since must be an ISO 8601 time/,
    );
    assert.match(await callError(server.client, 'search_fd', { fd: '*', pattern: '==>' }), /at least one word/);
  });
});
