import assert from 'node:assert/strict';
import fc from 'fast-check';
import { refContent } from '../../../../src/core/refs/content';
import { extractRefs, RefStreamParser } from '../../../../src/core/refs/extract';
import type { RefEvent } from '../../../../src/core/refs/types';

const vocabulary = [
  '<ref id="a">',
  '<ref id="b">',
  '<ref id=\'b\' x="1">',
  '<ref>',
  '<ref id="bad id">',
  '<ref id=c>',
  '<ref id="a"/>',
  '<REF id="a">',
  '<ref ID="b">',
  '</Ref>',
  '<R',
  'Ef',
  '</ref>',
  '</ref >',
  '<ref',
  ' id="a"',
  '>',
  '<',
  '</',
  '```',
  '```js',
  '~~~',
  '~~~~',
  '`',
  '``',
  '\n',
  '\r\n',
  '\n\n',
  ' ',
  '   ',
  '\t',
  'a',
  'xy',
  '😀',
];

const text = fc.array(fc.constantFrom(...vocabulary), { maxLength: 40 }).map((parts) => parts.join(''));

/** A text and sorted cut points inside it. */
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

/** Runs the stream parser over `chunks`, returning its result and all events with adjacent text of one ref merged. */
function stream(chunks: string[]): { result: ReturnType<typeof extractRefs>; events: RefEvent[] } {
  const parser = new RefStreamParser();
  const events: RefEvent[] = [];
  for (const chunk of chunks) events.push(...parser.push(chunk));
  const last = parser.endWithEvents();
  events.push(...last.events);
  const merged: RefEvent[] = [];
  for (const event of events) {
    const prev = merged[merged.length - 1];
    if (event.type === 'text' && prev?.type === 'text' && prev.index === event.index) {
      merged[merged.length - 1] = { ...prev, text: prev.text + event.text };
    } else merged.push(event);
  }
  return { result: last.result, events: merged };
}

describe('RefStreamParser agrees with extractRefs', () => {
  it('gives the same result as extractRefs for any chunking of vocabulary texts', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        assert.deepEqual(stream(cut(t, points)).result, extractRefs(t));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the same result when fed one character at a time', () => {
    fc.assert(
      fc.property(text, (t) => {
        assert.deepEqual(stream([...t.split('')]).result, extractRefs(t));
      }),
      { numRuns: 1500 },
    );
  });

  it('reports the same events (text merged per ref) however the text is chunked', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        assert.deepEqual(stream(cut(t, points)).events, stream([t]).events);
      }),
      { numRuns: 2000 },
    );
  });

  it('reports, as text events, exactly the raw text of each ref between its tags', () => {
    fc.assert(
      fc.property(chunked, ([t, points]) => {
        const { result, events } = stream(cut(t, points));
        // The text of index i plus that of every ref opened inside it, in order, is the ref's raw text without tags.
        const open: number[] = [];
        const inside = new Map<number, string>();
        const ids = new Map<number, string>();
        for (const event of events) {
          if (event.type === 'open') {
            open.push(event.index);
            inside.set(event.index, '');
          } else if (event.type === 'text') {
            assert.equal(event.index, open[open.length - 1]);
            for (const index of open) inside.set(index, (inside.get(index) ?? '') + event.text);
          } else if (event.type === 'close') {
            assert.equal(open.pop(), event.index);
            if (event.ref !== undefined) {
              const { id, start: _start, end: _end, ...content } = event.ref;
              assert.deepEqual(refContent(inside.get(event.index) ?? ''), content);
              ids.set(event.index, id);
            }
          }
        }
        const closed = events.filter((e) => e.type === 'close' && e.ref !== undefined).length;
        assert.equal(closed, result.refs.length);
      }),
      { numRuns: 1000 },
    );
  });
});
