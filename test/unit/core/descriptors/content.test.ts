import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Content, pageEnd } from '../../../../src/core/descriptors/content';
import { awkwardText } from '../../support/arbitraries';

function pages(text: string, pageSize: number): string[] {
  const content = new Content(text);
  const table = content.pageTable(pageSize);
  const out: string[] = [];
  for (let i = 0; i + 1 < table.length; i++) out.push(text.slice(table[i], table[i + 1]));
  return out;
}

/** The page rule written as plainly as possible, to check the fast version against. */
function referencePageEnd(text: string, s: number, pageSize: number): number {
  if (text.length - s <= pageSize) return text.length;
  for (let e = s + pageSize; e > s; e--) if (text[e - 1] === '\n') return e;
  const e = s + pageSize;
  const splits = /[\uD800-\uDBFF]/.test(text[e - 1] ?? '') && /[\uDC00-\uDFFF]/.test(text[e] ?? '');
  if (!splits) return e;
  return e - 1 > s ? e - 1 : e + 1;
}

describe('pages', () => {
  it('reading every page in order returns exactly the content, for any text and page size', () => {
    fc.assert(
      fc.property(awkwardText, fc.integer({ min: 1, max: 40 }), (text, pageSize) => {
        assert.equal(pages(text, pageSize).join(''), text);
      }),
      { numRuns: 500 },
    );
  });

  it('every page ends where the page rule says', () => {
    fc.assert(
      fc.property(awkwardText, fc.integer({ min: 1, max: 40 }), (text, pageSize) => {
        const content = new Content(text);
        const table = content.pageTable(pageSize);
        for (let i = 0; i + 1 < table.length; i++) {
          const s = table[i] as number;
          assert.equal(table[i + 1], referencePageEnd(text, s, pageSize), `page ${i + 1} starting at ${s}`);
          assert.equal(pageEnd(content, s, pageSize), table[i + 1]);
        }
      }),
      { numRuns: 500 },
    );
  });

  it('never splits a surrogate pair, even with a page size of 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('😀', 'a', '\n', '𝄞'), { maxLength: 30 }),
        fc.integer({ min: 1, max: 5 }),
        (parts, pageSize) => {
          const text = parts.join('');
          for (const page of pages(text, pageSize)) {
            assert.ok(!/^[\uDC00-\uDFFF]/.test(page) && !/[\uD800-\uDBFF]$/.test(page), JSON.stringify(page));
            assert.ok(page.length > 0 || text === '');
          }
        },
      ),
    );
  });

  it('ends a page after the last newline that fits, else at the page size', () => {
    assert.deepEqual(pages('ab\ncd\nef', 4), ['ab\n', 'cd\n', 'ef']);
    assert.deepEqual(pages('ab\ncd\nef\n', 6), ['ab\ncd\n', 'ef\n']);
    assert.deepEqual(pages('abcdefghij', 4), ['abcd', 'efgh', 'ij']);
    assert.deepEqual(pages('a\r\nb\r\nc', 3), ['a\r\n', 'b\r\n', 'c']);
    assert.deepEqual(pages('x😀', 2), ['x', '😀']);
  });

  it('treats empty content as one empty page with no lines', () => {
    assert.deepEqual(pages('', 10), ['']);
    assert.equal(new Content('').totalLines, 0);
  });

  it('counts lines without letting a trailing newline start one', () => {
    assert.equal(new Content('a').totalLines, 1);
    assert.equal(new Content('a\n').totalLines, 1);
    assert.equal(new Content('a\nb').totalLines, 2);
    assert.equal(new Content('\n\n').totalLines, 2);
    assert.equal(new Content('a\r\nb\r\n').totalLines, 2);
  });

  it('finds the line of any offset', () => {
    const content = new Content('ab\ncd\n\nef');
    assert.deepEqual(
      [0, 1, 2, 3, 5, 6, 7, 8].map((o) => content.lineAt(o)),
      [1, 1, 1, 2, 2, 3, 4, 4],
    );
    assert.equal(content.lineStart(4), 7);
    assert.equal(content.lineStart(5), 9);
  });

  it('knows the line at every page start, the line after the last for the sentinel', () => {
    fc.assert(
      fc.property(awkwardText, fc.integer({ min: 1, max: 40 }), (text, pageSize) => {
        const content = new Content(text);
        const table = content.pageTable(pageSize);
        const lines = content.pageLines(pageSize);
        assert.equal(lines.length, table.length);
        for (let i = 0; i + 1 < table.length; i++) {
          assert.equal(lines[i], content.lineAt(table[i] as number), `page ${i + 1} starting at ${table[i]}`);
        }
        assert.equal(lines[table.length - 1], content.totalLines + 1);
      }),
      { numRuns: 500 },
    );
  });

  it('builds the line index once and shares it', () => {
    const content = new Content('a\nb\n'.repeat(100));
    assert.equal(content.lineStarts, content.lineStarts);
    assert.equal(content.pageTable(7), content.pageTable(7));
    assert.equal(content.pageLines(7), content.pageLines(7));
  });
});
