import assert from 'node:assert/strict';
import { descriptorLabel, prettyArguments, summarizeArguments } from '../../src/webview/format';

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
});
