import assert from 'node:assert/strict';
import fc from 'fast-check';
import { extractRefs, RefStreamParser } from '../../../src/core/refs/extract';
import { AnswerLayout, type AnswerPart } from '../../../src/participant/answerLayout';

const vocabulary = [
  '<ref id="a">',
  '<ref id="b">',
  '<ref>',
  '<ref id="bad id">',
  '<REF id="a">',
  '</ref>',
  '</ref >',
  '<ref',
  ' id="a"',
  '>',
  '<',
  '```',
  '```js',
  '~~~',
  '`',
  '``',
  '\n',
  '\n\n',
  ' ',
  'a',
  'xy',
  '😀',
];

const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 40 }).map((parts) => parts.join(''));

const chunked = text.chain((t) =>
  fc.tuple(fc.constant(t), fc.uniqueArray(fc.integer({ min: 1, max: Math.max(1, t.length - 1) }), { maxLength: 12 })),
);

function cut(t: string, points: number[]): string[] {
  const sorted = [...points].filter((p) => p < t.length).sort((a, b) => a - b);
  const chunks: string[] = [];
  let from = 0;
  for (const p of sorted) {
    chunks.push(t.slice(from, p));
    from = p;
  }
  chunks.push(t.slice(from));
  return chunks;
}

function layout(chunks: readonly string[]): AnswerPart[] {
  const answer = new AnswerLayout();
  const parts: AnswerPart[] = [];
  for (const chunk of chunks) parts.push(...answer.push(chunk));
  parts.push(...answer.end().parts);
  return parts;
}

/** The answer as the parts show it, with each block replaced by `[ids]` or its text. */
function shown(parts: readonly AnswerPart[]): string {
  return parts
    .map((p) => {
      return p.text;
    })
    .join('');
}

describe('RefStreamParser.decided', () => {
  it('never reports a tag before the offset it had decided, and decides everything at the end', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        const parser = new RefStreamParser();
        let decided = 0;
        let received = 0;
        for (const chunk of cut(t, points)) {
          for (const event of parser.push(chunk)) {
            if (event.type === 'open' || event.type === 'close')
              assert.ok(event.offset >= decided, JSON.stringify(event));
          }
          received += chunk.length;
          assert.ok(parser.decided >= decided, 'decided never goes back');
          assert.ok(parser.decided <= received);
          decided = parser.decided;
        }
        for (const event of parser.endWithEvents().events) {
          if (event.type === 'open' || event.type === 'close') assert.ok(event.offset >= decided);
        }
        assert.equal(parser.decided, t.length);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('AnswerLayout (the @fdref participant in the Chat view)', () => {
  it('shows every character of the answer once, in order, however it is chunked', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        assert.equal(shown(layout(cut(t, points))), t);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the blocks the refs extractRefs finds, each once, outer first', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        const parts = layout(cut(t, points));
        const refs = parts.flatMap((p) => (p.kind === 'block' ? p.refs : []));
        assert.deepEqual(refs, extractRefs(t).refs);
        for (const p of parts) {
          if (p.kind !== 'block') continue;
          if (p.outer) assert.equal(p.outer, p.refs[0]);
          assert.ok(p.text.startsWith('<ref'), p.text);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('shows a ref split across chunks as one block when it closes, and the text around it as it is decided', () => {
    const answer = new AnswerLayout();
    assert.deepEqual(answer.push('Here it is:\n<re'), [{ kind: 'markdown', text: 'Here it is:\n' }]);
    assert.deepEqual(answer.push('f id="greet">\n```py'), []);
    assert.deepEqual(answer.push('thon\nprint(1)\n``'), []);
    const closing = answer.push('`\n</ref>\nDone.');
    assert.equal(closing.length, 2);
    const [block, after] = closing;
    assert.equal(block?.kind, 'block');
    if (block?.kind !== 'block') return;
    assert.deepEqual(
      { id: block.outer?.id, content: block.outer?.content, language: block.outer?.language },
      { id: 'greet', content: 'print(1)', language: 'python' },
    );
    assert.equal(block.text, '<ref id="greet">\n```python\nprint(1)\n```\n</ref>');
    assert.deepEqual(after, { kind: 'markdown', text: '\nDone.' });
    assert.deepEqual(answer.end().parts, []);
  });

  it('holds back text that may still open a ref, and shows a tag inside inline code as text', () => {
    const answer = new AnswerLayout();
    assert.deepEqual(answer.push('Use `<ref id="x">'), [{ kind: 'markdown', text: 'Use ' }]);
    assert.deepEqual(answer.push('` to mark it.'), [{ kind: 'markdown', text: '`<ref id="x">` to mark it.' }]);
    const { parts, result } = answer.end();
    assert.deepEqual(parts, []);
    assert.deepEqual(result.refs, []);
  });

  it('shows an invalid or unclosed block as the model wrote it, with the valid refs inside it', () => {
    const parts = layout(['<ref id="bad id">x <ref id="in">y</ref> z</ref> and <ref id="open">never closed']);
    const blocks = parts.filter((p) => p.kind === 'block');
    assert.equal(blocks.length, 2);
    assert.equal(blocks[0]?.outer, undefined);
    assert.deepEqual(
      blocks[0]?.refs.map((r) => r.id),
      ['in'],
    );
    assert.equal(blocks[0]?.text, '<ref id="bad id">x <ref id="in">y</ref> z</ref>');
    assert.equal(blocks[1]?.outer, undefined);
    assert.equal(blocks[1]?.text, '<ref id="open">never closed');
  });
});
