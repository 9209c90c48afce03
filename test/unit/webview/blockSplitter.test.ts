import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MarkdownBlockSplitter } from '../../../src/webview/blockSplitter';

/** Pushes `chunks` and returns the blocks and the tail. */
function split(chunks: string[]): { blocks: string[]; tail: string } {
  const splitter = new MarkdownBlockSplitter();
  const blocks: string[] = [];
  for (const chunk of chunks) splitter.push(chunk, (b) => blocks.push(b));
  return { blocks, tail: splitter.tail };
}

const pieces = [
  'para',
  ' text',
  '\n',
  '\n\n',
  '  indented',
  '- item',
  '```js',
  '```',
  '~~~',
  '    code',
  '> quote',
  '\r\n',
  'x',
  '`',
  ' ',
];

describe('webview: Markdown block splitter', () => {
  it('cuts before an unindented line that follows a blank line, once that line is complete', () => {
    assert.deepEqual(split(['one\ntwo\n\nthree\n\nfour']), { blocks: ['one\ntwo\n\n'], tail: 'three\n\nfour' });
    assert.deepEqual(split(['one\ntwo\n\nthree\n\nfour\n']), { blocks: ['one\ntwo\n\n', 'three\n\n'], tail: 'four\n' });
  });

  it('never cuts inside a fenced code block', () => {
    const text = 'intro\n\n```py\na = 1\n\nb = 2\n```\n\nafter\n';
    assert.deepEqual(split([text]).blocks, ['intro\n\n', '```py\na = 1\n\nb = 2\n```\n\n']);
  });

  it('keeps indented continuations (list items with more paragraphs) in their block', () => {
    assert.deepEqual(split(['- a\n\n  more of a\n\n- b\n']).blocks, ['- a\n\n  more of a\n\n']);
  });

  it('a fence needs a closing run of the same character at least as long', () => {
    const { blocks, tail } = split(['````\nx\n```\n\ny\n````\n\nz\n']);
    assert.deepEqual(blocks, ['````\nx\n```\n\ny\n````\n\n']);
    assert.equal(tail, 'z\n');
  });

  it('reports the fence open in the tail, with its language', () => {
    const splitter = new MarkdownBlockSplitter();
    splitter.push('text\n\n```ts title\nconst a', () => {});
    assert.deepEqual(splitter.openFence, { start: 0, contentStart: 12, language: 'ts' });
    splitter.push(' = 1;\n```\n', () => {});
    assert.equal(splitter.openFence, undefined);
  });

  it('gives the same blocks however the text is cut, and loses no character', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...pieces), { maxLength: 60 }),
        fc.array(fc.nat(), { maxLength: 10 }),
        (parts, cuts) => {
          const text = parts.join('');
          const points = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
          const chunks: string[] = [];
          let at = 0;
          for (const p of points) {
            chunks.push(text.slice(at, p));
            at = p;
          }
          chunks.push(text.slice(at));
          const whole = split([text]);
          const streamed = split(chunks);
          assert.deepEqual(streamed, whole);
          assert.equal(whole.blocks.join('') + whole.tail, text);
        },
      ),
    );
  });

  it('splits a long text in time linear in its length', () => {
    const paragraph = 'word '.repeat(40) + '\n\n';
    const text = paragraph.repeat(20_000); // 4 MB
    const start = performance.now();
    const splitter = new MarkdownBlockSplitter();
    let count = 0;
    for (let i = 0; i < text.length; i += 50) splitter.push(text.slice(i, i + 50), () => count++);
    const ms = performance.now() - start;
    assert.equal(count, 19_999);
    assert.ok(ms < 2_000, `took ${ms} ms`);
  });
});
