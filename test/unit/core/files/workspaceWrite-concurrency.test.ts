import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { nodeFileSystem, Session } from '../../../../src/core';
import { writeWorkspaceFile } from '../../../../src/core/files/workspaceWrite';
import { lockNameFor } from '../../../../src/core/files/writeLock';
import { ToolError } from '../../../../src/core/toolError';
import { tempWorkspace } from '../../support/tempWorkspace';
import { runWriteWorker } from '../../support/writeWorker';

/** A process that stays alive until killed. */
async function liveProcess(): Promise<ChildProcess & { pid: number }> {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  await new Promise((resolve, reject) => child.once('spawn', resolve).once('error', reject));
  return child as ChildProcess & { pid: number };
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
  await new Promise((resolve) => child.once('exit', resolve));
  return child.pid as number;
}

describe('concurrent writes to one file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace()));
  afterEach(() => ws.dispose());

  it('20 parallel fd_to_file appends to one file all land, each once', async () => {
    const session = new Session({ workspaceRoots: [ws.root] });
    const ids = Array.from({ length: 20 }, (_, i) => i);
    session.ingestAssistantMessage(ids.map((i) => `<ref id="l${i}">line ${i}\n</ref>`).join(''));
    const results = await Promise.all(
      ids.map((i) => session.callTool('fd_to_file', { fd: `ref:l${i}`, file_path: 'log.txt', mode: 'append' })),
    );
    for (const result of results) assert.match(result, /success="true"/);
    const lines = readFileSync(ws.file('log.txt'), 'utf8').split('\n').filter(Boolean);
    assert.deepEqual([...lines].sort(), ids.map((i) => `line ${i}`).sort());
    assert.deepEqual(readdirSync(ws.root), ['log.txt']);
  });

  it('parallel inserts and appends in one process keep every line', async () => {
    writeFileSync(ws.file('doc.txt'), 'end\n');
    const session = new Session({ workspaceRoots: [ws.root] });
    const ids = Array.from({ length: 12 }, (_, i) => i);
    session.ingestAssistantMessage(ids.map((i) => `<ref id="l${i}">line ${i}\n</ref>`).join(''));
    await Promise.all(
      ids.map((i) =>
        session.callTool('fd_to_file', {
          fd: `ref:l${i}`,
          file_path: 'doc.txt',
          ...(i % 2 === 0 ? { mode: 'insert', line: 1 } : { mode: 'append' }),
        }),
      ),
    );
    const lines = readFileSync(ws.file('doc.txt'), 'utf8').split('\n').filter(Boolean);
    assert.deepEqual([...lines].sort(), [...ids.map((i) => `line ${i}`), 'end'].sort());
  });

  it('appends from 6 processes at once, 25 each: every acknowledged append is in the file exactly once', async function () {
    this.timeout(120_000);
    const processes = 6;
    const appends = 25;
    const outcomes = (
      await Promise.all(
        Array.from({ length: processes }, (_, p) =>
          runWriteWorker({
            roots: [ws.root],
            filePath: 'shared/log.txt',
            mode: 'append',
            texts: Array.from({ length: appends }, (_, i) => `p${p} a${i}\n`),
          }),
        ),
      )
    ).flat();
    const acknowledged = outcomes.filter((outcome) => outcome.ok).map((outcome) => outcome.text.trimEnd());
    const lines = readFileSync(ws.file('shared/log.txt'), 'utf8').split('\n').filter(Boolean);
    console.log(
      `      ${processes} processes × ${appends} appends: ${acknowledged.length} acknowledged, ${lines.length} lines in the file`,
    );
    assert.equal(
      acknowledged.length,
      processes * appends,
      JSON.stringify(outcomes.filter((outcome) => !outcome.ok).slice(0, 3)),
    );
    assert.deepEqual([...lines].sort(), [...acknowledged].sort());
    assert.deepEqual(readdirSync(ws.file('shared')), ['log.txt']);
  });

  describe('the lock file beside the target', () => {
    const lockFile = () => ws.file(lockNameFor('log.txt'));
    const holdLock = (pid: number) =>
      writeFileSync(lockFile(), JSON.stringify({ pid, host: hostname(), token: 'other' }));
    const append = (lockWaitMs?: number) =>
      writeWorkspaceFile({
        filePath: 'log.txt',
        text: 'new\n',
        mode: 'append',
        roots: [ws.root],
        fileSystem: nodeFileSystem,
        label: 'ref:x',
        lockWaitMs,
      });

    it('is taken over when the process that left it has exited', async () => {
      writeFileSync(ws.file('log.txt'), 'old\n');
      holdLock(await deadPid());
      await append(5_000);
      assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'old\nnew\n');
      assert.deepEqual(readdirSync(ws.root), ['log.txt']);
    });

    it('is taken over when it is older than a minute, even if its process lives (pids are reused)', async () => {
      const holder = await liveProcess();
      try {
        holdLock(holder.pid);
        const longAgo = new Date(Date.now() - 5 * 60_000);
        utimesSync(lockFile(), longAgo, longAgo);
        await append(5_000);
        assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'new\n');
        assert.deepEqual(readdirSync(ws.root), ['log.txt']);
      } finally {
        holder.kill();
      }
    });

    it('held by a live writer makes a write wait, then fail with a clear error that changes nothing', async () => {
      writeFileSync(ws.file('log.txt'), 'old\n');
      const holder = await liveProcess();
      try {
        holdLock(holder.pid);
        const started = Date.now();
        const error = await append(300).then(
          () => undefined,
          (e: unknown) => e,
        );
        assert.ok(error instanceof ToolError, String(error));
        assert.equal(error.type, 'write_error');
        assert.match(
          error.message,
          new RegExp(
            `log\\.txt is being written by another writer \\(process ${holder.pid} on .+\\); waited 0\\.3 s and wrote nothing\\.`,
          ),
        );
        assert.ok(error.message.includes(`delete ${lockFile()}`), error.message);
        assert.ok(Date.now() - started >= 300);
        assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'old\n');
        assert.ok(existsSync(lockFile()), 'the other writer keeps its lock');
        assert.deepEqual(readdirSync(ws.root).sort(), [lockNameFor('log.txt'), 'log.txt'].sort());
      } finally {
        holder.kill();
      }
    });

    it('held by a live writer makes a write wait until it is released, then go ahead', async () => {
      const holder = await liveProcess();
      try {
        holdLock(holder.pid);
        setTimeout(() => rmSync(lockFile()), 300);
        const started = Date.now();
        await append();
        assert.ok(Date.now() - started >= 250);
        assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'new\n');
        assert.deepEqual(readdirSync(ws.root), ['log.txt']);
      } finally {
        holder.kill();
      }
    });
  });
});
