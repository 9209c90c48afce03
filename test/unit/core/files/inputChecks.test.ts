import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { nodeFileSystem } from '../../../../src/core';
import { Content } from '../../../../src/core/descriptors/content';
import { displayPath } from '../../../../src/core/files/displayPath';
import { insertBeforeLine, insertLineProblem, lineCountOf } from '../../../../src/core/files/textEdit';
import { checkWorkspaceWrite, writeWorkspaceFile } from '../../../../src/core/files/workspaceWrite';
import { apiKeyProblem } from '../../../../src/core/settings/apiKeyShape';
import { sameSessionName } from '../../../../src/core/tools/sessionArgument';
import { ToolError } from '../../../../src/core/toolError';
import { tempWorkspace } from '../../support/tempWorkspace';

describe('paths in messages', () => {
  const api = { path: path.resolve('/work/api'), name: 'api' };
  const web = { path: path.resolve('/work/web'), name: 'Web App' };

  it('names a file relative to the only workspace folder, with / between names', () => {
    assert.equal(displayPath(path.join(api.path, 'src', 'a.ts'), [api]), 'src/a.ts');
    assert.equal(displayPath(api.path, [api]), '.');
  });

  it("puts the folder's own name first when there are several folders", () => {
    assert.equal(displayPath(path.join(web.path, 'notes', 'hello.py'), [api, web]), 'Web App/notes/hello.py');
    assert.equal(displayPath(web.path, [api, web]), 'Web App');
  });

  it('keeps a path outside every folder absolute, also one that only shares a prefix', () => {
    const outside = path.resolve('/work/api-old/x.ts');
    assert.equal(displayPath(outside, [api]), outside);
    assert.equal(displayPath(path.resolve('/tmp/x'), []), path.resolve('/tmp/x'));
  });

  it('uses the deepest folder when folders are nested', () => {
    const inner = { path: path.join(api.path, 'packages', 'core'), name: 'core' };
    assert.equal(displayPath(path.join(inner.path, 'i.ts'), [api, inner]), 'core/i.ts');
  });

  describe('in the messages of workspace writes', () => {
    let ws: ReturnType<typeof tempWorkspace>;
    let other: ReturnType<typeof tempWorkspace>;
    beforeEach(() => {
      ws = tempWorkspace();
      other = tempWorkspace();
    });
    afterEach(() => {
      ws.dispose();
      other.dispose();
    });

    const write = (filePath: string, roots: string[], extra: { rootNames?: string[]; create?: boolean } = {}) =>
      writeWorkspaceFile({
        filePath,
        text: 'x\n',
        mode: 'write',
        roots,
        fileSystem: nodeFileSystem,
        label: 'ref:a',
        ...extra,
      });

    it('says what was written relative to the folder, and with its name in a window of several', async () => {
      const one = await write('notes/a.txt', [ws.root]);
      assert.equal(one.shown, 'notes/a.txt');
      assert.equal(one.message, 'Wrote ref:a (2 characters) to notes/a.txt.');
      const two = await write(path.join(other.root, 'b.txt'), [ws.root, other.root], { rootNames: ['api', 'web'] });
      assert.equal(two.message, 'Wrote ref:a (2 characters) to web/b.txt.');
      assert.equal(two.target, path.join(other.root, 'b.txt'), 'the result still holds the absolute path');
    });

    it('names the file by the folder as given when the folder is reached through a link', async () => {
      const link = path.join(other.root, 'linked');
      symlinkSync(ws.root, link, 'dir');
      const result = await write('c.txt', [link]);
      assert.equal(result.target, path.join(ws.root, 'c.txt'));
      assert.equal(result.message, 'Wrote ref:a (2 characters) to c.txt.');
    });

    it('names refused files relative too, and a path outside absolute', async () => {
      await assert.rejects(write('missing.txt', [ws.root], { create: false }), {
        message: 'missing.txt does not exist and create is false.',
      });
      await assert.rejects(write('../x.txt', [ws.root]), (error: Error) =>
        error.message.includes(`resolves to ${path.join(path.dirname(ws.root), 'x.txt')}, which is outside`),
      );
    });
  });
});

describe('checking a write before it is asked for', () => {
  let ws: ReturnType<typeof tempWorkspace>;
  beforeEach(() => {
    ws = tempWorkspace();
    mkdirSync(ws.file('src'));
    writeFileSync(ws.file('src/a.ts'), 'one\ntwo\n');
  });
  afterEach(() => ws.dispose());

  const check = (filePath: string, options: { create?: boolean; existOk?: boolean } = {}) =>
    checkWorkspaceWrite({ filePath, roots: [ws.root], fileSystem: nodeFileSystem, label: 'ref:a', ...options });

  async function refusal(promise: Promise<unknown>, what: string): Promise<string> {
    try {
      await promise;
    } catch (error) {
      assert.ok(error instanceof ToolError, String(error));
      return error.message;
    }
    assert.fail(`${what} was refused`);
  }

  it('accepts a new file and an existing one, saying which, and creates nothing', async () => {
    assert.deepEqual(await check('src/new/b.ts'), {
      target: ws.file('src/new/b.ts'),
      shown: 'src/new/b.ts',
      exists: false,
    });
    assert.equal((await check('src/a.ts')).exists, true);
    assert.deepEqual(readdirSync(ws.file('src')), ['a.ts']);
  });

  it('refuses what the write refuses, with the same words', async () => {
    const cases: [string, { create?: boolean; existOk?: boolean }, RegExp][] = [
      ['../out.txt', {}, /outside the workspace/],
      ['src', {}, /^src is a folder; give a file path inside it\.$/],
      ['src/', {}, /ends with a slash/],
      ['', {}, /An empty path names the workspace folder itself/],
      ['.', {}, /names the workspace folder itself/],
      [`${'n'.repeat(256)}.txt`, {}, /260 bytes long; file names can be at most 255/],
      ['src/none.ts', { create: false }, /^src\/none\.ts does not exist and create is false\.$/],
      ['src/a.ts', { existOk: false }, /^src\/a\.ts already exists/],
      ['src/a.ts/x.ts', {}, /^src\/a\.ts is a file, not a folder, so src\/a\.ts\/x\.ts cannot be written\.$/],
    ];
    for (const [filePath, options, expected] of cases) {
      const checked = await refusal(check(filePath, options), `the check of ${filePath}`);
      assert.match(checked, expected, filePath);
      const written = await refusal(
        writeWorkspaceFile({
          filePath,
          text: 'x',
          mode: 'write',
          roots: [ws.root],
          fileSystem: nodeFileSystem,
          label: 'ref:a',
          ...options,
        }),
        `the write to ${filePath}`,
      );
      assert.equal(written, checked, `the write says the same for ${filePath}`);
    }
  });
});

describe('the line to insert before', () => {
  it('counts lines in bytes as the text counts them', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n', '\r', 'é', '😀') }), (text) => {
        assert.equal(lineCountOf(new TextEncoder().encode(text)), new Content(text).totalLines);
      }),
    );
  });

  it('takes 1 to one past the last line, and says how many lines the file has otherwise', () => {
    assert.equal(insertLineProblem(43, 42), undefined);
    assert.equal(insertLineProblem(1, 0), undefined);
    assert.equal(
      insertLineProblem(50, 42),
      'Line 50 is outside the file. The file has 42 lines, so line must be 1-43 (43 appends at the end).',
    );
    assert.match(insertLineProblem(0, 1) ?? '', /The file has 1 line, so line must be 1-2/);
    assert.match(insertLineProblem(2, 0) ?? '', /has 0 lines, so line must be 1 \(1 appends at the end\)/);
  });

  it('is the rule the insert applies', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '\n') }), fc.integer({ min: -2, max: 12 }), (text, line) => {
        const problem = insertLineProblem(line, new Content(text).totalLines);
        if (problem === undefined) assert.doesNotThrow(() => insertBeforeLine(text, 'x', line));
        else assert.throws(() => insertBeforeLine(text, 'x', line), { message: problem });
      }),
    );
  });
});

describe('an API key as typed', () => {
  it('refuses quotes, a Bearer prefix and whitespace inside, without repeating the key', () => {
    for (const key of ['"sk-ant-abc"', "'abc'", 'Bearer sk-ant-abc', 'sk-ant ab', 'sk-ant-a\nb', 'sk\u0000x']) {
      const problem = apiKeyProblem(key, 'openai');
      assert.equal(problem?.severity, 'error', key);
      assert.ok(!problem.message.includes(key.replace(/^Bearer /, '').replace(/["']/g, '')), 'the key is not echoed');
    }
  });

  it('lets an empty key (removal) and plain keys through, warning about an Anthropic key of another shape', () => {
    assert.equal(apiKeyProblem('', 'anthropic'), undefined);
    assert.equal(apiKeyProblem('  sk-ant-api03-xyz  ', 'anthropic'), undefined);
    assert.equal(apiKeyProblem('local-dummy', 'openai'), undefined);
    assert.equal(apiKeyProblem('sk-proj-123', 'anthropic')?.severity, 'warning');
  });
});

describe('session names', () => {
  it('are one name when equal trimmed and case-insensitive, as the session argument matches them', () => {
    assert.ok(sameSessionName('  Notes ', 'notes'));
    assert.ok(!sameSessionName('Notes 1', 'Notes'));
  });
});
