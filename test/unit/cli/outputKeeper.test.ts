import assert from 'node:assert/strict';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { OutputKeeper } from '../../../src/cli/outputKeeper';
import { buildCliBundle, runCli } from '../../support/cli/cliProcess';
import { storedTexts } from '../../support/cli/storedOutputs';
import { tempWorkspace } from '../support/tempWorkspace';

/** What the wrapper decoded before it wrote valid UTF-8 as bytes: one `StringDecoder` over the chunks. */
function decoded(chunks: readonly Buffer[]): string {
  const decoder = new StringDecoder('utf8');
  return chunks.map((chunk) => decoder.write(chunk)).join('') + decoder.end();
}

/** 1 MB of lines with characters of 1 to 4 UTF-8 bytes. */
const MIXED = Buffer.from(
  Array.from({ length: 40_000 }, (_, n) => `${n} aé€😀 ${n % 7 === 0 ? 'error: x' : ''}\n`).join(''),
  'utf8',
);

/** `bytes` cut into chunks of `size` bytes (so multi-byte characters are split between chunks). */
function chunked(bytes: Buffer, size: number): Buffer[] {
  const chunks = [];
  for (let at = 0; at < bytes.length; at += size) chunks.push(bytes.subarray(at, at + size));
  return chunks;
}

describe('OutputKeeper: valid UTF-8 written once, the byte-for-byte fallbacks kept', function () {
  this.timeout(120_000);
  let ws: ReturnType<typeof tempWorkspace>;
  let store: string;
  beforeEach(() => {
    ws = tempWorkspace();
    store = ws.file('store');
  });
  afterEach(() => ws.dispose());

  /** Feeds `chunks` to a keeper (`between(i)` runs before chunk i) and gives what it printed. */
  async function keep(chunks: readonly Buffer[], between?: (i: number) => void, previewChars = 1000) {
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    stdout.on('data', (c: Buffer) => out.push(c));
    stderr.on('data', (c: Buffer) => err.push(c));
    const keeper = new OutputKeeper({
      previewChars,
      storeFolder: store,
      key: { agent: 'terminal', productName: 'Terminal' },
      stdout,
      stderr,
      hints: () => '',
    });
    for (const [i, chunk] of chunks.entries()) {
      between?.(i);
      await keeper.push(chunk);
    }
    const now = new Date();
    await keeper.finish({
      commandLine: 'test',
      cwd: ws.root,
      exitCode: 0,
      signal: null,
      status: 0,
      startedAt: now,
      endedAt: now,
    });
    return { stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') };
  }

  const removeSpool = (): void => {
    assert.ok(readdirSync(path.join(store, 'spool')).length > 0, 'a spool is being written');
    rmSync(path.join(store, 'spool'), { recursive: true, force: true });
  };

  it('keeps valid UTF-8 split between chunks at every byte, whole and exact', async () => {
    for (const size of [1 << 16, 4093, 7]) {
      const chunks = chunked(size === 7 ? MIXED.subarray(0, 20_000) : MIXED, size);
      const { stdout } = await keep(chunks);
      assert.match(stdout.toString('utf8'), /^fd:\d+ in session Terminal /);
      assert.equal((await storedTexts(store)).at(-1), MIXED.subarray(0, size === 7 ? 20_000 : undefined).toString());
    }
    assert.equal(readdirSync(path.join(store, 'spool')).length, 0, 'the spools are removed');
  });

  it('keeps an output with invalid UTF-8 after 10 MB of valid output as it was decoded before', async () => {
    const valid = Buffer.alloc(10 << 20, 'é line of text\n');
    const chunks = [
      ...chunked(valid, 1 << 16),
      Buffer.from([0x41, 0xff, 0xe2, 0x82]), // an invalid byte, then a character split between chunks
      Buffer.from([0xac, 0x0a, 0xe2]), // and an unfinished one at the very end
    ];
    const { stdout } = await keep(chunks);
    assert.match(
      stdout.toString('utf8'),
      /^fd:1 in session Terminal .*: the whole output, 9,830,405 characters, 655,362 lines, /,
    );
    const [text] = await storedTexts(store);
    assert.ok(text === decoded(chunks), 'the decoded text, invalid bytes as U+FFFD');
    assert.ok(text.endsWith('A\ufffd€\n\ufffd'));
  });

  it('keeps an output just over the preview size, a character split at the boundary; prints one at it unchanged', async () => {
    // 999 characters then `€` split between two chunks, then `b`: 1001 characters, one more than the preview.
    const over = [
      Buffer.concat([Buffer.alloc(999, 'a'), euro.subarray(0, 2)]),
      Buffer.concat([euro.subarray(2), Buffer.from('b')]),
    ];
    const kept = await keep(over);
    assert.match(kept.stdout.toString('utf8'), /^fd:1 .*: the whole output, 1,001 characters, 1 line, /);
    assert.deepEqual(await storedTexts(store), ['a'.repeat(999) + '€b']);
    const at = [over[0] as Buffer, euro.subarray(2)]; // exactly 1000 characters: printed as it came, nothing kept
    assert.deepEqual((await keep(at)).stdout, Buffer.concat(at));
    assert.equal((await storedTexts(store)).length, 1);
  });

  it('prints the whole output byte for byte when storing fails, from the content file while it was valid UTF-8', async () => {
    const chunks = chunked(MIXED, 1 << 16);
    // The spool is removed midway: the content can no longer be sealed, and its file is gone from the folder.
    const { stdout, stderr } = await keep(chunks, (i) => i === 10 && removeSpool());
    assert.ok(stdout.equals(MIXED), 'the whole output, byte for byte');
    assert.match(stderr, /^fdref: the output was not kept \(.+\); it is shown whole above\.\n$/);
  });

  it('prints the whole output byte for byte when storing fails after an invalid byte', async () => {
    const chunks = [
      ...chunked(MIXED.subarray(0, 300_000), 1 << 16),
      Buffer.from([0xc3, 0x28, 0xed, 0xa0, 0x80, 0xf0, 0x9f]), // invalid, and a character split between chunks
      Buffer.from([0x98, 0x80]),
      ...chunked(MIXED, 1 << 16),
      Buffer.from([0xe2]),
    ];
    const { stdout, stderr } = await keep(chunks, (i) => i === chunks.length - 3 && removeSpool());
    assert.ok(stdout.equals(Buffer.concat(chunks)), 'the whole output, byte for byte');
    assert.match(stderr, /^fdref: the output was not kept/);
    assert.equal(existsSync(path.join(store, 'spool')), false);
  });

  it('passes the whole output through, invalid bytes and all, when a write fails midway (a file size limit)', async () => {
    const cli = await buildCliBundle();
    // 600 KB of valid output are written once, into the content file; the raw bytes from the invalid byte on go to
    // a second file, and the content (growing past 1 MiB) fails: the output comes from both files, then the pipe.
    const command = `head -c 600000 /dev/zero | tr '\\0' a; printf '\\377\\303'; printf '\\251'; seq 1 300000; exit 6`;
    const result = await runCli(cli, ['run', '--store', store, '--', command], {
      cwd: ws.root,
      via: '/usr/bin/bash',
      prefix: "trap '' XFSZ; ulimit -f 1024; exec",
    });
    const expected = Buffer.concat([
      Buffer.alloc(600_000, 'a'),
      Buffer.from([0xff, 0xc3, 0xa9]),
      Buffer.from(Array.from({ length: 300_000 }, (_, i) => `${i + 1}\n`).join('')),
    ]);
    assert.equal(result.status, 6);
    assert.equal(result.stdout.length, expected.length);
    assert.ok(result.stdout.equals(expected), 'the whole output, byte for byte');
    assert.match(result.stderr.toString('utf8'), /^fdref: the output was not kept \(.*(EFBIG|too large).*\)/i);
  });
});

const euro = Buffer.from('€', 'utf8');
