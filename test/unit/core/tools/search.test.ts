import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Session } from '../../../../src/core';
import { Content } from '../../../../src/core/descriptors/content';
import { runTool } from '../../../../src/core/tools/toolTable';
import { MAX_REGEX_LINE_CHARS, SHOWN_LINE_CHARS } from '../../../../src/core/tools/searchFd';
import { awkwardText } from '../../support/arbitraries';
import { ChunkedText, contextOf, SourcesSession } from '../../support/toolSessions';
import { child, parseXml, type XmlElement } from '../../support/xml';

const LOG = [
  'starting build',
  'compiling a.ts',
  'ERROR: a.ts(3): missing ;',
  'compiling b.ts',
  'warning: unused x',
  'compiling c.ts',
  'error in c.ts (a+b)*',
  'done with 2 errors',
].join('\n');

/** Runs search_fd on fd:1 holding `text`, read in chunks of `chunkChars`; the result parsed. */
async function search(text: string, args: Record<string, unknown>, chunkChars = 5, pageSize = 100_000) {
  const session = new SourcesSession([new ChunkedText(text, chunkChars)]);
  const outcome = await runTool(contextOf(session, pageSize), 'search_fd', { fd: 'fd:1', ...args });
  return { root: parseXml(outcome.text), outcome, session };
}

/** The shown lines as `[line, marker, text]`. */
function shownLines(root: XmlElement): [number, string, string][] {
  return root.children
    .filter((c) => c.name === 'lines')
    .flatMap((block) =>
      block.text.split('\n').map((row): [number, string, string] => {
        const found = /^(\d+)([:-]) (.*)$/s.exec(row);
        assert.ok(found, row);
        return [Number(found[1]), found[2] as string, found[3] as string];
      }),
    );
}

/** The lines of `text` as Content counts them. */
function linesOf(text: string): string[] {
  const content = new Content(text);
  const lines: string[] = [];
  for (let line = 1; line <= content.totalLines; line++)
    lines.push(text.slice(content.lineStart(line), content.lineStart(line + 1)).replace(/\r?\n$/, ''));
  return lines;
}

describe('search_fd', () => {
  it('finds plain text in any case by default, with line numbers and two lines of context', async () => {
    const { root } = await search(LOG, { pattern: 'error' });
    assert.equal(root.name, 'search_result');
    assert.equal(root.attributes['matches'], '3');
    assert.equal(root.attributes['shown'], '3');
    assert.equal(root.attributes['total_lines'], '8');
    assert.deepEqual(shownLines(root), [
      [1, '-', 'starting build'],
      [2, '-', 'compiling a.ts'],
      [3, ':', 'ERROR: a.ts(3): missing ;'],
      [4, '-', 'compiling b.ts'],
      [5, '-', 'warning: unused x'],
      [6, '-', 'compiling c.ts'],
      [7, ':', 'error in c.ts (a+b)*'],
      [8, ':', 'done with 2 errors'],
    ]);
    assert.match(child(root, 'message').text, /3 lines of fd:1 match.*read_fd\(fd="fd:1", mode="line"/);
  });

  it('matches case exactly with case_sensitive, and groups separate runs of lines', async () => {
    const { root } = await search(LOG, { pattern: 'ERROR', case_sensitive: true, context: 0 });
    assert.equal(root.attributes['matches'], '1');
    assert.deepEqual(shownLines(root), [[3, ':', 'ERROR: a.ts(3): missing ;']]);
    const { root: two } = await search(LOG, { pattern: 'compiling', context: '0' });
    assert.deepEqual(
      two.children.filter((c) => c.name === 'lines').map((c) => [c.attributes['from'], c.attributes['to']]),
      [
        ['2', '2'],
        ['4', '4'],
        ['6', '6'],
      ],
    );
  });

  it('does not read regular expression characters in a plain pattern', async () => {
    const { root } = await search(LOG, { pattern: '(a+b)*' });
    assert.equal(root.attributes['matches'], '1');
    assert.equal(shownLines(root).find(([, marker]) => marker === ':')?.[0], 7);
    const { root: dot } = await search('a.c\nabc\n', { pattern: 'a.c', context: 0 });
    assert.deepEqual(shownLines(dot), [[1, ':', 'a.c']]);
  });

  it('matches regular expressions, anchors included, per line', async () => {
    const { root } = await search(LOG, { pattern: '^compiling [ab]\\.ts$', regex: true, context: 0 });
    assert.deepEqual(
      shownLines(root).map(([line]) => line),
      [2, 4],
    );
    const { root: insensitive } = await search(LOG, { pattern: '^error', regex: 'true', context: 0 });
    assert.deepEqual(
      shownLines(insensitive).map(([line]) => line),
      [3, 7],
    );
  });

  it('answers a bad regular expression with a clear invalid_argument error', async () => {
    const { root, outcome } = await search(LOG, { pattern: '(unclosed', regex: true });
    assert.equal(outcome.ok, false);
    assert.equal(root.name, 'fd_error');
    assert.equal(root.attributes['type'], 'invalid_argument');
    assert.match(root.text, /not a valid JavaScript regular expression.*regex=false/);
    const plain = await search(LOG, { pattern: '(unclosed' });
    assert.equal(plain.root.attributes['matches'], '0');
  });

  it('refuses an empty pattern, a context or max_results out of range, and an unknown descriptor', async () => {
    for (const args of [
      { pattern: '' },
      { pattern: 'x', context: 11 },
      { pattern: 'x', context: -1 },
      { pattern: 'x', max_results: 0 },
      { pattern: 'x', max_results: 501 },
      { pattern: 'x'.repeat(1001) },
    ]) {
      const { root } = await search(LOG, args);
      assert.equal(root.attributes['type'], 'invalid_argument', JSON.stringify(args).slice(0, 80));
    }
    const session = new SourcesSession([]);
    const missing = await runTool(contextOf(session, 100), 'search_fd', { fd: 'fd:9', pattern: 'x' });
    assert.equal(parseXml(missing.text).attributes['type'], 'not_found');
  });

  it('shows the first max_results matches, counts them all and names the next one', async () => {
    const text = Array.from({ length: 100 }, (_, i) => (i % 10 === 0 ? `hit ${i + 1}` : `line ${i + 1}`)).join('\n');
    const { root } = await search(text, { pattern: 'hit', max_results: 3, context: 1 });
    assert.equal(root.attributes['matches'], '10');
    assert.equal(root.attributes['shown'], '3');
    const shown = shownLines(root);
    assert.deepEqual(
      shown.filter(([, m]) => m === ':').map(([line]) => line),
      [1, 11, 21],
    );
    assert.deepEqual(shown[shown.length - 1], [22, '-', 'line 22']);
    assert.match(child(root, 'message').text, /the first 3 are shown.*next match is on line 31/);
  });

  it('reports no match on empty text and on text without the pattern', async () => {
    for (const text of ['', '\n', 'nothing here\n']) {
      const { root } = await search(text, { pattern: 'error' });
      assert.equal(root.attributes['matches'], '0');
      assert.deepEqual(shownLines(root), []);
      assert.match(child(root, 'message').text, /No line of fd:1 matches/);
    }
  });

  it('matches CRLF lines without their CR, so $ anchors at the end of a line', async () => {
    const { root } = await search('one\r\ntwo end\r\nthree\r\n', { pattern: 'end$', regex: true, context: 1 });
    assert.deepEqual(shownLines(root), [
      [1, '-', 'one'],
      [2, ':', 'two end'],
      [3, '-', 'three'],
    ]);
    assert.equal(root.attributes['total_lines'], '3');
  });

  it('finds matches across chunk boundaries whatever the chunk size', async () => {
    const text = 'abc needle def\nneedle\nxx nee\ndle\n' + 'y'.repeat(50) + 'needle';
    for (const chunk of [1, 2, 3, 7, 16, 1000]) {
      const { root } = await search(text, { pattern: 'needle', context: 0 }, chunk);
      assert.deepEqual(
        shownLines(root).map(([line]) => line),
        [1, 2, 5],
        `chunks of ${chunk}`,
      );
    }
  });

  it('finds exactly the lines a line-by-line filter finds, for any text and chunk size', async () => {
    await fc.assert(
      fc.asyncProperty(
        awkwardText,
        fc.constantFrom('x', 'ab', '\r', 'é', '😀', ' '),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        async (text, pattern, chunk, caseSensitive) => {
          const { root } = await search(
            text,
            { pattern, context: 0, max_results: 500, case_sensitive: caseSensitive },
            chunk,
          );
          const expected = linesOf(text)
            .map((line, i) => [i + 1, line] as const)
            .filter(([, line]) => (caseSensitive ? line : line.toLowerCase()).includes(pattern.toLowerCase()));
          assert.equal(root.attributes['matches'], String(expected.length));
          assert.deepEqual(
            shownLines(root).map(([line]) => line),
            expected.map(([line]) => line),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it('reads the text once, in chunks, never by slices', async () => {
    const source = new ChunkedText(LOG.repeat(50), 64);
    const session = new SourcesSession([source]);
    await runTool(contextOf(session, 100_000), 'search_fd', { fd: 'fd:1', pattern: 'error' });
    assert.equal(source.chunkReads, 1);
    assert.deepEqual(source.slices, []);
  });

  it('shows a long matching line around its match and says lines were cut', async () => {
    const line = 'a'.repeat(5000) + 'NEEDLE' + 'b'.repeat(5000);
    const { root } = await search(`short\n${line}\n`, { pattern: 'needle', context: 0 }, 333);
    const [[number, marker, shown]] = shownLines(root) as [[number, string, string]];
    assert.equal(number, 2);
    assert.equal(marker, ':');
    assert.ok(shown.includes('NEEDLE'));
    assert.ok(shown.startsWith('…') && shown.endsWith('…'));
    assert.ok(shown.length <= SHOWN_LINE_CHARS + 2);
  });

  it('runs a regular expression on the first part of a very long line only, and says so', async () => {
    const line = 'x'.repeat(MAX_REGEX_LINE_CHARS + 10) + 'late';
    const regex = await search(`${line}\nlate\n`, { pattern: 'late', regex: true, context: 0 }, 4096);
    assert.equal(regex.root.attributes['matches'], '1');
    assert.equal(regex.root.attributes['long_lines'], '1');
    assert.match(child(regex.root, 'message').text, /searched in its first 10000 characters only.*regex=false/);
    const plain = await search(`${line}\nlate\n`, { pattern: 'late', context: 0 }, 4096);
    assert.equal(plain.root.attributes['matches'], '2');
    assert.equal(plain.root.attributes['long_lines'], undefined);
  });

  it('stores a result longer than a page as a new descriptor and shows its start and end', async () => {
    const text = Array.from({ length: 200 }, (_, i) => `match number ${i + 1} with some words`).join('\n');
    const { root, session } = await search(text, { pattern: 'match', max_results: 200 }, 64, 1000);
    assert.equal(root.name, 'fd_result');
    assert.equal(root.attributes['fd'], 'fd:2');
    assert.match(child(root, 'message').text, /^fd:2 holds the whole output of search_fd: /);
    const stored = session.made[1];
    assert.equal(stored?.source, 'tool_output');
    assert.equal(stored?.toolName, 'search_fd');
    const whole = parseXml(await stored.content.slice(0, stored.content.length));
    assert.equal(whole.attributes['matches'], '200');
    assert.equal(shownLines(whole).length, 200);
    assert.ok(child(root, 'preview').text.length <= 1000);
    const { root: small } = await search(text, { pattern: 'match number 7 ', context: 0 }, 64, 1000);
    assert.equal(small.name, 'search_result');
  });

  it('searches a chat session descriptor too', async () => {
    const session = new Session({ maxDirectOutputChars: 10 });
    session.wrapToolOutput('shell', LOG);
    const root = parseXml(await session.callTool('search_fd', { fd: 'fd:1', pattern: 'warning', context: 0 }));
    assert.deepEqual(shownLines(root), [[5, ':', 'warning: unused x']]);
  });
});
