import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Content } from '../../../../src/core/descriptors/content';
import type { TextSource } from '../../../../src/core/descriptors/textSource';
import { writeContent } from '../../../../src/core/store/contentSink';
import { ContentCache, StoredContent } from '../../../../src/core/store/storedContent';
import { runTool } from '../../../../src/core/tools/toolTable';
import { DEFAULT_TAIL_LINES } from '../../../../src/core/tools/schemas';
import { tempStoreFolder } from '../../../support/store/tempStore';
import { awkwardText } from '../../support/arbitraries';
import { ChunkedText, contextOf, SourcesSession } from '../../support/toolSessions';
import { child, parseXml } from '../../support/xml';

/** read_fd on fd:1 holding `source`, parsed. */
async function readFd(source: TextSource, args: Record<string, unknown>, pageSize = 10) {
  const outcome = await runTool(contextOf(new SourcesSession([source]), pageSize), 'read_fd', { fd: 'fd:1', ...args });
  return parseXml(outcome.text);
}

const numbered = (count: number, ending = '\n'): string =>
  Array.from({ length: count }, (_, i) => `line ${i + 1}`).join('\n') + ending;

describe('read_fd mode tail', () => {
  it('gives the last count lines, and all of them when there are fewer', async () => {
    const text = numbered(5);
    const last2 = await readFd(new Content(text), { mode: 'tail', count: 2 }, 100);
    assert.equal(last2.text, 'line 4\nline 5\n');
    assert.equal(last2.attributes['mode'], 'tail');
    assert.equal(last2.attributes['start'], '4');
    assert.equal(last2.attributes['count'], '2');
    assert.equal(last2.attributes['lines'], '4-5');
    assert.equal(last2.attributes['total_lines'], '5');
    const all = await readFd(new Content(text), { mode: 'tail', count: 50 }, 100);
    assert.equal(all.text, text);
    assert.equal(all.attributes['count'], '5');
    assert.equal(all.attributes['continued'], 'false');
  });

  it('counts the last line the same with or without a trailing newline', async () => {
    assert.equal((await readFd(new Content('a\nb\nc'), { mode: 'tail', count: 1 })).text, 'c');
    assert.equal((await readFd(new Content('a\nb\nc\n'), { mode: 'tail', count: 1 })).text, 'c\n');
    assert.equal((await readFd(new Content('a\nb\nc\n\n'), { mode: 'tail', count: 1 })).text, '\n');
  });

  it(`reads ${DEFAULT_TAIL_LINES} lines by default and an empty text as nothing`, async () => {
    const text = numbered(80);
    const tail = await readFd(new Content(text), { mode: 'tail' }, 10_000);
    assert.equal(tail.attributes['start'], String(80 - DEFAULT_TAIL_LINES + 1));
    assert.equal(tail.text, text.slice(text.indexOf(`line ${80 - DEFAULT_TAIL_LINES + 1}\n`)));
    const empty = await readFd(new Content(''), { mode: 'tail' });
    assert.equal(empty.text, '');
    assert.equal(empty.attributes['count'], '0');
    assert.equal(empty.attributes['lines'], '0-0');
    assert.equal((await readFd(new Content('x'), { mode: 'tail', count: 0 })).attributes['type'], 'invalid_argument');
  });

  it('keeps to one page: the last whole lines that fit, or the end of a last line longer than a page', async () => {
    const text = numbered(20); // lines of 7 or 8 characters
    const capped = await readFd(new Content(text), { mode: 'tail', count: 20 }, 20);
    assert.equal(capped.text, 'line 19\nline 20\n');
    assert.equal(capped.attributes['start'], '19');
    assert.equal(capped.attributes['count'], '2');
    const long = await readFd(new Content('first\n' + 'abcdefghij'.repeat(5)), { mode: 'tail', count: 3 }, 12);
    assert.equal(long.text, 'abcdefghij'.repeat(5).slice(-12));
    assert.equal(long.attributes['continued'], 'true');
    assert.equal(long.attributes['start'], '2');
    const pair = await readFd(new Content('x😀😀😀'), { mode: 'tail' }, 4);
    assert.equal(pair.text, '😀😀', 'a cut inside a surrogate pair moves forward');
  });

  it('reads the index and the tail only, not the whole text', async () => {
    const source = new ChunkedText(numbered(100_000), 1 << 16);
    const tail = await readFd(source, { mode: 'tail', count: 3 }, 4000);
    assert.equal(tail.text, 'line 99998\nline 99999\nline 100000\n');
    assert.equal(source.chunkReads, 0);
    assert.ok(source.charsSliced <= 40, `read ${source.charsSliced} characters`);
  });
});

describe('selections over a TextSource', () => {
  it('read a page, lines or characters by their range only, whatever the size', async () => {
    const source = new ChunkedText(numbered(200_000), 1 << 16);
    const page = await readFd(source, { start: 400 }, 4000);
    assert.equal(page.attributes['page'], '400');
    assert.ok(source.charsSliced <= 4001, `page: ${source.charsSliced}`);
    source.slices.length = 0;
    const lines = await readFd(source, { mode: 'line', start: 150_000, count: 2 }, 4000);
    assert.equal(lines.text, 'line 150000\nline 150001\n');
    assert.ok(source.charsSliced <= 30, `lines: ${source.charsSliced}`);
    source.slices.length = 0;
    const chars = await readFd(source, { mode: 'char', start: 1_000_000, count: 5 }, 4000);
    assert.equal(chars.text.length, 5);
    assert.ok(source.charsSliced <= 6, `chars: ${source.charsSliced}`);
    assert.equal(source.chunkReads, 0);
  });

  it('extract a selection into a new descriptor of the session', async () => {
    const session = new SourcesSession([new ChunkedText(numbered(30), 7)]);
    const outcome = await runTool(contextOf(session, 100), 'read_fd', {
      fd: 'fd:1',
      mode: 'tail',
      count: 2,
      extract_to_new_fd: true,
    });
    const root = parseXml(outcome.text);
    assert.equal(root.attributes['new_fd'], 'fd:2');
    assert.match(child(root, 'message').text, /Extracted 16 characters of fd:1 into fd:2 \(2 lines, 1 pages\)/);
    assert.equal(session.made[1]?.extractedFrom, 'fd:1');
    assert.equal(await session.made[1]?.content.slice(0), 'line 29\nline 30\n');
  });
});

describe('tools over stored content', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  before(() => (folder = tempStoreFolder()));
  after(() => folder.dispose());
  const cache = new ContentCache();

  const stored = async (text: string): Promise<StoredContent> => {
    const { ref } = await writeContent(text, folder.root, 'process');
    return new StoredContent(ref, folder.root, cache);
  };

  const calls = (pageSize: number): [string, Record<string, unknown>][] => [
    ['read_fd', {}],
    ['read_fd', { start: 2 }],
    ['read_fd', { start: 2, count: 3 }],
    ['read_fd', { mode: 'line', start: 2 }],
    ['read_fd', { mode: 'line', start: 3, count: 4 }],
    ['read_fd', { mode: 'char', start: 5, count: pageSize }],
    ['read_fd', { mode: 'tail', count: 3 }],
    ['read_fd', { mode: 'tail' }],
    ['read_fd', { read_all: true }],
    ['search_fd', { pattern: 'x', context: 1 }],
    ['search_fd', { pattern: '^.?$', regex: true, max_results: 3 }],
  ];

  it('give exactly what they give over the same text in memory', async () => {
    await fc.assert(
      fc.asyncProperty(awkwardText, fc.integer({ min: 1, max: 40 }), async (text, pageSize) => {
        const inMemory = new SourcesSession([new Content(text)]);
        const onDisk = new SourcesSession([await stored(text)]);
        for (const [tool, args] of calls(pageSize)) {
          const expected = await runTool(contextOf(inMemory, pageSize), tool, { fd: 'fd:1', ...args });
          const actual = await runTool(contextOf(onDisk, pageSize), tool, { fd: 'fd:1', ...args });
          assert.equal(actual.text, expected.text, `${tool} ${JSON.stringify(args)}`);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('give the same pages for a large text with long lines, accents and emoji', async () => {
    const parts = ['plain words ', 'é à ', '🙂🚀', '\n', '\r\n', 'x'.repeat(700), '😀'.repeat(300)];
    let text = '';
    for (let i = 0; text.length < 400_000; i++) text += parts[(i * 7919) % parts.length];
    const memory = new Content(text);
    const disk = await stored(text);
    for (const pageSize of [1, 333, 4000]) {
      assert.deepEqual(await disk.pageTable(pageSize), memory.pageTable(pageSize), `page size ${pageSize}`);
      const pages = memory.pageTable(pageSize).length - 1;
      for (const page of [1, 2, Math.floor(pages / 2), pages]) {
        const args = { fd: 'fd:1', start: page };
        const expected = await runTool(contextOf(new SourcesSession([memory]), pageSize), 'read_fd', args);
        const actual = await runTool(contextOf(new SourcesSession([disk]), pageSize), 'read_fd', args);
        assert.equal(actual.text, expected.text, `page ${page} of ${pageSize}`);
      }
    }
  });
});
