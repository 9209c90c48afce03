import assert from 'node:assert/strict';
import { isNotFound } from '../../../../src/core/errors';
import { replaceThroughTemporary, temporaryName } from '../../../../src/core/files/replaceFile';

/** Steps over a map of file names, recording what happened in order. */
function recorder(failAt?: 'write' | 'beforeRename' | 'rename') {
  const files = new Map<string, string>([['target', 'old']]);
  const log: string[] = [];
  const fail = (step: string): void => {
    if (step === failAt) throw new Error(`${step} failed`);
  };
  // Each step settles a turn later, as a file system's would.
  const later = <T>(step: () => T): Promise<T> => new Promise((resolve) => setImmediate(resolve)).then(step);
  const steps = {
    write: (temp: string) =>
      later(() => {
        log.push('write');
        files.set(temp, 'new');
        fail('write');
        return temp.length;
      }),
    beforeRename: () =>
      later(() => {
        log.push('beforeRename');
        fail('beforeRename');
      }),
    rename: (temp: string) =>
      later(() => {
        log.push('rename');
        fail('rename');
        files.set('target', files.get(temp) as string);
        files.delete(temp);
      }),
    removeTemporary: (temp: string, written: number | undefined) =>
      later(() => {
        log.push(`removeTemporary ${written === undefined ? 'unwritten' : 'written'}`);
        files.delete(temp);
      }),
  };
  return { files, log, steps };
}

describe('replacing a file', () => {
  it('writes a temporary file, checks, then renames it over the target', async () => {
    const { files, log, steps } = recorder();
    assert.equal(await replaceThroughTemporary(steps), temporaryName().length);
    assert.deepEqual(log, ['write', 'beforeRename', 'rename']);
    assert.deepEqual([...files], [['target', 'new']]);
  });

  for (const step of ['write', 'beforeRename', 'rename'] as const) {
    it(`leaves the target as it was and removes the temporary file when ${step} fails`, async () => {
      const { files, log, steps } = recorder(step);
      await assert.rejects(replaceThroughTemporary(steps), new RegExp(`${step} failed`));
      assert.deepEqual([...files], [['target', 'old']]);
      assert.equal(log.at(-1), `removeTemporary ${step === 'write' ? 'unwritten' : 'written'}`);
    });
  }

  it('names temporary files short, hidden and new each time', () => {
    const name = temporaryName();
    assert.match(name, /^\.fdref-[A-Za-z0-9_-]{12}\.tmp$/);
    assert.notEqual(name, temporaryName());
  });
});

describe('isNotFound', () => {
  it('knows Node and VS Code errors for a path with nothing at it, and nothing else', () => {
    for (const code of ['ENOENT', 'ENOTDIR', 'FileNotFound'])
      assert.ok(isNotFound(Object.assign(new Error(code), { code })), code);
    const others: unknown[] = [
      Object.assign(new Error('x'), { code: 'EACCES' }),
      new Error('ENOENT'),
      undefined,
      null,
      'ENOENT',
      { code: 5 },
    ];
    others.forEach((error, i) => assert.ok(!isNotFound(error), `value ${i}`));
  });
});
