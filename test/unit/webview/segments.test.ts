import assert from 'node:assert/strict';
import type { RefView } from '../../../src/core/chat/protocol';
import { extractRefs } from '../../../src/core/refs/extract';
import { deriveSegments, versionedRefId } from '../../../src/webview/segments';

/** RefViews as the extension makes them from the parser's result (nested when inside another ref). */
function views(text: string): RefView[] {
  const { refs } = extractRefs(text);
  return refs.map((r) => ({
    id: r.id,
    version: 1,
    start: r.start,
    end: r.end,
    lines: r.content.split('\n').length,
    chars: r.content.length,
    nested: refs.some((o) => o !== r && o.start < r.start && o.end >= r.end),
  }));
}

describe('webview: segments of a round', () => {
  it('makes Markdown around each top-level ref and a frame with the text between its tags', () => {
    const text = 'Intro\n\n<ref id="a">\n```py\nx = 1\n```\n</ref>\n\nOutro';
    const segments = deriveSegments(text, views(text));
    assert.deepEqual(
      segments.map((s) => [s.kind, text.slice(s.start, s.end)]),
      [
        ['markdown', 'Intro\n\n'],
        ['ref', '<ref id="a">\n```py\nx = 1\n```\n</ref>'],
        ['markdown', '\n\nOutro'],
      ],
    );
    const frame = segments[1];
    assert.ok(frame?.kind === 'ref');
    assert.equal(frame.body, '\n```py\nx = 1\n```\n');
  });

  it('cuts the tags of nested refs out of the body and lists the nested refs', () => {
    const text = '<ref id="outer">\nsee\n<ref id="inner">code</ref >\nend\n</ref>';
    const [frame, ...rest] = deriveSegments(text, views(text));
    assert.equal(rest.length, 0);
    assert.ok(frame?.kind === 'ref');
    assert.equal(frame.body, '\nsee\ncode\nend\n');
    assert.deepEqual(
      frame.nested.map((n) => n.id),
      ['inner'],
    );
    assert.deepEqual(frame.cuts, [text.indexOf('<ref id="inner">'), text.indexOf('</ref >')]);
  });

  it('leaves out Markdown that is only whitespace, and ignores refs outside the text', () => {
    const text = '<ref id="a">x</ref>\n\n<ref id="b">y</ref>\n';
    const refs = [...views(text), { id: 'far', version: 1, start: 500, end: 520, lines: 1, chars: 1, nested: false }];
    assert.deepEqual(
      deriveSegments(text, refs).map((s) => s.kind),
      ['ref', 'ref'],
    );
  });

  it('names versions as the extension expects', () => {
    assert.equal(versionedRefId({ id: 'x', version: 3 }), 'ref:x@3');
  });
});
