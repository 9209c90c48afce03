import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { Store } from '../../../src/core/store';
import {
  attribute,
  callOk,
  connectMcp,
  mcpFolders,
  type Connected,
  type McpFolders,
} from '../../support/mcp/mcpServer';

/**
 * A command that prints a numbered line every 20 ms until a file `stop` appears in its folder, then prints `done`
 * and exits with 3; it writes its process group's id first, to `group.pid`.
 */
const PRINTER =
  'echo $$ > group.pid; i=0; while [ ! -e stop ]; do i=$((i+1)); echo "line $i"; sleep 0.02; done; echo done; exit 3';

/** Polls `check` until it gives a value (never a fixed sleep: the condition decides). */
async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

/** The highest `line N` in `text`. */
function lastLine(text: string): number {
  const all = [...text.matchAll(/line (\d+)/g)];
  return all.length === 0 ? 0 : Number(all[all.length - 1]?.[1]);
}

describe('MCP run_command past its wait: a descriptor that grows', function () {
  this.timeout(60_000);
  let folders: McpFolders;
  let server: Connected | undefined;
  beforeEach(() => (folders = mcpFolders()));
  afterEach(async () => {
    writeFileSync(path.join(folders.workspace, 'stop'), '');
    const groupFile = path.join(folders.workspace, 'group.pid');
    if (existsSync(groupFile)) {
      const group = Number(readFileSync(groupFile, 'utf8'));
      if (group > 0 && groupAlive(group)) process.kill(-group, 'SIGKILL');
    }
    await server?.close().catch(() => undefined);
    server = undefined;
    folders.dispose();
  });

  async function start(): Promise<{ fd: string; session: string; group: number; first: string }> {
    server = await connectMcp({
      store: folders.store,
      workspaces: [folders.workspace],
      extraArgs: ['--command-wait', '1'],
    });
    const session = attribute(await callOk(server.client, 'list_sessions'), 'current');
    const first = await callOk(server.client, 'run_command', { command: PRINTER });
    assert.equal(attribute(first, 'state'), 'running', first);
    const fd = attribute(first, 'fd');
    assert.match(first, /wait_command\(fd="fd:\d+"\)/);
    const group = Number(readFileSync(path.join(folders.workspace, 'group.pid'), 'utf8'));
    assert.equal(Number(attribute(first, 'pid')), group, 'the answer names the process group');
    return { fd, session, group, first };
  }

  it('answers a command still running with a growing fd; tail and search see new output; wait gives the end and exit code', async () => {
    const { fd, session, first } = await start();
    const client = (server as Connected).client;
    assert.equal(attribute(await callOk(client, 'list_sessions'), 'fds'), '1', 'a growing descriptor is counted');
    const seen = lastLine(first);
    // read_fd tail sees lines written after the answer.
    const tail = await until('the tail to grow', async () => {
      const text = await callOk(client, 'read_fd', { fd, mode: 'tail', count: 5 });
      return lastLine(text) > seen + 10 ? text : undefined;
    });
    assert.equal(attribute(tail, 'growing'), 'running', 'read_fd says more may follow');
    const later = lastLine(tail);
    assert.match(await callOk(client, 'search_fd', { fd, pattern: `^line ${later}$` }), new RegExp(`line ${later}\\b`));
    // Another process (a reader of the same store, as VS Code is) sees it running, and growing.
    const store = await Store.open(folders.store);
    const reader = await store.read(session);
    assert.ok(reader);
    const growing = reader.lookup(fd);
    assert.equal(growing?.growing?.state, 'running');
    const before = growing?.content.length ?? 0;
    assert.ok(before > 0);
    const text = await growing?.content.text();
    assert.equal(text?.length, before, 'a reader reads exactly what was recorded');
    assert.match(text ?? '', /^line 1\n(line \d+\n)*$/, 'a consistent prefix of whole lines');
    await until('another process to see more', async () => {
      await reader.refresh();
      const now = reader.lookup(fd)?.content;
      return now !== undefined && now.length > before ? true : undefined;
    });
    // wait_command while it runs: the new output, still running.
    const looked = await callOk(client, 'wait_command', { fd, seconds: 0 });
    assert.equal(attribute(looked, 'state'), 'running', looked);
    assert.ok(Number(attribute(looked, 'new_chars')) > 0, looked);
    writeFileSync(path.join(folders.workspace, 'stop'), '');
    const end = await until('the end', async () => {
      const text = await callOk(client, 'wait_command', { fd, seconds: 5 });
      return /state="running"/.test(text) ? undefined : text;
    });
    assert.equal(attribute(end, 'exit_code'), '3', end);
    assert.equal(attribute(end, 'fd'), fd);
    const whole = await callOk(client, 'read_fd', { fd, read_all: true });
    assert.match(whole, /line 1\n[\s\S]*done\n/);
    assert.doesNotMatch(whole, /growing=/, 'complete: nothing more will follow');
    // The descriptor is complete, with what a short run stores.
    await reader.refresh();
    const done = reader.lookup(fd);
    assert.equal(done?.growing, undefined);
    assert.equal(done?.command?.exitCode, 3);
    assert.equal(done?.command?.commandLine, PRINTER);
    assert.equal(done?.command?.cwd, folders.workspace);
    assert.equal(done?.command?.unfinished, undefined);
    assert.equal(done?.command?.outputChars, done?.content.length);
    assert.equal(done?.toolName, 'run_command');
    assert.match((await done?.content.text()) ?? '', /^line 1\n(line \d+\n)*done\n$/);
    // Nothing of the growing file is left: the content is under its hash, as any other.
    assert.deepEqual(reader.growingFds(), []);
  });

  it('stops a running command with wait_command stop: its whole process group ends', async () => {
    const { fd, group } = await start();
    const stopped = await callOk((server as Connected).client, 'wait_command', { fd, stop: true });
    assert.equal(attribute(stopped, 'cancelled'), 'true', stopped);
    assert.equal(attribute(stopped, 'fd'), fd);
    await until('the group to end', () => (groupAlive(group) ? undefined : true), 10_000);
  });

  it('ends a running command when the server stops (stdin closed), and records how it ended', async () => {
    const { fd, session, group } = await start();
    const connected = server as Connected;
    await connected.transport.close();
    await connected.ended;
    await until('the group to end', () => (groupAlive(group) ? undefined : true), 10_000);
    const store = await Store.open(folders.store);
    const reader = await store.read(session);
    const done = reader?.lookup(fd);
    assert.equal(done?.growing, undefined, 'completed before the server exited');
    assert.equal(done?.command?.ended, 'stopped');
    assert.equal(done?.command?.exitCode, undefined);
    assert.ok(done?.command?.endedAt);
    assert.match((await done?.content.text()) ?? '', /^line 1\n/);
  });

  it('leaves a readable store with the descriptor cut off when the server is killed (kill -9) mid-run', async () => {
    const { fd, session, group } = await start();
    const connected = server as Connected;
    process.kill(connected.pid, 'SIGKILL');
    await connected.ended.catch(() => undefined);
    await until('the group to end', () => (groupAlive(group) ? undefined : true), 10_000);
    const store = await Store.open(folders.store);
    const reader = await store.read(session);
    assert.ok(reader);
    assert.equal(reader.problem, undefined);
    const cut = reader.lookup(fd);
    assert.equal(cut?.growing?.state, 'cut off');
    assert.equal(cut?.command?.unfinished, true);
    const text = (await cut?.content.text()) ?? '';
    assert.match(text, /^line 1\n(line \d+\n)*$/);
    // A new server reads it, and says it was cut off.
    const next = await connectMcp({ store: folders.store, workspaces: [folders.workspace] });
    try {
      const read = await callOk(next.client, 'read_fd', { fd, session, mode: 'tail', count: 1 });
      assert.match(read, /line \d+/);
      assert.equal(attribute(read, 'growing'), 'cut_off');
    } finally {
      await next.close();
    }
    // Whoever writes the session next completes it: what was recorded, marked unfinished.
    const writer = await store.openWriter(session);
    await reader.refresh();
    const completed = reader.lookup(fd);
    assert.equal(completed?.growing, undefined);
    assert.equal(completed?.command?.unfinished, true);
    assert.equal(await completed?.content.text(), text);
    await writer.close();
  });
});
