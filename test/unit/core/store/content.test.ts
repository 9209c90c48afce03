import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { Content, DEFAULT_PAGE_SIZE } from '../../../../src/core/descriptors/content';
import { CHECKPOINT_CHARS } from '../../../../src/core/store/contentIndex';
import { ContentSink, INDEXED_BYTES, writeContent } from '../../../../src/core/store/contentSink';
import { ContentCache, StoredContent } from '../../../../src/core/store/storedContent';
import { seeded, tempStoreFolder } from '../../../support/store/tempStore';

/** About `chars` characters of varied text: ASCII lines, accents, emoji (surrogate pairs), long lines without newlines. */
function variedText(chars: number, seed: number): string {
  const random = seeded(seed);
  const pieces = [
    'plain ascii words ',
    'é à ü ',
    '🙂🚀',
    '\n',
    '\n\n',
    'x'.repeat(700),
    '日本語 ',
    '\r\n',
    '😀'.repeat(300),
  ];
  const out: string[] = [];
  let length = 0;
  while (length < chars) {
    const piece = pieces[Math.floor(random() * pieces.length)] as string;
    out.push(piece);
    length += piece.length;
  }
  return out.join('');
}

describe('store content', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  const stored = async (text: string, cache = new ContentCache()): Promise<StoredContent> => {
    const { ref } = await writeContent(text, folder.root, 'process');
    return new StoredContent(ref, folder.root, cache);
  };

  it('gives back every kind of text exactly, lone surrogates included (kept as UTF-16)', async () => {
    for (const text of [
      '',
      'a',
      'line\n',
      'é🙂\n日本',
      'lone \ud800 high',
      'lone \udc00 low',
      'ends high \ud83d',
      variedText(300_000, 1),
    ]) {
      const content = await stored(text);
      assert.equal(await content.text(), text);
      assert.equal(content.length, text.length);
      assert.equal(content.totalLines, new Content(text).totalLines);
      assert.equal(content.ref.enc, /\ud800 |\udc00|\ud83d$/.test(text) ? 'utf16le' : 'utf8');
    }
  });

  it('pages a large content by ranges exactly as Content pages the same text', async function () {
    this.timeout(60_000);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 9000 }),
        async (seed, pageSize) => {
          const text = variedText(INDEXED_BYTES + 20_000, seed);
          const content = await stored(text);
          const expected = new Content(text);
          const table = await content.pageTable(pageSize);
          assert.deepEqual([...table], [...expected.pageTable(pageSize)]);
          for (const page of [1, 2, Math.ceil((table.length - 1) / 2), table.length - 1]) {
            assert.equal(await content.page(page, pageSize), text.slice(table[page - 1], table[page]), `page ${page}`);
          }
          // Every line's start, and the line at each line's first and last character, as Content has them.
          for (let line = 1; line <= expected.totalLines + 1; line++)
            assert.equal(await content.lineStart(line), expected.lineStart(line), `start of line ${line}`);
          for (const start of expected.lineStarts)
            for (const offset of [start, start - 1].filter((o) => o >= 0))
              assert.equal(await content.lineAt(offset), expected.lineAt(offset), `line at ${offset}`);
          const random = seeded(seed);
          for (let i = 0; i < 5; i++) {
            const start = Math.floor(random() * text.length);
            const end = start + Math.floor(random() * 100_000);
            assert.equal(await content.slice(start, end), text.slice(start, end));
          }
          assert.equal(await content.tail(5000), text.slice(-5000));
        },
      ),
      { numRuns: 12 },
    );
  });

  it('pages a UTF-16 content with lone surrogates and page cuts inside pairs as Content does', async () => {
    const text = `\udfff${'😀'.repeat(200_000)}`;
    const content = await stored(text);
    assert.equal(content.ref.enc, 'utf16le');
    for (const pageSize of [1, 2, 3, 4001])
      assert.deepEqual([...(await content.pageTable(pageSize))], [...new Content(text).pageTable(pageSize)]);
    assert.equal(await content.slice(99_999, 100_004), text.slice(99_999, 100_004));
  });

  it('writes a streamed content piece by piece, splitting no surrogate pair between pieces', async () => {
    const text = variedText(600_000, 7);
    const sink = new ContentSink({ folder: folder.root, durability: 'process' });
    const random = seeded(3);
    for (let at = 0; at < text.length;) {
      const next = Math.min(text.length, at + 1 + Math.floor(random() * 70_000));
      await sink.write(text.slice(at, next)); // may end between the halves of a pair
      at = next;
    }
    const { ref } = await sink.seal();
    const content = new StoredContent(ref, folder.root, new ContentCache());
    assert.equal(await content.text(), text);
    assert.equal(await content.page(3, 4000), text.slice(...pageBounds(new Content(text), 3, 4000)));
  });

  it('replaces a lone surrogate in streamed output with U+FFFD', async () => {
    const sink = new ContentSink({ folder: folder.root, durability: 'process' });
    await sink.write('a\ud800');
    await sink.write('b');
    const { ref } = await sink.seal();
    assert.equal(await new StoredContent(ref, folder.root, new ContentCache()).text(), 'a\ufffdb');
  });

  it('keeps one file for the same text written twice, and nothing of an aborted one', async () => {
    const first = await stored('same text\n');
    const second = await stored('same text\n');
    assert.deepEqual(first.ref, second.ref);
    const sink = new ContentSink({ folder: folder.root, durability: 'process' });
    await sink.write('x'.repeat(2_000_000));
    await sink.abort();
    assert.deepEqual(readdirSync(folder.root), [path.basename(first.file)]);
  });

  it('keeps an index that does not grow with the line count: 3 M newlines take one checkpoint per 64 Ki characters', async () => {
    const text = '\n'.repeat(3_000_000);
    const sink = new ContentSink({ folder: folder.root, durability: 'process' });
    for (let at = 0; at < text.length; at += 100_000) await sink.write(text.slice(at, at + 100_000));
    const { ref, index } = await sink.seal();
    const checkpoints = Math.ceil(text.length / CHECKPOINT_CHARS);
    // Checkpoints, and the default page size's page table: 4 bytes a page, whatever the lines.
    const pages = (Math.ceil(text.length / 4000) + 1) * 4;
    assert.ok(index.byteSize <= checkpoints * 24 + pages + 64, `the index takes ${index.byteSize} bytes in memory`);
    const file = statSync(path.join(folder.root, `${ref.h}.idx`)).size;
    assert.ok(file <= checkpoints * 24 + pages + 512, `the index file has ${file} bytes`);
    const cache = new ContentCache();
    const content = new StoredContent(ref, folder.root, cache);
    assert.equal(content.totalLines, 3_000_000);
    assert.equal(await content.lineStart(2_999_999), 2_999_998);
    assert.equal(await content.lineAt(1_234_567), 1_234_568);
    assert.equal((await content.pageTable(4000)).length - 1, 750);
    // What reading cached: the index, the page table and the newlines of the blocks looked at, not every line.
    assert.ok(cache.bytes < 4 * CHECKPOINT_CHARS * 4 + 8 * 1024, `the cache holds ${cache.bytes} bytes`);
  });

  it('reads a page cold from the index file and that page: the default page table is kept, no content is scanned', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 1_000_000 }), async (seed) => {
        const text = variedText(INDEXED_BYTES + 50_000, seed);
        const { ref } = await writeContent(text, folder.root, 'process');
        const content = new StoredContent(ref, folder.root, new ContentCache());
        (content as unknown as { chunks: () => never }).chunks = () => assert.fail('the whole content was scanned');
        const expected = new Content(text);
        assert.deepEqual([...(await content.pageTable(DEFAULT_PAGE_SIZE))], [...expected.pageTable(DEFAULT_PAGE_SIZE)]);
        const pages = expected.pageTable(DEFAULT_PAGE_SIZE).length - 1;
        for (const page of [1, Math.ceil(pages / 2), pages])
          assert.equal(
            await content.page(page, DEFAULT_PAGE_SIZE),
            text.slice(...pageBounds(expected, page, DEFAULT_PAGE_SIZE)),
          );
      }),
      { numRuns: 6 },
    );
  });

  it('reads a store whose index files have the old format (FDX1, every line start) by rebuilding the index', async () => {
    const text = variedText(INDEXED_BYTES * 2, 5);
    const { ref } = await writeContent(text, folder.root, 'process');
    const file = path.join(folder.root, `${ref.h}.idx`);
    assert.equal(readFileSync(file).toString('latin1', 0, 4), 'FDX2');
    const expected = new Content(text);
    writeFileSync(file, fdx1(ref, expected.lineStarts));
    const content = new StoredContent(ref, folder.root, new ContentCache());
    assert.deepEqual([...(await content.pageTable(1000))], [...expected.pageTable(1000)]);
    assert.equal(await content.page(2, 1000), text.slice(...pageBounds(expected, 2, 1000)));
    const middle = Math.floor(expected.totalLines / 2);
    assert.equal(await content.lineStart(middle), expected.lineStart(middle));
    assert.equal(await content.lineAt(text.length - 1), expected.totalLines);
  });

  it('rebuilds a missing index by reading the content once', async () => {
    const text = variedText(INDEXED_BYTES * 2, 11);
    const { ref } = await writeContent(text, folder.root, 'process');
    rmSync(path.join(folder.root, `${ref.h}.idx`));
    const content = new StoredContent(ref, folder.root, new ContentCache());
    assert.equal(await content.page(2, 1000), text.slice(...pageBounds(new Content(text), 2, 1000)));
  });
});

function pageBounds(content: Content, page: number, pageSize: number): [number, number] {
  const table = content.pageTable(pageSize);
  return [table[page - 1] as number, table[page] as number];
}

/** An index file as fdref wrote it before 0.x (format FDX1): a JSON header, every line start, no checkpoints. */
function fdx1(ref: { enc: string; chars: number; bytes: number }, starts: Uint32Array): Buffer {
  const header = Buffer.from(
    JSON.stringify({
      enc: ref.enc,
      length: ref.chars,
      bytes: ref.bytes,
      lines: starts.length,
      astral: true,
      checkpoints: 0,
    }),
  );
  const headerEnd = (8 + header.length + 7) & ~7;
  const out = Buffer.alloc((headerEnd + starts.byteLength + 7) & ~7);
  out.write('FDX1', 0, 'latin1');
  out.writeUInt32LE(header.length, 4);
  header.copy(out, 8);
  Buffer.from(starts.buffer, starts.byteOffset, starts.byteLength).copy(out, headerEnd);
  return out;
}
