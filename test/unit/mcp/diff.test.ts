import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  attribute,
  callError,
  callOk,
  connectMcp,
  mcpFolders,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/**
 * A test suite of 2,000 tests as mocha prints it, each with a duration that changes from run to run; test 1234
 * fails when the file `broken` is in the folder it runs in.
 */
const SUITE = `
const fs = require('node:fs');
const broken = fs.existsSync('broken');
const lines = ['', '  suite'];
for (let n = 1; n <= 2000; n++) {
  const ms = Math.floor(Math.random() * 90) + 10;
  lines.push(broken && n === 1234 ? '    1) test ' + n : '    ✔ test ' + n + ' (' + ms + 'ms)');
}
lines.push('', '  ' + (broken ? 1999 : 2000) + ' passing (' + Math.floor(Math.random() * 900 + 100) + 'ms)');
if (broken) lines.push('  1 failing', '', '  1) suite', '       test 1234:', '     Error: expected 2 to equal 3');
console.log(lines.join('\\n'));
`;

describe('MCP server: diff_fd over stdio (dist/mcp.js, SDK client)', function () {
  this.timeout(60_000);
  let folders: McpFolders;
  let server: Connected;
  before(async () => {
    folders = mcpFolders();
    writeFileSync(path.join(folders.workspace, 'suite.js'), SUITE);
    server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'diff-tester' });
  });
  after(async () => {
    await server.close();
    folders.dispose();
  });

  it('compares two kept runs of a test suite: only the failure, once durations are ignored', async () => {
    const green = attribute(await callOk(server.client, 'run_command', { command: 'node suite.js' }), 'fd');
    writeFileSync(path.join(folders.workspace, 'broken'), '');
    const red = attribute(await callOk(server.client, 'run_command', { command: 'node suite.js' }), 'fd');
    const result = await callOk(server.client, 'diff_fd', { a: green, b: red, ignore_pattern: '\\d+ms' });
    assert.match(result, new RegExp(`^<diff_result a="${green}" b="${red}" identical="false" added="7" removed="2"`));
    assert.match(result, /\n- {4}✔ test 1234 \(\d+ms\)\n\+ {4}1\) test 1234\n/);
    assert.ok(result.includes('\n+     Error: expected 2 to equal 3\n'));
    assert.match(result, /@@ -1233,7 \+1233,7 @@\n/);
    // The same runs compared with themselves.
    assert.match(await callOk(server.client, 'diff_fd', { a: red, b: red }), /identical="true"/);
  });

  it('compares a descriptor of another session with a workspace file, and refuses a file outside the workspace', async () => {
    const other = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'other-client' });
    try {
      const kept = attribute(
        await callOk(other.client, 'run_command', { command: 'seq 1 30000 | sed "s/^15000$/fifteen thousand/"' }),
        'fd',
      );
      const session = attribute(await callOk(other.client, 'list_sessions'), 'current');
      writeFileSync(
        path.join(folders.workspace, 'numbers.txt'),
        Array.from({ length: 30000 }, (_, i) => `${i + 1}\n`).join(''),
      );
      const result = await callOk(server.client, 'diff_fd', { a: 'numbers.txt', b: kept, b_session: session });
      assert.match(result, /added="1" removed="1"/);
      assert.match(result, new RegExp(`\\+\\+\\+ ${kept} \\(session ${session}\\)\\n@@ -14997,7 \\+14997,7 @@`));
      assert.match(result, /-15000\n\+fifteen thousand\n/);
      assert.match(
        await callError(server.client, 'diff_fd', { a: path.join(folders.root, 'store', '..', 'x.txt'), b: kept }),
        /type="outside_workspace"/,
      );
    } finally {
      await other.close();
    }
  });
});
