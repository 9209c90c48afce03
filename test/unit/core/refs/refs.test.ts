import assert from 'node:assert/strict';
import { extractRefs, RefStreamParser } from '../../../../src/core/refs/extract';
import type { ExtractResult } from '../../../../src/core/refs/types';

const ids = (text: string): string[] => extractRefs(text).refs.map((r) => r.id);
const contents = (text: string): string[] => extractRefs(text).refs.map((r) => r.content);
const messages = (text: string): string[] => extractRefs(text).diagnostics.map((d) => d.message);

describe('extractRefs', () => {
  describe('tag syntax', () => {
    it('registers a ref with its content, start at < and end after the closing >', () => {
      assert.deepEqual(extractRefs('x <ref id="a">hello</ref> y'), {
        refs: [{ id: 'a', content: 'hello', start: 2, end: 25 }],
        diagnostics: [],
      });
    });
    it('accepts single-quoted ids and ignores other attributes', () => {
      assert.deepEqual(ids(`<ref title="t" id='b' x="1">v</ref>`), ['b']);
    });
    it('accepts an opening tag spanning lines and whitespace before the closing >', () => {
      assert.deepEqual(contents('<ref\n  id="a"\n>v</ref >'), ['v']);
    });
    it('treats <refs>, <REF> and a tag with no > within 1000 characters as literal text', () => {
      assert.deepEqual(extractRefs('<refs id="a">x</refs>y'), { refs: [], diagnostics: [] });
      assert.deepEqual(
        extractRefs('<ref id="o"><REF id="a">y</Ref></ref>').refs.map((r) => r.content),
        ['<REF id="a">y</Ref>'],
      );
      const long = `<ref id="a"${' '.repeat(1000)}>x</ref>`;
      assert.deepEqual(ids(long), []);
      assert.deepEqual(ids(`<ref id="a"${' '.repeat(980)}>x</ref>`), ['a']);
    });
    it('reports a ref tag in another case (<REF ID="x">, </Ref>, <rEf/>) at its offset, naming it', () => {
      const r = extractRefs('a <REF ID="x">b</REF> <Ref id="y">c</ref> <rEf/>');
      assert.deepEqual(r.refs, []);
      assert.deepEqual(
        r.diagnostics.map((d) => d.offset),
        [2, 15, 22, 35, 42],
      );
      assert.match(
        r.diagnostics[0]?.message ?? '',
        /^<REF ID="x"> is not a ref tag and is ignored: ref tags are lower case/,
      );
      assert.match(r.diagnostics[1]?.message ?? '', /^<\/REF> is not a ref tag .* write <\/ref>$/);
      assert.match(r.diagnostics[3]?.message ?? '', /Stray <\/ref>/);
      assert.match(r.diagnostics[4]?.message ?? '', /^<rEf\/> is not a ref tag/);
    });
    it('says nothing about a ref tag in another case inside code, as for any tag there', () => {
      assert.deepEqual(extractRefs('`<REF id="x">` and\n```\n</REF>\n```\n'), { refs: [], diagnostics: [] });
    });
    it('reports an id attribute in another case (ID="x") as such, not as a missing id', () => {
      const r = extractRefs('<ref ID="x">b</ref>');
      assert.deepEqual(r.refs, []);
      assert.deepEqual(
        r.diagnostics.map((d) => d.offset),
        [0],
      );
      assert.match(r.diagnostics[0]?.message ?? '', /Ref attribute ID="x" is not an id .* write id="x"/);
      assert.deepEqual(ids('<ref ID="x" id="y">b</ref>'), ['y']);
    });
    it('reports a self-closing tag as a diagnostic, not a ref', () => {
      const r = extractRefs('a <ref id="x"/> b');
      assert.deepEqual(r.refs, []);
      assert.equal(r.diagnostics.length, 1);
      assert.equal(r.diagnostics[0]?.offset, 2);
      assert.match(r.diagnostics[0]?.message ?? '', /Self-closing/);
    });
  });

  describe('ids', () => {
    it('rejects an invalid id, naming it and the rule, and still pairs its closing tag', () => {
      const r = extractRefs('<ref id="bad id">x</ref><ref id="ok">y</ref>');
      assert.deepEqual(
        r.refs.map((x) => x.id),
        ['ok'],
      );
      assert.equal(r.diagnostics.length, 1);
      assert.match(r.diagnostics[0]?.message ?? '', /"bad id"/);
      assert.match(r.diagnostics[0]?.message ?? '', /A-Za-z0-9/);
    });
    it('rejects missing, unquoted, empty, too long and badly started ids', () => {
      for (const tag of [
        '<ref>',
        '<ref x="a">',
        '<ref id=a>',
        '<ref id="">',
        `<ref id="${'a'.repeat(129)}">`,
        '<ref id="_a">',
        '<ref id="a b">',
      ]) {
        const r = extractRefs(`${tag}x</ref>`);
        assert.deepEqual(r.refs, [], tag);
        assert.equal(r.diagnostics.length, 1, tag);
        assert.equal(r.diagnostics[0]?.offset, 0, tag);
      }
      assert.match(messages('<ref id=a>x</ref>')[0] ?? '', /Unquoted ref id a/);
      assert.match(messages('<ref>x</ref>')[0] ?? '', /without an id/);
    });
    it('accepts ids of 128 characters with letters, digits, _, . and -', () => {
      const id = `A9_.-${'z'.repeat(123)}`;
      assert.deepEqual(ids(`<ref id="${id}">x</ref>`), [id]);
    });
    it('returns duplicate ids in order', () => {
      assert.deepEqual(
        extractRefs('<ref id="a">1</ref><ref id="a">2</ref>').refs.map((r) => r.content),
        ['1', '2'],
      );
    });
  });

  describe('nesting and pairing', () => {
    it('registers inner and outer refs in opening order, the outer content without the inner tags', () => {
      const r = extractRefs('<ref id="o">A<ref id="i">B</ref>C</ref>');
      assert.deepEqual(r.refs, [
        { id: 'o', content: 'ABC', start: 0, end: 39 },
        { id: 'i', content: 'B', start: 13, end: 32 },
      ]);
    });
    it('removes invalid nested tags from the content too', () => {
      assert.deepEqual(contents('<ref id="o">A<ref>B</ref>C</ref>'), ['ABC']);
    });
    it('handles adjacent refs', () => {
      assert.deepEqual(contents('<ref id="a">1</ref><ref id="b">2</ref>'), ['1', '2']);
    });
    it('reports an unclosed ref at its opening tag and keeps the refs inside it', () => {
      const r = extractRefs('<ref id="o">x <ref id="i">y</ref>');
      assert.deepEqual(
        r.refs.map((x) => x.id),
        ['i'],
      );
      assert.deepEqual(
        r.diagnostics.map((d) => d.offset),
        [0],
      );
      assert.match(r.diagnostics[0]?.message ?? '', /Unclosed/);
    });
    it('reports a stray closing tag and leaves the text around it alone', () => {
      const r = extractRefs('a</ref><ref id="a">b</ref>');
      assert.deepEqual(
        r.refs.map((x) => x.content),
        ['b'],
      );
      assert.deepEqual(
        r.diagnostics.map((d) => d.offset),
        [1],
      );
      assert.match(r.diagnostics[0]?.message ?? '', /Stray/);
    });
    it('puts diagnostics in offset order, unclosed ones included', () => {
      const r = extractRefs('<ref id="o"><ref id="x y">1</ref></ref></ref><ref/>');
      assert.deepEqual(
        r.diagnostics.map((d) => d.offset),
        [12, 39, 45],
      );
      const u = extractRefs('<ref id="a"></ref></ref><ref id="b">');
      assert.deepEqual(
        u.diagnostics.map((d) => d.offset),
        [18, 24],
      );
      const both = extractRefs('<ref>x');
      assert.deepEqual(
        both.diagnostics.map((d) => d.offset),
        [0, 0],
      );
    });
  });

  describe('code', () => {
    it('ignores tags inside fenced code blocks, backtick or tilde', () => {
      assert.deepEqual(
        ids('```\n<ref id="a">x</ref>\n```\n~~~~\n<ref id="b">x</ref>\n~~~\n~~~~\n<ref id="c">z</ref>'),
        ['c'],
      );
    });
    it('lets a fence have up to 3 spaces of indentation, not 4', () => {
      assert.deepEqual(ids('   ```\n<ref id="a">x</ref>\n   ```'), []);
      assert.deepEqual(ids('    ```\n<ref id="a">x</ref>'), ['a']);
    });
    it('does not open a backtick fence whose info string has a backtick', () => {
      assert.deepEqual(ids('``` a`\n<ref id="a">x</ref>'), ['a']);
    });
    it('runs an unclosed fence to the end of the text', () => {
      assert.deepEqual(ids('```\n<ref id="a">x</ref>'), []);
    });
    it('needs a closing fence at least as long, of the same character, with only spaces after', () => {
      assert.deepEqual(ids('````\n```\n~~~~\n```` x\n<ref id="a">x</ref>'), []);
      assert.deepEqual(ids('````\n`````  \t\r\n<ref id="a">x</ref>'), ['a']);
    });
    it('ignores tags inside inline code spans', () => {
      assert.deepEqual(ids('use `<ref id="a">` and ``<ref id="b">x</ref>`` then <ref id="c">y</ref>'), ['c']);
    });
    it('treats an unmatched backtick run as literal text', () => {
      assert.deepEqual(ids('a ` b <ref id="a">x</ref>'), ['a']);
      assert.deepEqual(ids('a `` b <ref id="a">x</ref> `'), ['a']);
    });
    it('lets a code span cross lines but not a blank line or a fence opening', () => {
      assert.deepEqual(ids('a `x\n<ref id="a">y</ref>\nz` b'), []);
      assert.deepEqual(ids('a `x\n \t\r\n<ref id="a">y</ref>\nz` b'), ['a']);
      assert.deepEqual(ids('a `x\n~~~\n~~~\n<ref id="a">y</ref>\nz` b'), ['a']);
    });
    it('lets a ref contain fences, closing only outside them', () => {
      const r = extractRefs('<ref id="a">\ntext\n```\n</ref>\n```\nmore\n</ref>');
      assert.deepEqual(r.refs, [{ id: 'a', content: 'text\n```\n</ref>\n```\nmore', start: 0, end: 44 }]);
    });
  });

  describe('leniency for tags at line starts', () => {
    it('opens a fence right after an opening tag at a line start', () => {
      const r = extractRefs('<ref id="a">```js\nconst x = "</ref>";\n```\n</ref>');
      assert.deepEqual(
        r.refs.map((x) => [x.content, x.language]),
        [['const x = "</ref>";', 'js']],
      );
    });
    it('closes a fence, then the ref, on a line like ```</ref>', () => {
      const r = extractRefs('<ref id="a">\n```py\nprint(1)\n```</ref>\n<ref id="b">x</ref>');
      assert.deepEqual(
        r.refs.map((x) => [x.id, x.content, x.language]),
        [
          ['a', 'print(1)', 'py'],
          ['b', 'x', undefined],
        ],
      );
      assert.deepEqual(r.diagnostics, []);
    });
    it('does not treat an opening tag after text as a line start', () => {
      assert.deepEqual(contents('x <ref id="a">```js\ny</ref>'), ['```js\ny']);
    });
  });

  describe('content', () => {
    it('drops one newline after the opening tag and one before the closing tag', () => {
      assert.deepEqual(contents('<ref id="a">\n\nx\n\n</ref><ref id="b">\r\ny\r\n</ref>'), ['\nx\n', 'y']);
    });
    it('unwraps a lone fenced block, giving its code and language', () => {
      const r = extractRefs('<ref id="a">\n  ```ts extra\nline 1\nline 2\n```\n\n</ref>');
      assert.deepEqual(r.refs[0], { id: 'a', content: 'line 1\nline 2', language: 'ts', start: 0, end: 52 });
    });
    it('leaves language absent (not undefined) when the info string is empty', () => {
      const ref = extractRefs('<ref id="a">\n~~~\ncode\n~~~\n</ref>').refs[0];
      assert.equal(ref?.content, 'code');
      assert.ok(ref !== undefined && !('language' in ref));
    });
    it('unwraps CRLF fences without their line endings', () => {
      assert.deepEqual(contents('<ref id="a">\r\n```\r\na\r\nb\r\n```\r\n</ref>'), ['a\r\nb']);
    });
    it('does not unwrap when there is text besides the fence or two fences', () => {
      assert.deepEqual(contents('<ref id="a">see\n```\nx\n```\n</ref>'), ['see\n```\nx\n```']);
      assert.deepEqual(contents('<ref id="a">```\nx\n```\n```\ny\n```</ref>'), ['```\nx\n```\n```\ny\n```']);
    });
  });

  describe('pathological inputs complete with correct results', () => {
    it('handles 100k unclosed opening tags', () => {
      const r = extractRefs('<ref id="a">'.repeat(100_000));
      assert.equal(r.refs.length, 0);
      assert.equal(r.diagnostics.length, 100_000);
    });
    it('handles 100k lone backticks', () => {
      assert.deepEqual(ids(`${'a` '.repeat(99_999)}<ref id="a">x</ref>\``), []);
      assert.deepEqual(ids(`${'a` '.repeat(99_999)}<ref id="a">x</ref>`), ['a']);
      assert.deepEqual(ids(`${'a ``` '.repeat(30_000)}\n\n<ref id="a">x</ref>`), ['a']);
    });
    it('handles 100k ``` lines', () => {
      assert.deepEqual(ids(`${'```\n'.repeat(100_000)}<ref id="a">x</ref>`), ['a']);
      assert.deepEqual(ids(`${'```\n'.repeat(100_001)}<ref id="a">x</ref>`), []);
    });
    it('handles 100k <ref starts without any >', () => {
      assert.deepEqual(extractRefs('<ref '.repeat(100_000)), { refs: [], diagnostics: [] });
    });
    it('gives the same results streamed in 64-character chunks', () => {
      for (const t of [
        '<ref id="a">'.repeat(20_000),
        'a` '.repeat(30_000),
        '```\n'.repeat(30_000),
        '<ref '.repeat(30_000),
      ]) {
        const p = new RefStreamParser();
        for (let i = 0; i < t.length; i += 64) p.push(t.slice(i, i + 64));
        assert.deepEqual(p.end(), extractRefs(t));
      }
    });
  });
});

describe('ref diagnostics for hostile tags', () => {
  it('quote a short prefix of an id, attribute or tag as long as a tag may be', () => {
    const huge = 'x!'.repeat(450); // a tag holds at most MAX_TAG_LENGTH (1,000) characters
    const text = [
      `<ref id="${huge}">a</ref>`,
      `<ref id=${huge}>b</ref>`,
      `<ref ID="${huge}">c</ref>`,
      `<REF id="${huge}">`,
    ].join('\n\n');
    const { diagnostics } = extractRefs(text);
    assert.deepEqual(
      diagnostics.map((d) => d.message.slice(0, 14)),
      ['Invalid ref id', 'Unquoted ref i', 'Ref attribute ', '<REF id="x!x!x'],
    );
    for (const diagnostic of diagnostics)
      assert.ok(
        diagnostic.message.length < 500,
        `${diagnostic.message.length} characters: ${diagnostic.message.slice(0, 60)}`,
      );
  });
});

describe('RefStreamParser', () => {
  const feed = (chunks: string[]): { result: ExtractResult; events: unknown[] } => {
    const p = new RefStreamParser();
    const events = chunks.flatMap((c) => p.push(c));
    return { result: p.end(), events };
  };

  it('reports open, text and close events with offsets in the whole message', () => {
    const { events } = feed(['ab<ref id="x">he', 'llo</ref>']);
    assert.deepEqual(events, [
      { type: 'open', index: 0, id: 'x', offset: 2 },
      { type: 'text', index: 0, text: 'he' },
      { type: 'text', index: 0, text: 'llo' },
      { type: 'close', index: 0, ref: { id: 'x', content: 'hello', start: 2, end: 25 }, offset: 19 },
    ]);
  });

  it('numbers every opening tag, valid or not, and reports invalid ones with an undefined id', () => {
    const { events } = feed(['<ref>a</ref><ref id="b">c</ref>']);
    assert.deepEqual(
      events.filter((e) => (e as { type: string }).type !== 'diagnostic'),
      [
        { type: 'open', index: 0, id: undefined, offset: 0 },
        { type: 'text', index: 0, text: 'a' },
        { type: 'close', index: 0, ref: undefined, offset: 6 },
        { type: 'open', index: 1, id: 'b', offset: 12 },
        { type: 'text', index: 1, text: 'c' },
        { type: 'close', index: 1, ref: { id: 'b', content: 'c', start: 12, end: 31 }, offset: 25 },
      ],
    );
  });

  it('holds back a tag after an unmatched backtick until the span is resolved', () => {
    const p = new RefStreamParser();
    assert.deepEqual(p.push('a `b <ref id="x">c'), []);
    assert.deepEqual(p.push(' d` <ref id="y">'), [{ type: 'open', index: 0, id: 'y', offset: 22 }]);
    const q = new RefStreamParser();
    assert.deepEqual(q.push('a `b <ref id="x">c'), []);
    assert.deepEqual(
      q.push('\n\n').map((e) => e.type),
      ['open', 'text'],
    );
  });

  it('makes no array for a push that reports nothing: every such push returns one frozen empty array', () => {
    // A stream of tiny chunks is mostly such pushes; a new array for each was a large share of its cost.
    const p = new RefStreamParser();
    const first = p.push('plain text, ');
    const second = p.push('more `code`, then a fence:\n```\n<ref id="a">\n```\n');
    assert.equal(first.length, 0);
    assert.equal(second, first);
    assert.ok(Object.isFrozen(first));
    const third = p.push('<ref id="a">x');
    assert.deepEqual(third[0], { type: 'open', index: 0, id: 'a', offset: 60 });
    assert.notEqual(third, first);
    assert.equal(first.length, 0);
  });

  it('throws on push after end', () => {
    const p = new RefStreamParser();
    p.end();
    assert.throws(() => p.push('x'));
  });

  it('gives the same result one character at a time', () => {
    const t = '<ref id="a">```js\nx `<ref id="n">`\n```</ref>\r\n`a\n\n<ref id="b">\r\ny\r\n</ref>';
    assert.deepEqual(feed([...t]).result, extractRefs(t));
    assert.deepEqual(
      extractRefs(t).refs.map((r) => [r.id, r.content]),
      [
        ['a', 'x `<ref id="n">`'],
        ['b', 'y'],
      ],
    );
  });
});
