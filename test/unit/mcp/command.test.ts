import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../../src/core/store';
import { attribute, callOk, connectMcp, mcpFolders, type McpFolders } from '../../support/mcp/mcpServer';

/** 50 MB of numbered lines, the same every time: line i is `line <i> ` padded with letters to 100 characters. */
const LINES = 500_000;
const GENERATE = `node -e "
const out = [];
for (let i = 1; i <= ${LINES}; i++) {
  const head = 'line ' + i + ' ';
  out.push(head + 'abcdefghijklmnopqrstuvwxyz'.repeat(4).slice(0, 99 - head.length) + '\\n');
  if (out.length === 10000) { process.stdout.write(out.join('')); out.length = 0; }
}
process.stdout.write(out.join(''));
"`;

function expectedOutput(): string {
  const out: string[] = [];
  for (let i = 1; i <= LINES; i++) {
    const head = `line ${i} `;
    out.push(head + 'abcdefghijklmnopqrstuvwxyz'.repeat(4).slice(0, 99 - head.length) + '\n');
  }
  return out.join('');
}

/** Whether `pid` runs: a zombie (ended, not yet reaped by its parent, here often no one) does not. */
function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}

describe('MCP run_command', function () {
  this.timeout(60_000);
  let folders: McpFolders;
  beforeEach(() => (folders = mcpFolders()));
  afterEach(() => folders.dispose());

  it('keeps a 50 MB output whole: read back page by page it equals the bytes written, and search_fd finds its lines', async () => {
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    try {
      const result = await callOk(server.client, 'run_command', { command: GENERATE });
      const expected = expectedOutput();
      assert.equal(attribute(result, 'exit_code'), '0');
      assert.equal(Number(attribute(result, 'chars')), expected.length);
      assert.ok(result.length < 40_000, `the result is ${result.length} characters`);
      const fd = attribute(result, 'fd');
      const pages = Number(attribute(result, 'pages'));
      // Read back through the server, 9 pages a call (36,000 characters, under the result cap).
      const hash = createHash('sha256');
      let chars = 0;
      for (let page = 1; page <= pages; page += 9) {
        const read = await callOk(server.client, 'read_fd', { fd, start: page, count: 9 });
        const match = /^<fd_content [^>]*>([^<]*)<\/fd_content>$/.exec(read);
        assert.ok(match, `pages ${page}-${page + 8}: ${read.slice(0, 200)}`);
        hash.update(match[1] as string);
        chars += (match[1] as string).length;
      }
      assert.equal(chars, expected.length);
      assert.equal(hash.digest('hex'), createHash('sha256').update(expected).digest('hex'));
      const search = await callOk(server.client, 'search_fd', { fd, pattern: 'line 424242 ' });
      assert.match(search, /424242/);
      assert.match(search, /matches="1"|1 match/);
    } finally {
      await server.close();
    }
  });

  it('ends the whole process group at the time limit, a child that ignores SIGTERM and a grandchild included', async () => {
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    try {
      // The shell starts a child that ignores SIGTERM, which starts a grandchild; both write their pids.
      const command = `sh -c 'trap "" TERM; sleep 300 & echo $! > grandchild.pid; echo $$ > child.pid; wait' & echo started; wait`;
      const started = Date.now();
      const result = await callOk(server.client, 'run_command', { command, timeout_s: 1 });
      const elapsed = Date.now() - started;
      assert.equal(attribute(result, 'timed_out'), 'true');
      assert.match(result, /time limit of 1 s/);
      assert.ok(elapsed < 10_000, `took ${elapsed} ms`);
      for (const file of ['child.pid', 'grandchild.pid']) {
        const pid = Number(readFileSync(path.join(folders.workspace, file), 'utf8'));
        assert.ok(pid > 0 && !isAlive(pid), `${file}: ${pid} is still running`);
      }
    } finally {
      await server.close();
    }
  });

  it('ends the daemons a command started (setsid, with and without its output), which left its process group, and says so', async () => {
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    const files = ['holding.pid', 'quiet.pid'].map((file) => path.join(folders.workspace, file));
    const pids = (): number[] => files.map((file) => Number(readFileSync(file, 'utf8')));
    try {
      // Issue 22's daemon, which keeps the output pipe, and a quiet one that lets it go; each writes its own pid.
      const command =
        `setsid sh -c 'echo $$ > holding.pid.new; mv holding.pid.new holding.pid; exec sleep 600' & ` +
        `setsid sh -c 'echo $$ > quiet.pid.new; mv quiet.pid.new quiet.pid; exec sleep 600' >/dev/null 2>&1 & ` +
        `while [ ! -e holding.pid ] || [ ! -e quiet.pid ]; do sleep 0.05; done; echo started`;
      const result = await callOk(server.client, 'run_command', { command, timeout_s: 30 });
      assert.equal(attribute(result, 'exit_code'), '0');
      const [holding, quiet] = pids() as [number, number];
      assert.ok(!isAlive(holding), `the daemon holding the output (${holding}) still runs: ${result}`);
      assert.ok(!isAlive(quiet), `the quiet daemon (${quiet}) still runs: ${result}`);
      assert.match(result, /2 processes it started had left its process group \(e\.g\. with setsid\) and were ended/);
      assert.match(result, new RegExp(`pid ${Math.min(holding, quiet)}, ${Math.max(holding, quiet)}`));
      assert.doesNotMatch(result, /still_running/);
    } finally {
      for (const pid of pids()) if (pid > 0 && isAlive(pid)) process.kill(pid, 'SIGKILL');
      await server.close();
    }
  });

  it('leaves a store that loads with every completed change after the server is killed (kill -9) mid-command', async () => {
    const server = await connectMcp({ store: folders.store, workspaces: [folders.workspace], name: 'killed' });
    const session = attribute(await callOk(server.client, 'list_sessions'), 'current');
    await callOk(server.client, 'store_text', { text: '<ref id="before">done before the kill</ref>' });
    const long = await callOk(server.client, 'run_command', { command: 'seq 1 100000' });
    const fd = attribute(long, 'fd');
    // A command writing for ever; the server is killed while it streams into the store. The command's process
    // group (its shell's pid, written first) must not outlive the server.
    const groupFile = path.join(folders.workspace, 'killed-group.pid');
    const running = server.client
      .callTool({
        name: 'run_command',
        arguments: { command: `echo $$ > ${groupFile}; while true; do seq 1 1000; done` },
      })
      .catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 500));
    process.kill(server.pid, 'SIGKILL');
    await running;
    await server.close().catch(() => undefined);
    const group = Number(readFileSync(groupFile, 'utf8'));
    assert.ok(group > 0, 'the command wrote its group id');
    for (let waited = 0; groupAlive(group) && waited < 10_000; waited += 50)
      await new Promise((resolve) => setTimeout(resolve, 50));
    if (groupAlive(group)) process.kill(-group, 'SIGKILL'); // leave nothing running, then fail
    assert.ok(!groupAlive(group), `the command's process group ${group} outlived the killed server`);

    const store = await Store.open(folders.store);
    const reader = await store.read(session);
    assert.ok(reader, 'the session is gone');
    assert.equal(reader.problem, undefined);
    assert.equal(await reader.lookup('ref:before')?.content.text(), 'done before the kill');
    const output = await reader.lookup(fd)?.content.text();
    assert.equal(output, Array.from({ length: 100000 }, (_, i) => `${i + 1}\n`).join(''));
    assert.deepEqual(
      reader.descriptors().map((d) => d.id),
      [fd],
    );
    // A new server on the store reads the killed one's session.
    const next = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    try {
      assert.match(await callOk(next.client, 'list_sessions'), new RegExp(`<session id="${session}" name="killed `));
      const text = await callOk(next.client, 'get_ref', { id: 'before', session });
      assert.match(text, /done before the kill/);
    } finally {
      await next.close();
    }
  });
});
