import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Session, extractRefs } from '../../../../src/core';
import { byteSize, utf8Length } from '../../../../src/core/quantities';
import {
  captureSummary,
  descriptorDescription,
  fenceFor,
  firstLines,
  previewLine,
  refDescription,
} from '../../../../src/core/presentation/describe';
import { idsAtOffset } from '../../../../src/core/refs/idAtPosition';
import { memoryText } from '../../../support/descriptorText';

describe('presentation', () => {
  it('describes a ref by language, lines and version', () => {
    const session = new Session();
    session.ingestAssistantMessage('<ref id="a">\n```python\nx = 1\ny = 2\n```\n</ref>');
    session.ingestAssistantMessage('<ref id="a">one line</ref>');
    const [entry] = session.refs();
    assert.equal(refDescription(entry!.descriptor, entry!.versions), 'text · 1 line · v2');
    assert.equal(refDescription(session.getDescriptor('ref:a@1')!, 1), 'python · 2 lines · v1');
  });

  it('describes a descriptor by source and size', () => {
    const session = new Session({ maxDirectOutputChars: 3 });
    session.wrapToolOutput('read_file', 'héllo');
    const descriptor = session.descriptors()[0]!;
    assert.equal(
      descriptorDescription(descriptor, utf8Length(memoryText(descriptor) ?? '')),
      'tool_output (read_file) · 6 B',
    );
    assert.equal(byteSize(2048), '2.0 KB');
  });

  it('counts UTF-8 bytes exactly as an encoder does', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) =>
        assert.equal(utf8Length(text), new TextEncoder().encode(text).length),
      ),
    );
  });

  it('previews the first non-blank line and the first lines', () => {
    assert.equal(previewLine('\n\n  def f():\n  pass'), 'def f():');
    assert.equal(previewLine('x'.repeat(100), 10), `${'x'.repeat(9)}…`);
    assert.deepEqual(firstLines('a\nb\nc', 2), { text: 'a\nb', more: true });
    assert.deepEqual(firstLines('a\nb', 2), { text: 'a\nb', more: false });
  });

  it('picks a fence the text cannot close', () => {
    assert.equal(fenceFor('plain'), '```');
    assert.equal(fenceFor('has ```` four'), '`````');
  });

  it('summarises a capture with counts, ids and problems', () => {
    const ok = captureSummary(extractRefs('<ref id="a">x</ref><ref id="b">y</ref>'), 'S');
    assert.equal(ok.message, 'Captured 2 refs (ref:a, ref:b) into "S".');
    assert.deepEqual(ok.problems, []);
    const bad = captureSummary(extractRefs('<ref id="bad id">x</ref> <ref id="open">y'), 'S');
    assert.match(bad.message, /^No refs found; 2 problems: Invalid ref id "bad id".*; Unclosed <ref id="open">/);
    assert.equal(bad.problems.length, 2);
  });

  it('finds the id under the cursor, also at a sentence end', () => {
    const line = 'see ref:parse_config@2, fd:12 and ref:x.';
    assert.deepEqual(idsAtOffset(line, 6), [{ id: 'ref:parse_config@2', start: 4, end: 22 }]);
    assert.deepEqual(idsAtOffset(line, 26), [{ id: 'fd:12', start: 24, end: 29 }]);
    assert.deepEqual(idsAtOffset(line, 36), [
      { id: 'ref:x.', start: 34, end: 40 },
      { id: 'ref:x', start: 34, end: 39 },
    ]);
    assert.deepEqual(idsAtOffset(line, 0), []);
    assert.deepEqual(idsAtOffset('xref:a', 2), []);
  });
});
