import assert from 'node:assert/strict';
import { chmodSync, chownSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { nodeFileSystem, Session } from '../../../../src/core';
import { writeWorkspaceFile, type WriteMode } from '../../../../src/core/files/workspaceWrite';
import { ToolError } from '../../../../src/core/toolError';
import { tempWorkspace } from '../../support/tempWorkspace';
import { runWriteWorker } from '../../support/writeWorker';

const modes: readonly { mode: WriteMode; line?: number }[] = [
  { mode: 'write' },
  { mode: 'append' },
  { mode: 'insert', line: 1 },
];

describe('workspace writes to read-only files', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace()));
  afterEach(() => ws.dispose());

  async function write(filePath: string, mode: WriteMode, line?: number): Promise<ToolError | undefined> {
    try {
      await writeWorkspaceFile({
        filePath,
        text: 'new\n',
        mode,
        line,
        roots: [ws.root],
        fileSystem: nodeFileSystem,
        label: 'ref:x',
      });
      return undefined;
    } catch (error) {
      if (error instanceof ToolError) return error;
      throw error;
    }
  }

  for (const permissions of [0o444, 0o555, 0o400]) {
    it(`refuses to write, append to or insert into a file with mode ${permissions.toString(8)}, changing nothing`, async () => {
      writeFileSync(ws.file('locked.txt'), 'keep\n');
      chmodSync(ws.file('locked.txt'), permissions);
      for (const { mode, line } of modes) {
        const error = await write('locked.txt', mode, line);
        assert.equal(error?.type, 'permission_denied', mode);
        assert.match(error.message, /locked\.txt is read-only .*nothing was written/);
        assert.equal(readFileSync(ws.file('locked.txt'), 'utf8'), 'keep\n');
        assert.equal(statSync(ws.file('locked.txt')).mode & 0o7777, permissions);
        assert.deepEqual(readdirSync(ws.root), ['locked.txt']);
      }
    });
  }

  it("refuses a read-only file already when a model's write is previewed, before the user is asked", async () => {
    writeFileSync(ws.file('locked.txt'), 'keep\n');
    chmodSync(ws.file('locked.txt'), 0o444);
    const session = new Session({ workspaceRoots: [ws.root], fileSystem: nodeFileSystem });
    const { descriptor } = session.wrapToolOutputAsDescriptor('shell', 'x'.repeat(20_000), 10);
    await assert.rejects(
      session.previewWrite({ fd: descriptor?.id, file_path: 'locked.txt', mode: 'append' }),
      (error: unknown) => {
        assert.ok(error instanceof ToolError && error.type === 'permission_denied', String(error));
        assert.match(error.message, /locked\.txt is read-only \(mode 0444\)/);
        return true;
      },
    );
    writeFileSync(ws.file('open.txt'), 'old\n');
    assert.equal(
      (await session.previewWrite({ fd: descriptor?.id, file_path: 'open.txt', mode: 'append' })).fileExists,
      true,
    );
  });

  it('still writes a file that this user may write', async () => {
    writeFileSync(ws.file('open.txt'), 'old\n');
    chmodSync(ws.file('open.txt'), 0o644);
    assert.equal(await write('open.txt', 'append'), undefined);
    assert.equal(readFileSync(ws.file('open.txt'), 'utf8'), 'old\nnew\n');
  });

  it('as a user other than root, refuses a file it may not write even where it could replace it', async function () {
    if (process.getuid?.() !== 0) this.skip(); // needs root to act as another user; the tests above already run as one
    this.timeout(30_000);
    const nobody = 65534;
    chmodSync(ws.root, 0o755);
    mkdirSync(ws.file('shared'), 0o777);
    chmodSync(ws.file('shared'), 0o777); // anyone may create and rename files here, so the file could be replaced
    writeFileSync(ws.file('shared/roots.txt'), 'root\n'); // owned by root, 0644: nobody may not write it
    chmodSync(ws.file('shared/roots.txt'), 0o644);
    writeFileSync(ws.file('shared/mine.txt'), 'mine\n'); // owned by nobody but 0444
    chownSync(ws.file('shared/mine.txt'), nobody, nobody);
    chmodSync(ws.file('shared/mine.txt'), 0o444);
    writeFileSync(ws.file('shared/ok.txt'), 'ok\n'); // owned by nobody, 0644: fine
    chownSync(ws.file('shared/ok.txt'), nobody, nobody);
    for (const file of ['roots.txt', 'mine.txt', 'ok.txt']) {
      const [outcome] = await runWriteWorker(
        { roots: [ws.root], filePath: `shared/${file}`, mode: 'append', texts: ['new\n'] },
        { uid: nobody, gid: nobody },
      );
      if (file === 'ok.txt') assert.deepEqual(outcome, { text: 'new\n', ok: true });
      else assert.equal(outcome?.ok === false && outcome.type, 'permission_denied', file);
    }
    assert.equal(readFileSync(ws.file('shared/roots.txt'), 'utf8'), 'root\n');
    assert.equal(readFileSync(ws.file('shared/mine.txt'), 'utf8'), 'mine\n');
    assert.equal(readFileSync(ws.file('shared/ok.txt'), 'utf8'), 'ok\nnew\n');
    assert.deepEqual(readdirSync(ws.file('shared')).sort(), ['mine.txt', 'ok.txt', 'roots.txt']);
  });
});
