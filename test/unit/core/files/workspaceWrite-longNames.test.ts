import assert from 'node:assert/strict';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { nodeFileSystem } from '../../../../src/core';
import { writeWorkspaceFile, type WriteMode } from '../../../../src/core/files/workspaceWrite';
import { tempWorkspace } from '../../support/tempWorkspace';

/** File names at and near the usual 255-byte limit of one path component. */
const names = [
  'a'.repeat(226) + '.txt', // 230 bytes
  'b'.repeat(251) + '.txt', // 255 bytes
  'c' + 'é'.repeat(125) + '.txt', // 255 bytes in 130 characters
];

describe('workspace writes to files with long names', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => (ws = tempWorkspace()));
  afterEach(() => ws.dispose());

  async function write(name: string, mode: WriteMode, line?: number) {
    return writeWorkspaceFile({
      filePath: `dir/${name}`,
      text: 'new\n',
      mode,
      line,
      roots: [ws.root],
      fileSystem: nodeFileSystem,
      label: 'ref:x',
    });
  }

  for (const name of names) {
    it(`writes, appends to and inserts into a file whose name is ${Buffer.byteLength(name)} bytes, leaving nothing else`, async () => {
      await write(name, 'write');
      assert.equal(readFileSync(ws.file(`dir/${name}`), 'utf8'), 'new\n');
      await write(name, 'append');
      assert.equal(readFileSync(ws.file(`dir/${name}`), 'utf8'), 'new\nnew\n');
      writeFileSync(ws.file(`dir/${name}`), 'old\n');
      await write(name, 'insert', 1);
      assert.equal(readFileSync(ws.file(`dir/${name}`), 'utf8'), 'new\nold\n');
      assert.deepEqual(readdirSync(ws.file('dir')), [name]);
    });
  }
});
