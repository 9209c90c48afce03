import assert from 'node:assert/strict';
import fc from 'fast-check';
import { MAX_REF_CONTENT_FACTOR } from '../../../../src/core/refs/assembler';
import { extractRefs, RefStreamParser } from '../../../../src/core/refs/extract';
import type { ExtractResult, RefEvent } from '../../../../src/core/refs/types';
import { Session } from '../../../../src/core/session/session';

/** `n` refs nested in one another, each holding one `x` besides the refs inside it (issue 10, hostile input 3). */
const nested = (n: number): string => '<ref id="a">x'.repeat(n) + '</ref>'.repeat(n);

const totalContent = (result: ExtractResult): number => result.refs.reduce((sum, ref) => sum + ref.content.length, 0);

function streamed(text: string, size: number): { result: ExtractResult; events: RefEvent[] } {
  const parser = new RefStreamParser();
  const events: RefEvent[] = [];
  for (let i = 0; i < text.length; i += size) events.push(...parser.push(text.slice(i, i + size)));
  const last = parser.endWithEvents();
  return { result: last.result, events: [...events, ...last.events] };
}

/** What a session holds for ref `id`: the length of all its versions' content. */
function heldBySession(session: Session, id: string): number {
  const versions = session.refs().find((r) => r.descriptor.id === `ref:${id}`)?.versions ?? 0;
  let sum = 0;
  for (let v = 1; v <= versions; v++) sum += session.getDescriptor(`ref:${id}@${v}`)?.content.length ?? 0;
  return sum;
}

const NOT_REGISTERED = /^Ref id "a" is not registered: refs nested this deep repeat too much text/;

describe('nested refs stay linear in the message', () => {
  const n = 3000;
  const text = nested(n);

  it('holds at most MAX_REF_CONTENT_FACTOR times the message in ref content, through extractRefs', () => {
    const result = extractRefs(text);
    // Unbounded, these refs would hold n(n+1)/2 = 4.5 million characters for a 54,000-character message.
    assert.ok(
      totalContent(result) <= MAX_REF_CONTENT_FACTOR * text.length,
      `${totalContent(result)} > ${MAX_REF_CONTENT_FACTOR} x ${text.length}`,
    );
    // The innermost refs fit (they close first); each ref left out is reported at its closing tag.
    // (A few outer ones fit again later, as the message up to their closing tags grows faster than they do.)
    assert.ok(result.refs.length > 100);
    assert.deepEqual(
      result.refs.slice(-3).map((r) => r.content),
      ['xxx', 'xx', 'x'],
    );
    assert.equal(result.diagnostics.length, n - result.refs.length);
    assert.ok(result.diagnostics.every((d) => NOT_REGISTERED.test(d.message) && text.startsWith('</ref>', d.offset)));
  });

  it('holds as little through the stream parser, which agrees with extractRefs and reports each ref left out', () => {
    const { result, events } = streamed(text, 64);
    assert.deepEqual(result, extractRefs(text));
    assert.ok(totalContent(result) <= MAX_REF_CONTENT_FACTOR * text.length);
    const closes = events.filter((e) => e.type === 'close');
    assert.equal(closes.length, n);
    assert.equal(closes.filter((e) => e.ref !== undefined).length, result.refs.length);
    assert.equal(events.filter((e) => e.type === 'diagnostic').length, n - result.refs.length);
  });

  it('holds as little in a session, ingested at once or registered as a chat streams it', () => {
    const session = new Session();
    session.ingestAssistantMessage(text);
    assert.ok(heldBySession(session, 'a') <= MAX_REF_CONTENT_FACTOR * text.length);

    const chat = new Session();
    for (const event of streamed(text, 64).events) if (event.type === 'close' && event.ref) chat.registerRef(event.ref);
    assert.ok(heldBySession(chat, 'a') <= MAX_REF_CONTENT_FACTOR * text.length);
    assert.equal(heldBySession(chat, 'a'), heldBySession(session, 'a'));
  });

  it(`always registers refs nested up to ${MAX_REF_CONTENT_FACTOR} deep, however long their text`, () => {
    const long = 'y'.repeat(10_000);
    const four = `<ref id="a"><ref id="b"><ref id="c"><ref id="d">${long}</ref></ref></ref></ref>`;
    assert.deepEqual(
      extractRefs(four).refs.map((r) => [r.id, r.content.length]),
      [
        ['a', 10_000],
        ['b', 10_000],
        ['c', 10_000],
        ['d', 10_000],
      ],
    );
    assert.deepEqual(extractRefs(four).diagnostics, []);
    const five = `<ref id="e">${four}</ref>`;
    const r = extractRefs(five);
    assert.deepEqual(
      r.refs.map((x) => x.id),
      ['a', 'b', 'c', 'd'],
    );
    assert.deepEqual(
      r.diagnostics.map((d) => d.offset),
      [five.length - 6],
    );
    assert.match(r.diagnostics[0]?.message ?? '', /^Ref id "e" is not registered/);
  });

  it('cuts nested refs from one text and still gives each exactly its own content', () => {
    const r = extractRefs(
      '<ref id="o">\nA<ref id="m">B<ref id="i">\n```py\nC\n```\n</ref>D</ref>E\n</ref><ref id="s">F</ref>',
    );
    assert.deepEqual(
      r.refs.map((x) => [x.id, x.content, x.language]),
      [
        ['o', 'AB\n```py\nC\n```\nDE', undefined],
        ['m', 'B\n```py\nC\n```\nD', undefined],
        ['i', 'C', 'py'],
        ['s', 'F', undefined],
      ],
    );
  });

  const token = fc.oneof(
    { arbitrary: fc.constantFrom('<ref id="a">', '<ref id="b">', '<ref>'), weight: 4 },
    { arbitrary: fc.constant('</ref>'), weight: 3 },
    { arbitrary: fc.constantFrom('x', '\n', '```\n', 'y'.repeat(40), 'z'.repeat(200)), weight: 4 },
  );
  const deep = fc.array(token, { maxLength: 80 }).map((parts) => parts.join(''));

  it('keeps the bound, and the stream agrees, for any nesting and any chunking', () => {
    fc.assert(
      fc.property(deep, fc.integer({ min: 1, max: 50 }), (t, size) => {
        const whole = extractRefs(t);
        assert.ok(totalContent(whole) <= MAX_REF_CONTENT_FACTOR * t.length);
        const { result, events } = streamed(t, size);
        assert.deepEqual(result, whole);
        // Every valid ref that closed is either registered or reported as left out.
        const valid = new Set(events.flatMap((e) => (e.type === 'open' && e.id !== undefined ? [e.index] : [])));
        const closedValid = events.filter(
          (e) => e.type === 'close' && valid.has(e.index) && e.offset < t.length,
        ).length;
        const leftOut = whole.diagnostics.filter((d) =>
          / is not registered: refs nested this deep/.test(d.message),
        ).length;
        assert.equal(whole.refs.length + leftOut, closedValid);
      }),
      { numRuns: 1500 },
    );
  });
});
