import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import fc from 'fast-check';
import { ContentSink, contentFileName, indexFileName } from '../../../../src/core/store/contentSink';
import { incompleteTail, Utf8Pieces, type Utf8Piece } from '../../../../src/core/store/utf8Pieces';
import { tempWorkspace } from '../../support/tempWorkspace';

/** Every piece of `chunks` through one `Utf8Pieces`, then its end. */
function piecesOf(chunks: readonly Buffer[]): Utf8Piece[] {
  const pieces = new Utf8Pieces();
  return [...chunks.map((chunk) => pieces.write(chunk)), pieces.end()];
}

/** What the wrapper decoded before: one `StringDecoder` over the same chunks. */
function decoded(chunks: readonly Buffer[]): string {
  const decoder = new StringDecoder('utf8');
  return chunks.map((chunk) => decoder.write(chunk)).join('') + decoder.end();
}

/** `bytes` cut at `cuts` (sorted offsets). */
function cut(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const at = [0, ...cuts, bytes.length];
  return at.slice(1).map((end, i) => bytes.subarray(at[i], end));
}

/** The pieces' invariants: the text is the decoder's, the bytes are the stream, a valid piece's bytes are its text. */
function check(chunks: readonly Buffer[]): Utf8Piece[] {
  const pieces = piecesOf(chunks);
  assert.equal(pieces.map((p) => p.text).join(''), decoded(chunks));
  assert.deepEqual(Buffer.concat(pieces.map((p) => p.bytes)), Buffer.concat(chunks));
  let valid = true;
  for (const piece of pieces) {
    if (!piece.valid) valid = false;
    assert.equal(piece.valid, valid, 'once invalid, the rest is too');
    if (piece.valid) assert.deepEqual(Buffer.from(piece.text, 'utf8'), piece.bytes);
  }
  return pieces;
}

const euro = Buffer.from('€', 'utf8'); // 3 bytes
const face = Buffer.from('😀', 'utf8'); // 4 bytes, a surrogate pair

describe('Utf8Pieces: a byte stream decoded, its valid UTF-8 start given as bytes', () => {
  it('gives a character split across chunks, at every split point, whole in the next piece', () => {
    for (const char of [Buffer.from('é'), euro, face]) {
      const bytes = Buffer.concat([Buffer.from('ab'), char, Buffer.from('cd')]);
      for (let at = 3; at < 2 + char.length; at++) {
        const pieces = check(cut(bytes, [at]));
        assert.ok(
          pieces.every((p) => p.valid),
          `${char.toString()} split at ${at}`,
        );
        assert.equal(pieces[0]?.text, 'ab');
        assert.equal(pieces[1]?.text, `${char.toString()}cd`);
      }
    }
    // One byte a chunk.
    const bytes = Buffer.from('a€😀é\n', 'utf8');
    assert.ok(
      check(
        cut(
          bytes,
          Array.from({ length: bytes.length - 1 }, (_, i) => i + 1),
        ),
      ).every((p) => p.valid),
    );
  });

  it('turns invalid at the first invalid byte, after 10 MB of valid output, and decodes the rest as before', () => {
    const valid = Buffer.alloc(10 << 20, 'abcdefghi\n');
    const chunks = [...cut(valid, [1 << 16, 5 << 20]), Buffer.from([0x41, 0xff, 0x42]), Buffer.from('after €\n')];
    const pieces = check(chunks);
    assert.deepEqual(
      pieces.map((p) => p.valid),
      [true, true, true, false, false, false],
    );
    assert.equal(pieces[3]?.text, 'A\ufffdB');
  });

  it('keeps an unfinished character for the next chunk, and decodes the carried bytes when the next turns them invalid', () => {
    // `E0 80` looks like the start of a 3-byte character but can start none; `F8` and `C0` start nothing.
    for (const tail of [[0xe0, 0x80], [0xe2, 0x82], [0xf0, 0x9f, 0x98], [0xf8], [0xc0], [0xed, 0xa0, 0x80]]) {
      for (const next of [[0x41], [0x82, 0xac], [0x80, 0x80, 0x80], []]) {
        const chunks = [Buffer.from([0x61, ...tail]), Buffer.from(next), Buffer.from('z')];
        check(chunks);
        check([Buffer.from([0x61, ...tail])]); // the stream ending there
      }
    }
  });

  it('ends with an unfinished character as invalid, its bytes given once', () => {
    const pieces = check([Buffer.from([0x61, 0xe2, 0x82])]);
    assert.deepEqual(
      pieces.map((p) => [p.text, [...p.bytes], p.valid]),
      [
        ['a', [0x61], true],
        ['\ufffd', [0xe2, 0x82], false],
      ],
    );
  });

  it('holds for any bytes cut anywhere (against one StringDecoder over the same chunks)', () => {
    const byte = fc.oneof(
      fc.integer({ min: 0x20, max: 0x7e }),
      fc.constantFrom(0x0a, 0x80, 0xbf, 0xc2, 0xe0, 0xe2, 0xed, 0xf0, 0xf4, 0xf8, 0xff),
    );
    const text = fc.string({ unit: 'binary' }).map((s) => Buffer.from(s, 'utf8'));
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 64 }).map((a) => Buffer.from(a)),
          text,
          fc.array(byte).map((a) => Buffer.from(a)),
        ),
        fc.array(fc.nat({ max: 64 })),
        (bytes, offsets) => {
          const cuts = [...new Set(offsets.filter((n) => n <= bytes.length))].sort((a, b) => a - b);
          check(cut(bytes, cuts));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds the unfinished character at the end of a chunk', () => {
    assert.equal(incompleteTail(Buffer.from('abc')), 0);
    assert.equal(incompleteTail(euro.subarray(0, 1)), 1);
    assert.equal(incompleteTail(euro.subarray(0, 2)), 2);
    assert.equal(incompleteTail(euro), 0);
    assert.equal(incompleteTail(face.subarray(0, 3)), 3);
    assert.equal(incompleteTail(face), 0);
    assert.equal(incompleteTail(Buffer.from([0x61, 0xff])), 0, 'not a lead byte: left to the validity check');
    assert.equal(incompleteTail(Buffer.alloc(0)), 0);
  });
});

describe('ContentSink.writeUtf8: valid UTF-8 written as it came', function () {
  this.timeout(60_000);

  /** Writes `parts` (text, or bytes and their text) into a sink and gives what it sealed. */
  async function sealed(folder: string, parts: readonly (string | Buffer)[]) {
    mkdirSync(folder);
    const sink = new ContentSink({ folder, durability: 'process', loneSurrogates: 'replace' });
    for (const part of parts)
      await (typeof part === 'string' ? sink.write(part) : sink.writeUtf8(part, part.toString('utf8')));
    const { ref } = await sink.seal();
    const file = (name: string): Buffer | undefined => {
      try {
        return readFileSync(path.join(folder, name));
      } catch {
        return undefined;
      }
    };
    return { ref, text: file(contentFileName(ref)), index: file(indexFileName(ref)) };
  }

  it('seals the same content, index and hash as the same text written as text', async () => {
    const ws = tempWorkspace();
    try {
      const line = (n: number): string => `${n} line é € 😀 ${'x'.repeat(n % 300)}\n`;
      const text = Array.from({ length: 20_000 }, (_, n) => line(n)).join('');
      const bytes = Buffer.from(text, 'utf8');
      // Cut at character starts only (as Utf8Pieces gives them), in pieces of every size.
      const pieces: Buffer[] = [];
      for (let at = 0, size = 1; at < bytes.length; size = (size * 7 + 3) % 200_000) {
        let end = Math.min(bytes.length, at + size);
        while (end < bytes.length && ((bytes[end] as number) & 0xc0) === 0x80) end++;
        pieces.push(bytes.subarray(at, end));
        at = end;
      }
      const asText = await sealed(ws.file('a'), [text]);
      const asBytes = await sealed(ws.file('b'), pieces);
      assert.ok(asText.ref.bytes > 256 * 1024, 'large enough for an index');
      assert.deepEqual(asBytes.ref, asText.ref);
      assert.ok(asBytes.text?.equals(bytes));
      assert.ok(asBytes.index !== undefined && asText.index !== undefined && asBytes.index.equals(asText.index));
      // Text, then bytes, then text: in order, and a lone high surrogate before bytes written as U+FFFD.
      const mixed = await sealed(ws.file('c'), ['ab\ud83d', Buffer.from('cd€'), 'ef']);
      assert.equal(mixed.text?.toString('utf8'), 'ab\ufffdcd€ef');
      assert.deepEqual(mixed.ref, (await sealed(ws.file('d'), ['ab\ufffdcd€ef'])).ref);
    } finally {
      ws.dispose();
    }
  });
});
