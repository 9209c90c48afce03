import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  descriptorFileName,
  descriptorIdOfFileName,
  formatFdrefPath,
  parseFdrefPath,
  sessionFolderName,
  sessionIdOfFolder,
  suggestedFileName,
} from '../../../../src/core/files/fdrefPaths';
import { languageInfo } from '../../../../src/core/files/languages';

describe('fdref paths', () => {
  it('names a session folder by its name and id, and finds the id again', () => {
    assert.equal(sessionFolderName('Captured 2025-01-02', 'ab12cd34'), 'Captured 2025-01-02 (ab12cd34)');
    assert.equal(sessionIdOfFolder('Captured 2025-01-02 (ab12cd34)'), 'ab12cd34');
    assert.equal(sessionIdOfFolder('(ab12cd34)'), 'ab12cd34');
    assert.equal(sessionIdOfFolder('no id here'), undefined);
  });

  it('makes any session name safe for a folder and still finds the id', () => {
    fc.assert(
      fc.property(fc.string(), fc.stringMatching(/^[a-z0-9]{8}$/), (name, id) => {
        const folder = sessionFolderName(name, id);
        assert.ok(!/[/\\\u0000-\u001f]/.test(folder), folder);
        assert.equal(sessionIdOfFolder(folder), id);
        assert.deepEqual(parseFdrefPath(`/${folder}/refs`), { kind: 'area', sessionId: id, area: 'refs' });
      }),
    );
  });

  it('names ref files by id, version and language, and descriptors fd-N.txt', () => {
    assert.equal(descriptorFileName('ref:parse_config', 'python'), 'parse_config.py');
    assert.equal(descriptorFileName('ref:parse_config@1', 'py'), 'parse_config@1.py');
    assert.equal(descriptorFileName('ref:notes', undefined), 'notes.txt');
    assert.equal(descriptorFileName('ref:odd', 'brainfuck'), 'odd.txt');
    assert.equal(descriptorFileName('fd:12', undefined), 'fd-12.txt');
    assert.equal(descriptorFileName('nonsense', undefined), undefined);
  });

  it('reads a file name back to the descriptor id it was made from', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,20}$/),
        fc.option(fc.integer({ min: 1, max: 99 }), { nil: undefined }),
        fc.constantFrom(undefined, 'python', 'ts', 'json', 'unknown'),
        (id, version, language) => {
          const descriptorId = `ref:${id}${version === undefined ? '' : `@${version}`}`;
          const name = descriptorFileName(descriptorId, language) as string;
          assert.equal(descriptorIdOfFileName('refs', name), descriptorId);
        },
      ),
    );
    assert.equal(descriptorIdOfFileName('fds', 'fd-3.txt'), 'fd:3');
    assert.equal(descriptorIdOfFileName('fds', 'fd-0.txt'), undefined);
    assert.equal(descriptorIdOfFileName('refs', '.hidden'), undefined);
  });

  it('reads entity documents only at the ids of entities', () => {
    assert.deepEqual(parseFdrefPath('/entities/2-1.json'), { kind: 'entity', entityId: '2-1' });
    assert.deepEqual(parseFdrefPath('/entities/11-18446744073709551615.json'), {
      kind: 'entity',
      entityId: '11-18446744073709551615',
    });
    for (const name of ['12-1.json', '2-0.json', '02-1.json', '2-1.txt', '2-1', '.json', '2-1.json.json'])
      assert.equal(parseFdrefPath(`/entities/${name}`), undefined, name);
    assert.equal(parseFdrefPath('/entities/2-1.json/x'), undefined);
  });

  it('parses and formats every kind of location', () => {
    assert.deepEqual(parseFdrefPath('/'), { kind: 'root' });
    assert.deepEqual(parseFdrefPath(''), { kind: 'root' });
    assert.deepEqual(parseFdrefPath('/S (abc)'), { kind: 'session', sessionId: 'abc' });
    assert.deepEqual(parseFdrefPath('/S (abc)/fds/fd-1.txt'), {
      kind: 'file',
      sessionId: 'abc',
      area: 'fds',
      fileName: 'fd-1.txt',
    });
    assert.equal(parseFdrefPath('/S (abc)/other'), undefined);
    assert.equal(parseFdrefPath('/S (abc)/refs/a/b'), undefined);
    assert.equal(parseFdrefPath('/.vscode'), undefined);
    assert.equal(
      formatFdrefPath({ kind: 'file', sessionId: 'abc', area: 'refs', fileName: 'x.py' }, 'S'),
      '/S (abc)/refs/x.py',
    );
    assert.equal(formatFdrefPath({ kind: 'root' }, ''), '/');
  });

  it('suggests an export file name from the ref id and language', () => {
    assert.equal(suggestedFileName('ref:parse_config', 'python'), 'parse_config.py');
    assert.equal(suggestedFileName('parse_config@2', 'python'), 'parse_config.py');
    assert.equal(suggestedFileName('main.py', 'python'), 'main.py');
    assert.equal(suggestedFileName('notes', undefined), 'notes.txt');
  });

  it('maps fence languages to extensions and VS Code language ids', () => {
    assert.deepEqual(languageInfo('TypeScript'), { extension: 'ts', languageId: 'typescript' });
    assert.deepEqual(languageInfo('bash'), { extension: 'sh', languageId: 'shellscript' });
    assert.deepEqual(languageInfo(undefined), { extension: 'txt', languageId: 'plaintext' });
    assert.deepEqual(languageInfo('cobol-85'), { extension: 'txt' });
  });
});
