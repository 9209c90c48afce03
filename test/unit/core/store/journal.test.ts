import assert from 'node:assert/strict';
import { promises as fs, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { decodeRecords, encodeRecord, JournalAppender, readJournal } from '../../../../src/core/store/journal';
import { tempStoreFolder } from '../../../support/store/tempStore';

describe('store journal', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  let file: string;
  beforeEach(() => {
    folder = tempStoreFolder();
    file = path.join(folder.root, 'journal.log');
  });
  afterEach(() => folder.dispose());

  it('reads back every record appended, in order, with where each ends', async () => {
    const appender = await JournalAppender.create(file, [{ t: 'journal', n: 0 }], 'fsync');
    await Promise.all([1, 2, 3].map((n) => appender.append([{ n, text: 'é🙂'.repeat(n) }])));
    await appender.close();
    const read = await readJournal(file);
    assert.deepEqual(
      read.records.map((r) => r.value),
      [
        { t: 'journal', n: 0 },
        { n: 1, text: 'é🙂' },
        { n: 2, text: 'é🙂é🙂' },
        { n: 3, text: 'é🙂é🙂é🙂' },
      ],
    );
    assert.equal(read.validEnd, read.size);
    const fromSecond = await readJournal(file, read.records[1]?.offset);
    assert.deepEqual(
      fromSecond.records.map((r) => r.value),
      read.records.slice(1).map((r) => r.value),
    );
  });

  it('ignores a torn tail wherever the cut falls, and its writer cuts it off before appending', async () => {
    const whole = Buffer.concat([encodeRecord({ n: 1 }), encodeRecord({ n: 2, text: 'x'.repeat(40) })]);
    const firstEnd = encodeRecord({ n: 1 }).length;
    for (let cut = firstEnd; cut < whole.length; cut++) {
      writeFileSync(file, whole.subarray(0, cut));
      const read = await readJournal(file);
      assert.deepEqual(
        read.records.map((r) => r.value),
        [{ n: 1 }],
        `cut at ${cut}`,
      );
      assert.equal(read.validEnd, firstEnd);
      const { appender, cutBytes } = await JournalAppender.open(file, 'process');
      assert.equal(cutBytes, cut - firstEnd);
      await appender.append([{ n: 3 }]);
      await appender.close();
      assert.deepEqual(
        (await readJournal(file)).records.map((r) => r.value),
        [{ n: 1 }, { n: 3 }],
        `cut at ${cut}`,
      );
    }
  });

  it('skips a record whose bytes were changed (the checksum does not match) and reads the ones after it', () => {
    const bytes = Buffer.concat([encodeRecord({ n: 1 }), encodeRecord({ n: 2 }), encodeRecord({ n: 3 })]);
    const second = encodeRecord({ n: 1 }).length;
    const third = second + encodeRecord({ n: 2 }).length;
    const damaged = Buffer.from(bytes);
    damaged[second + 20] = '7'.charCodeAt(0); // the digit 2 of {"n":2}
    const read = decodeRecords(damaged);
    assert.deepEqual(
      read.records.map((r) => [r.value, r.afterDamage]),
      [
        [{ n: 1 }, false],
        [{ n: 3 }, true],
      ],
    );
    assert.deepEqual(read.damaged, [{ offset: second, end: third }]);
    assert.equal(read.validEnd, bytes.length);
    assert.deepEqual(
      decodeRecords(bytes).records.map((r) => r.value),
      [{ n: 1 }, { n: 2 }, { n: 3 }],
    );
  });

  it('reads a record whose own newline was changed, and the next one, reporting the one byte as damage', () => {
    const bytes = Buffer.concat([encodeRecord({ n: 1 }), encodeRecord({ n: 2 }), encodeRecord({ n: 3 })]);
    const newline = encodeRecord({ n: 1 }).length - 1;
    bytes[newline] = 0x0b;
    const read = decodeRecords(bytes);
    assert.deepEqual(
      read.records.map((r) => r.value),
      [{ n: 1 }, { n: 2 }, { n: 3 }],
    );
    assert.deepEqual(read.damaged, [{ offset: newline, end: newline + 1 }]);
  });

  it('keeps a copy of a journal damaged over more than one record before cutting it', async () => {
    const good = encodeRecord({ n: 1 });
    writeFileSync(file, Buffer.concat([good, Buffer.alloc(2 * 1024 * 1024, 0x41)]));
    const { appender, cutBytes } = await JournalAppender.open(file, 'process');
    await appender.close();
    assert.equal(cutBytes, 2 * 1024 * 1024);
    const copies = readdirSync(folder.root).filter((name) => name.startsWith('journal.log.damaged-'));
    assert.equal(copies.length, 1);
    assert.equal(readFileSync(path.join(folder.root, copies[0] as string)).length, good.length + 2 * 1024 * 1024);
    assert.equal((await fs.stat(file)).size, good.length);
  });

  it('refuses a record larger than a journal holds, so large data goes to content files', () => {
    assert.throws(() => encodeRecord({ text: 'x'.repeat(2 * 1024 * 1024) }), /at most/);
  });
});
