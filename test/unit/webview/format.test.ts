import assert from 'node:assert/strict';
import {
  countLines,
  descriptorLabel,
  prettyArguments,
  previewLines,
  summarizeArguments,
} from '../../../src/webview/format';

describe('webview: formatting', () => {
  it('labels a descriptor chip with its size', () => {
    assert.equal(descriptorLabel({ id: 'fd:3', chars: 12345, lines: 300 }), 'fd:3 · 12,345 chars · 300 lines');
    assert.equal(descriptorLabel({ id: 'fd:1', chars: 1, lines: 1 }), 'fd:1 · 1 chars · 1 line');
  });

  it('summarizes JSON arguments on one line and keeps other text as it is', () => {
    assert.equal(summarizeArguments('{"fd":"fd:1",\n"start":2}'), 'fd: "fd:1", start: 2');
    assert.equal(summarizeArguments('not json\nat all'), 'not json at all');
    assert.ok(summarizeArguments(`{"a":"${'x'.repeat(500)}"}`).length <= 120);
  });

  it('pretty-prints arguments that parse', () => {
    assert.equal(prettyArguments('{"a":1}'), '{\n  "a": 1\n}');
    assert.equal(prettyArguments('{broken'), '{broken');
  });

  it('previews the first lines whole, a long line cut with the count of what is left out', () => {
    const text = `one\r\n${'x'.repeat(10)}\n\nfour\nfive\n`;
    assert.deepEqual(previewLines(text, 3, 6), {
      rows: [
        { text: 'one', omitted: 0 },
        { text: 'xxxxxx', omitted: 4 },
        { text: '', omitted: 0 },
      ],
      rest: true,
    });
    assert.deepEqual(previewLines(text, 10, 100).rows.length, 5);
    assert.equal(previewLines(text, 10, 100).rest, false);
    assert.deepEqual(previewLines('a😀b', 1, 2).rows, [{ text: 'a', omitted: 3 }], 'a surrogate pair is not split');
    assert.deepEqual(previewLines('', 5, 10), { rows: [], rest: false });
  });

  it('counts lines, a final line end starting none', () => {
    assert.equal(countLines(''), 0);
    assert.equal(countLines('a'), 1);
    assert.equal(countLines('a\n'), 1);
    assert.equal(countLines('a\nb'), 2);
  });
});
