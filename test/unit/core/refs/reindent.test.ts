import assert from 'node:assert/strict';
import fc from 'fast-check';
import { reindentForInsert } from '../../../../src/core/refs/reindent';

describe('a ref re-indented for Insert at Cursor', () => {
  it('gives a Python block the indentation of the line the cursor is on', () => {
    const block = 'def parse():\n    return {\n        "a": 1,\n    }\n';
    assert.equal(reindentForInsert(block, '    '), 'def parse():\n        return {\n            "a": 1,\n        }\n');
    assert.equal(reindentForInsert('    if x:\n        y()\n', '\t'), 'if x:\n\t    y()\n');
  });

  it('takes off the indentation all lines share, keeps blank lines empty and CRLF line ends', () => {
    assert.equal(reindentForInsert('  a\r\n\r\n    b\r\n  c', '  x = '), 'a\r\n\r\n    b\r\n  c');
    assert.equal(reindentForInsert('\tone\n  \n\ttwo', '  '), 'one\n\n  two');
  });

  it('inserts one line as it is, and mixed tabs and spaces share only what is the same', () => {
    assert.equal(reindentForInsert('  single', '        '), '  single');
    assert.equal(reindentForInsert('\t{\n', ''), '\t{\n');
    assert.equal(reindentForInsert('\ta\n  b', ''), '\ta\n  b');
  });

  const line = fc.stringMatching(/^[ \t]{0,4}[a-z(){}:"= ]{0,12}$/);
  const lines = fc.array(line, { minLength: 2, maxLength: 12 });
  const indent = fc.stringMatching(/^[ \t]{0,8}$/);

  it('changes nothing but indentation: every line keeps its text after its leading whitespace', () => {
    fc.assert(
      fc.property(lines, indent, (ls, at) => {
        const out = reindentForInsert(ls.join('\n'), at).split('\n');
        assert.equal(out.length, ls.length);
        out.forEach((o, i) => assert.equal(o.trimStart(), (ls[i] ?? '').trimStart()));
      }),
    );
  });

  it('keeps the relative indentation, with the cursor line’s indentation in front of every line after the first', () => {
    fc.assert(
      fc.property(lines, indent, fc.stringMatching(/^[ \t]{0,6}$/), (ls, at, extra) => {
        // A text of one line (a trailing line end makes no second line) is inserted as it is: see above.
        fc.pre(ls.slice(1).some((l) => l !== ''));
        const shifted = ls.map((l) => (l.trim() === '' ? l : extra + l));
        const plain = reindentForInsert(ls.join('\n'), '').split('\n');
        const out = reindentForInsert(shifted.join('\n'), at).split('\n');
        out.forEach((o, i) => {
          const expected = i === 0 || (plain[i] ?? '') === '' ? (plain[i] ?? '') : at + (plain[i] ?? '');
          assert.equal(o, expected);
        });
      }),
    );
  });
});
