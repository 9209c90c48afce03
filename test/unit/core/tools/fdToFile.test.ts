import assert from 'node:assert/strict';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import * as path from 'node:path';
import { nodeFileSystem, Session, type FileSystemPort } from '../../../../src/core';
import fc from 'fast-check';
import { checkWorkspaceWrite } from '../../../../src/core/files/workspaceWrite';
import { insertBeforeLine } from '../../../../src/core/files/textEdit';
import { awkwardText } from '../../support/arbitraries';
import { child, parseXml } from '../../support/xml';
import { tempWorkspace } from '../../support/tempWorkspace';

describe('fd_to_file', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  let outside: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    outside = tempWorkspace();
  });
  afterEach(() => {
    ws.dispose();
    outside.dispose();
  });

  function session(options: { fileSystem?: FileSystemPort; roots?: string[] } = {}): Session {
    const s = new Session({
      workspaceRoots: options.roots ?? [ws.root],
      ...(options.fileSystem ? { fileSystem: options.fileSystem } : {}),
    });
    s.ingestAssistantMessage(
      '<ref id="code">\nprint("hi")\n\n</ref><ref id="oneline">inserted</ref><ref id="uni">héllo 😀</ref>',
    );
    return s;
  }

  async function call(s: Session, args: Record<string, unknown>) {
    return parseXml(await s.callTool('fd_to_file', args));
  }

  it('writes a new file, creating its folders, and reports what it wrote', async () => {
    const result = await call(session(), { fd: 'ref:uni', file_path: 'deep/er/out.txt' });
    assert.equal(result.name, 'fd_file_result');
    assert.equal(readFileSync(ws.file('deep/er/out.txt'), 'utf8'), 'héllo 😀');
    assert.deepEqual(result.attributes, {
      fd: 'ref:uni',
      file_path: ws.file('deep/er/out.txt'),
      mode: 'write',
      char_count: '8',
      size_bytes: '11',
      success: 'true',
    });
    assert.match(child(result, 'message').text, /Wrote ref:uni \(8 characters\)/);
  });

  it('replaces an existing file atomically, leaving no temporary files', async () => {
    writeFileSync(ws.file('out.py'), 'old content that is longer than the new one\n');
    await call(session(), { fd: 'ref:code', file_path: 'out.py' });
    assert.equal(readFileSync(ws.file('out.py'), 'utf8'), 'print("hi")\n');
    assert.deepEqual(readdirSync(ws.root), ['out.py']);
  });

  it('accepts an absolute path inside the workspace', async () => {
    await call(session(), { fd: 'ref:code', file_path: ws.file('abs.py') });
    assert.ok(existsSync(ws.file('abs.py')));
  });

  it('refuses to replace a file when exist_ok is false', async () => {
    writeFileSync(ws.file('keep.txt'), 'keep');
    const error = await call(session(), { fd: 'ref:code', file_path: 'keep.txt', exist_ok: false });
    assert.equal(error.attributes['type'], 'file_exists');
    assert.equal(readFileSync(ws.file('keep.txt'), 'utf8'), 'keep');
  });

  it('refuses to create a file when create is false', async () => {
    const error = await call(session(), { fd: 'ref:code', file_path: 'new.txt', create: 'false' });
    assert.equal(error.attributes['type'], 'file_not_found');
    assert.ok(!existsSync(ws.file('new.txt')));
  });

  it('appends, adding a line break first when the file lacks one', async () => {
    writeFileSync(ws.file('log.txt'), 'first');
    const result = await call(session(), { fd: 'ref:code', file_path: 'log.txt', mode: 'append' });
    assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'first\nprint("hi")\n');
    assert.match(child(result, 'message').text, /adding a line break/);
    await call(session(), { fd: 'ref:oneline', file_path: 'log.txt', mode: 'append' });
    assert.equal(readFileSync(ws.file('log.txt'), 'utf8'), 'first\nprint("hi")\ninserted');
  });

  it('appends to a missing file by creating it', async () => {
    await call(session(), { fd: 'ref:code', file_path: 'fresh.txt', mode: 'append' });
    assert.equal(readFileSync(ws.file('fresh.txt'), 'utf8'), 'print("hi")\n');
  });

  it('inserts before a line, keeping the existing line on its own line', async () => {
    writeFileSync(ws.file('a.txt'), 'one\ntwo\nthree\n');
    await call(session(), { fd: 'ref:oneline', file_path: 'a.txt', mode: 'insert', line: 2 });
    assert.equal(readFileSync(ws.file('a.txt'), 'utf8'), 'one\ninserted\ntwo\nthree\n');
  });

  it('inserts at the end with line = total lines + 1', async () => {
    writeFileSync(ws.file('a.txt'), 'one\ntwo');
    await call(session(), { fd: 'ref:oneline', file_path: 'a.txt', mode: 'insert', line: '3' });
    assert.equal(readFileSync(ws.file('a.txt'), 'utf8'), 'one\ntwo\ninserted');
  });

  it('keeps CRLF line endings when inserting into a CRLF file', async () => {
    writeFileSync(ws.file('w.txt'), 'one\r\ntwo\r\n');
    await call(session(), { fd: 'ref:oneline', file_path: 'w.txt', mode: 'insert', line: 1 });
    assert.equal(readFileSync(ws.file('w.txt'), 'utf8'), 'inserted\r\none\r\ntwo\r\n');
  });

  it('keeps a byte order mark first when inserting at line 1', async () => {
    writeFileSync(ws.file('bom.txt'), '\uFEFFone\n');
    await call(session(), { fd: 'ref:oneline', file_path: 'bom.txt', mode: 'insert', line: 1 });
    assert.equal(readFileSync(ws.file('bom.txt'), 'utf8'), '\uFEFFinserted\none\n');
  });

  it('refuses an insert line that is not a whole number', () => {
    assert.throws(() => insertBeforeLine('a\nb\n', 'x', 1.5), /Line 1.5 is outside the file/);
  });

  it('names the valid lines when the insert line is outside the file', async () => {
    writeFileSync(ws.file('a.txt'), 'one\ntwo\n');
    const error = await call(session(), { fd: 'ref:oneline', file_path: 'a.txt', mode: 'insert', line: 4 });
    assert.equal(error.attributes['type'], 'invalid_range');
    assert.match(error.text, /The file has 2 lines, so line must be 1-3/);
    assert.equal(readFileSync(ws.file('a.txt'), 'utf8'), 'one\ntwo\n');
  });

  it('requires line for insert and only for insert', async () => {
    assert.match((await call(session(), { fd: 'ref:code', file_path: 'a', mode: 'insert' })).text, /needs `line`/);
    assert.match(
      (await call(session(), { fd: 'ref:code', file_path: 'a', line: 2 })).text,
      /only used with mode "insert"/,
    );
    assert.ok(!existsSync(ws.file('a')));
  });

  it('refuses to insert into a file that is not UTF-8 text', async () => {
    writeFileSync(ws.file('bin'), Buffer.from([0xff, 0xfe, 0x00, 0x80]));
    const error = await call(session(), { fd: 'ref:code', file_path: 'bin', mode: 'insert', line: 1 });
    assert.equal(error.attributes['type'], 'write_error');
    assert.deepEqual([...readFileSync(ws.file('bin'))], [0xff, 0xfe, 0x00, 0x80]);
  });

  it('refuses paths that escape the workspace, writing nothing', async () => {
    for (const file_path of ['../escape.txt', 'a/../../escape.txt', path.join(outside.root, 'x.txt')]) {
      const error = await call(session(), { fd: 'ref:code', file_path });
      assert.equal(error.attributes['type'], 'outside_workspace', file_path);
      assert.match(error.text, /outside the workspace/);
    }
    assert.deepEqual(readdirSync(outside.root), []);
    assert.ok(!existsSync(path.join(path.dirname(ws.root), 'escape.txt')));
  });

  it('refuses to write through a symbolic link that leads outside the workspace', async () => {
    symlinkSync(outside.root, ws.file('link'));
    symlinkSync(path.join(outside.root, 'target.txt'), ws.file('file-link'));
    writeFileSync(path.join(outside.root, 'target.txt'), 'outside');
    for (const file_path of ['link/x.txt', 'link/new/deeper.txt', 'file-link']) {
      const error = await call(session(), { fd: 'ref:code', file_path });
      assert.equal(error.attributes['type'], 'outside_workspace', file_path);
    }
    assert.deepEqual(readdirSync(outside.root), ['target.txt']);
    assert.equal(readFileSync(path.join(outside.root, 'target.txt'), 'utf8'), 'outside');
  });

  it('refuses a symbolic link that loops, in every mode, leaving the link as it was', async () => {
    symlinkSync('loop', ws.file('loop'));
    symlinkSync('pong', ws.file('ping'));
    symlinkSync('ping', ws.file('pong'));
    symlinkSync('circle', ws.file('circle'));
    const links = ['loop', 'ping', 'pong', 'circle'];
    for (const file_path of ['loop', 'ping', 'circle/inside.txt', 'circle/deeper/inside.txt']) {
      for (const mode of ['write', 'append', 'insert']) {
        const args = { fd: 'ref:code', file_path, mode, ...(mode === 'insert' ? { line: 1 } : {}) };
        const error = await call(session(), args);
        assert.equal(error.name, 'fd_error', `${file_path} ${mode}`);
        assert.equal(error.attributes['type'], 'write_error', `${file_path} ${mode}`);
        const link = file_path.split('/')[0];
        assert.match(error.text, new RegExp(`^${link} is a symbolic link that leads round in a loop`), error.text);
      }
    }
    assert.deepEqual(readdirSync(ws.root).sort(), links.sort());
    for (const link of links) assert.ok(lstatSync(ws.file(link)).isSymbolicLink(), link);
    await assert.rejects(
      checkWorkspaceWrite({ filePath: 'loop', roots: [ws.root], fileSystem: nodeFileSystem, label: 'ref:code' }),
      /loop is a symbolic link that leads round in a loop/,
    );
  });

  it('refuses a link that led nowhere when the path was resolved and loops when the file is written', async () => {
    symlinkSync('missing.txt', ws.file('later-loop'));
    const swapping: FileSystemPort = {
      ...nodeFileSystem,
      async openFolder(folder) {
        rmSync(ws.file('later-loop'));
        symlinkSync('later-loop', ws.file('later-loop'));
        return nodeFileSystem.openFolder(folder);
      },
    };
    const error = await call(session({ fileSystem: swapping }), { fd: 'ref:code', file_path: 'later-loop' });
    assert.equal(error.attributes['type'], 'write_error');
    assert.match(error.text, /^later-loop is a symbolic link that leads round in a loop/);
    assert.equal(readlinkSync(ws.file('later-loop')), 'later-loop');
    assert.deepEqual(readdirSync(ws.root), ['later-loop']);
  });

  it('replaces a symbolic link that leads nowhere, as a missing file', async () => {
    symlinkSync('missing.txt', ws.file('dangling'));
    await call(session(), { fd: 'ref:oneline', file_path: 'dangling' });
    assert.ok(lstatSync(ws.file('dangling')).isFile());
    assert.equal(readFileSync(ws.file('dangling'), 'utf8'), 'inserted');
    assert.ok(!existsSync(ws.file('missing.txt')));
  });

  it('follows symbolic links that stay inside the workspace', async () => {
    mkdirSync(ws.file('real'));
    symlinkSync(ws.file('real'), ws.file('alias'));
    await call(session(), { fd: 'ref:code', file_path: 'alias/out.py' });
    assert.equal(readFileSync(ws.file('real/out.py'), 'utf8'), 'print("hi")\n');
  });

  it('keeps the permissions of a file it replaces', async () => {
    writeFileSync(ws.file('run.sh'), '#!/bin/sh\n');
    chmodSync(ws.file('run.sh'), 0o755);
    await call(session(), { fd: 'ref:oneline', file_path: 'run.sh', mode: 'append' });
    assert.equal(statSync(ws.file('run.sh')).mode & 0o777, 0o755);
  });

  it('writes through a symbolic link to a file inside the workspace, keeping the link', async () => {
    writeFileSync(ws.file('real.txt'), 'one\n');
    symlinkSync(ws.file('real.txt'), ws.file('link.txt'));
    const result = await call(session(), { fd: 'ref:oneline', file_path: 'link.txt', mode: 'append' });
    assert.equal(readFileSync(ws.file('real.txt'), 'utf8'), 'one\ninserted');
    assert.ok(lstatSync(ws.file('link.txt')).isSymbolicLink());
    assert.equal(result.attributes['file_path'], ws.file('real.txt'));
  });

  it('writes into any of several workspace roots, resolving relative paths against the first', async () => {
    await call(session({ roots: [ws.root, outside.root] }), {
      fd: 'ref:code',
      file_path: path.join(outside.root, 'second.py'),
    });
    await call(session({ roots: [ws.root, outside.root] }), { fd: 'ref:code', file_path: 'first.py' });
    assert.ok(existsSync(path.join(outside.root, 'second.py')));
    assert.ok(existsSync(ws.file('first.py')));
  });

  it('refuses a folder as the target', async () => {
    mkdirSync(ws.file('dir'));
    const error = await call(session(), { fd: 'ref:code', file_path: 'dir' });
    assert.equal(error.attributes['type'], 'invalid_argument');
    assert.match(error.text, /is a folder/);
  });

  it('says there is no workspace when none is open', async () => {
    const error = await call(session({ roots: [] }), { fd: 'ref:code', file_path: 'a.txt' });
    assert.equal(error.attributes['type'], 'outside_workspace');
    assert.match(error.text, /No workspace folder is open/);
  });

  it('reports an unknown descriptor before touching the file system', async () => {
    const error = await call(session(), { fd: 'fd:9', file_path: 'a.txt' });
    assert.equal(error.attributes['type'], 'not_found');
    assert.ok(!existsSync(ws.file('a.txt')));
  });

  it('calls a failure to read the file it appends or inserts into a read_error, writing nothing', async () => {
    writeFileSync(ws.file('keep.txt'), 'original\n');
    const unreadable: FileSystemPort = {
      ...nodeFileSystem,
      readFile: async (file) => {
        if (path.basename(file) !== 'keep.txt') return nodeFileSystem.readFile(file); // the lock's own file reads
        throw Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' });
      },
    };
    for (const mode of ['append', 'insert']) {
      const args = { fd: 'ref:oneline', file_path: 'keep.txt', mode, ...(mode === 'insert' ? { line: 1 } : {}) };
      const error = await call(session({ fileSystem: unreadable }), args);
      assert.equal(error.attributes['type'], 'read_error', `${mode}: ${error.text}`);
      assert.match(error.text, /^Cannot read keep\.txt: .*EIO/);
    }
    assert.equal(readFileSync(ws.file('keep.txt'), 'utf8'), 'original\n');
  });

  it('leaves the old file and no temporary file when the write fails', async () => {
    writeFileSync(ws.file('keep.txt'), 'original');
    const failing: FileSystemPort = {
      ...nodeFileSystem,
      rename: async () => {
        throw new Error('disk full');
      },
    };
    const error = await call(session({ fileSystem: failing }), { fd: 'ref:code', file_path: 'keep.txt' });
    assert.equal(error.attributes['type'], 'write_error');
    assert.match(error.text, /disk full\. The file was left as it was\./);
    assert.equal(readFileSync(ws.file('keep.txt'), 'utf8'), 'original');
    assert.deepEqual(readdirSync(ws.root), ['keep.txt']);
  });

  it('refuses to write over a read-only file, telling the model why and changing nothing', async () => {
    writeFileSync(ws.file('locked.txt'), 'keep\n');
    chmodSync(ws.file('locked.txt'), 0o444);
    const error = await call(session(), { fd: 'ref:code', file_path: 'locked.txt', mode: 'append' });
    assert.equal(error.name, 'fd_error');
    assert.equal(error.attributes['type'], 'permission_denied');
    assert.match(error.text, /locked\.txt is read-only \(mode 0444\), so nothing was written/);
    assert.equal(readFileSync(ws.file('locked.txt'), 'utf8'), 'keep\n');
    assert.deepEqual(readdirSync(ws.root), ['locked.txt']);
  });

  it('answers every call, good or bad, with well-formed XML that gives back the path', async () => {
    const args = fc.record(
      {
        fd: fc.constantFrom('ref:code', 'fd:1', 'ref:nope', '<&>'),
        file_path: fc.constantFrom('out.txt', 'dir/<&>.txt', '../x.txt', '', 'a/b/c.md', 'out.txt/x'),
        mode: fc.constantFrom('write', 'append', 'insert', 'bad'),
        line: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constant('2')),
        create: fc.boolean(),
        exist_ok: fc.boolean(),
      },
      { requiredKeys: ['fd'] },
    );
    await fc.assert(
      fc.asyncProperty(awkwardText, args, async (text, toolArgs) => {
        const s = session();
        s.ingestAssistantMessage(`<ref id="code">${text.replace(/[<`~]/g, '')}</ref>`);
        const result = parseXml(await s.callTool('fd_to_file', toolArgs));
        assert.ok(result.name === 'fd_file_result' || result.name === 'fd_error', result.name);
        if (result.name === 'fd_file_result') assert.ok(result.attributes['file_path']?.startsWith(ws.root));
      }),
      { numRuns: 150 },
    );
  });
});
