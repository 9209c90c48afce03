import assert from 'node:assert/strict';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem } from '../../../../src/core';
import { locateInWorkspace } from '../../../../src/core/files/workspacePath';
import { tempWorkspace } from '../../support/tempWorkspace';

describe('locateInWorkspace: which written file the chat may open', () => {
  let real: ReturnType<typeof tempWorkspace>;
  let outside: ReturnType<typeof tempWorkspace>;
  let linked: string;
  beforeEach(() => {
    real = tempWorkspace();
    outside = tempWorkspace();
    mkdirSync(real.file('notes'));
    writeFileSync(real.file('notes/hello.py'), 'print(1)\n');
    writeFileSync(outside.file('secret.txt'), 'secret\n');
    // The workspace folder as opened is a link to the real folder (fd_to_file reports real paths).
    linked = path.join(outside.root, 'ws-link');
    symlinkSync(real.root, linked);
  });
  afterEach(() => {
    real.dispose();
    outside.dispose();
  });

  it('finds a real path inside a folder opened through a link, named under the folder as opened', async () => {
    const located = await locateInWorkspace(real.file('notes/hello.py'), [linked], nodeFileSystem);
    assert.deepEqual(located, { path: path.join(linked, 'notes', 'hello.py'), real: real.file('notes/hello.py') });
  });

  it('finds a path given through the opened folder itself', async () => {
    const located = await locateInWorkspace(path.join(linked, 'notes/hello.py'), [linked], nodeFileSystem);
    assert.equal(located?.real, real.file('notes/hello.py'));
  });

  it('refuses `..` out of the folder, a link inside it that leads out, and a relative path', async () => {
    const dotted = `${real.root}/../${path.basename(outside.root)}/secret.txt`;
    assert.equal(await locateInWorkspace(dotted, [real.root], nodeFileSystem), undefined);
    symlinkSync(outside.file('secret.txt'), real.file('notes/leak.txt'));
    assert.equal(await locateInWorkspace(real.file('notes/leak.txt'), [real.root], nodeFileSystem), undefined);
    assert.equal(await locateInWorkspace('notes/hello.py', [real.root], nodeFileSystem), undefined);
    assert.equal(await locateInWorkspace(real.file('notes/hello.py'), [], nodeFileSystem), undefined);
  });

  it('rejects when the file is gone', async () => {
    await assert.rejects(locateInWorkspace(real.file('notes/gone.py'), [real.root], nodeFileSystem), /ENOENT/);
  });
});
