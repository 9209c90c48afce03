import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { DamagedContentError, UnsafeStoreFileError, type Store } from '../../../../src/core/store';
import { readJournal } from '../../../../src/core/store/journal';
import { journalOf } from '../../../../src/core/store/layout';
import { tempStoreFolder } from '../../../support/store/tempStore';

const at = '2025-03-04T05:06:07.000Z';

/** A session holding refs `r1`..`r<count>` (one record each, after the journal's header); its writer closed. */
async function sessionWithRefs(store: Store, count: number): Promise<string> {
  const writer = await store.create({ name: 'refs', origin: { kind: 'capture' } });
  for (let n = 1; n <= count; n++)
    await writer.addRefVersion({ id: `r${n}`, createdAt: at }, await writer.putContent(`ref ${n}\n`));
  await writer.close();
  return writer.id;
}

/** Flips one bit in the middle of record `index` (0: the header) of a journal. */
function flipBitInRecord(file: string, index: number): Buffer {
  const bytes = readFileSync(file);
  const starts = [0];
  for (let i = bytes.indexOf(0x0a); i !== -1 && i < bytes.length - 1; i = bytes.indexOf(0x0a, i + 1))
    starts.push(i + 1);
  const start = starts[index] as number;
  const end = (starts[index + 1] as number) - 1;
  const damaged = Buffer.from(bytes);
  const middle = Math.floor((start + end) / 2);
  damaged[middle] = (damaged[middle] as number) ^ 0x04;
  writeFileSync(file, damaged);
  return damaged;
}

function damagedCopies(sessionFolder: string): string[] {
  return readdirSync(sessionFolder).filter((name) => name.startsWith('journal.log.damaged-'));
}

describe('store damage', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  describe('a damaged journal', () => {
    it('keeps every record that checks out after a flipped bit: 11 of 12 refs, a copy of the journal, a repair to report', async () => {
      const store = await folder.open();
      const id = await sessionWithRefs(store, 12);
      const sessionFolder = store.sessionFolder(id);
      const journal = journalOf(sessionFolder);
      const asItWas = flipBitInRecord(journal, 3); // ref r3

      const reader = await (await folder.open()).read(id);
      assert.equal(reader?.refs().length, 11, 'a reader skips the damaged record and reads on');

      const writer = await (await folder.open()).openWriter(id);
      const kept = [...writer.state.refs.keys()];
      assert.deepEqual(kept, ['r1', 'r2', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9', 'r10', 'r11', 'r12']);
      const repair = writer.takeRepair();
      assert.ok(repair, 'the writer says it repaired the journal');
      assert.equal(writer.takeRepair(), undefined, 'once');
      assert.equal(repair.recoveredRecords, 9);
      assert.equal(repair.cutLines, 1);
      assert.match(
        repair.message,
        new RegExp(`session ${id}.*1 record .*9 records after the damage were recovered.*damaged-`),
      );
      const copies = damagedCopies(sessionFolder);
      assert.equal(copies.length, 1);
      assert.deepEqual(readFileSync(path.join(sessionFolder, copies[0] as string)), asItWas);

      await writer.addRefVersion({ id: 'r13', createdAt: at }, await writer.putContent('ref 13\n'));
      await writer.close();
      const repaired = await readJournal(journal);
      assert.deepEqual(repaired.damaged, []);
      assert.equal(repaired.validEnd, repaired.size);
      const again = await (await folder.open()).read(id);
      assert.equal(again?.refs().length, 12);
      assert.equal(await again?.lookup('ref:r12')?.content.text(), 'ref 12\n');
      assert.equal(again?.problem, undefined);
    });

    it('reads a journal converted to CRLF whole, and appends to it', async () => {
      const store = await folder.open();
      const id = await sessionWithRefs(store, 12);
      const journal = journalOf(store.sessionFolder(id));
      writeFileSync(journal, readFileSync(journal, 'latin1').replace(/\n/g, '\r\n'), 'latin1');
      assert.equal((await (await folder.open()).read(id))?.refs().length, 12);
      const writer = await (await folder.open()).openWriter(id);
      assert.equal(writer.state.refs.size, 12);
      assert.equal(writer.takeRepair(), undefined);
      await writer.addRefVersion({ id: 'r13', createdAt: at }, await writer.putContent('ref 13\n'));
      await writer.close();
      assert.equal((await (await folder.open()).read(id))?.refs().length, 13);
    });

    it('keeps a ref version that follows a lost one as the next version, its content its latest', async () => {
      const store = await folder.open();
      const writer = await store.create({ name: 'versions', origin: { kind: 'capture' } });
      for (const text of ['one', 'two', 'three'])
        await writer.addRefVersion({ id: 'a', createdAt: at }, await writer.putContent(text));
      await writer.close();
      flipBitInRecord(journalOf(store.sessionFolder(writer.id)), 2); // ref:a@2

      const reader = await (await folder.open()).read(writer.id);
      assert.equal(reader?.problem, undefined);
      assert.equal(await reader?.lookup('ref:a')?.content.text(), 'three');
      const reopened = await (await folder.open()).openWriter(writer.id);
      assert.equal(reopened.state.refVersionCount('a'), 2);
      assert.equal(await reopened.addRefVersion({ id: 'a', createdAt: at }, await reopened.putContent('four')), 3);
      await reopened.close();
      const after = await (await folder.open()).read(writer.id);
      assert.equal(after?.problem, undefined);
      assert.deepEqual(
        await Promise.all(
          ['ref:a@1', 'ref:a@2', 'ref:a'].map((ref) => after?.lookup(ref)?.content.text() ?? Promise.resolve('')),
        ),
        ['one', 'three', 'four'],
      );
    });
  });

  describe('links and special files planted in a session folder', function () {
    if (process.platform === 'win32') return;
    let outside: string;
    const fifos: string[] = [];
    beforeEach(() => {
      outside = mkdtempSync(path.join(tmpdir(), 'fdref-outside-'));
    });
    afterEach(() => {
      // A reader blocked opening a FIFO (before the fix) is let go, so the test process can end.
      for (const fifo of fifos.splice(0)) {
        try {
          closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
        } catch {
          // no reader waiting
        }
      }
      rmSync(outside, { recursive: true, force: true });
    });

    const refusal = (id: string) => (error: unknown) =>
      error instanceof UnsafeStoreFileError && error.message.startsWith(`Session ${id}`);

    it('refuses to write a session whose content folder is a link, and leaves the folder it leads to alone', async () => {
      const store = await folder.open();
      const id = await sessionWithRefs(store, 2);
      const content = path.join(store.sessionFolder(id), 'content');
      writeFileSync(path.join(outside, 'keep.txt'), 'mine');
      rmSync(content, { recursive: true });
      symlinkSync(outside, content);
      await assert.rejects((await folder.open()).openWriter(id), refusal(id));
      assert.deepEqual(readdirSync(outside), ['keep.txt']);
      assert.equal(readFileSync(path.join(outside, 'keep.txt'), 'utf8'), 'mine');
    });

    it('refuses to read or write a session whose journal is a link, and leaves the file it leads to alone', async () => {
      const store = await folder.open();
      const id = await sessionWithRefs(store, 2);
      const journal = journalOf(store.sessionFolder(id));
      const target = path.join(outside, 'notes.txt');
      writeFileSync(target, readFileSync(journal));
      const before = readFileSync(target);
      rmSync(journal);
      symlinkSync(target, journal);
      await assert.rejects((await folder.open()).openWriter(id), refusal(id));
      await assert.rejects((await folder.open()).read(id), refusal(id));
      assert.deepEqual(readFileSync(target), before);
    });

    it('refuses a content file that is a link (to a file outside, to /dev/zero) or a FIFO, naming the session', async () => {
      const store = await folder.open();
      const id = await sessionWithRefs(store, 3);
      const reader = await (await folder.open()).read(id);
      assert.ok(reader);
      const fileOf = (ref: string): string => {
        const found = reader.lookup(ref);
        assert.ok(found);
        return found.content.file;
      };
      writeFileSync(path.join(outside, 'secret.txt'), 'ref 1\n');
      const linked = fileOf('ref:r1');
      rmSync(linked);
      symlinkSync(path.join(outside, 'secret.txt'), linked);
      const zero = fileOf('ref:r2');
      rmSync(zero);
      symlinkSync('/dev/zero', zero);
      const fifo = fileOf('ref:r3');
      rmSync(fifo);
      execFileSync('mkfifo', [fifo]);
      fifos.push(fifo);
      for (const ref of ['ref:r1', 'ref:r2', 'ref:r3'])
        await assert.rejects(reader.lookup(ref)?.content.text() ?? Promise.resolve(), refusal(id), ref);
    });

    it('refuses a content index that is a link to /dev/zero instead of reading it', async () => {
      const store = await folder.open();
      const writer = await store.create({ name: 'big', origin: { kind: 'capture' } });
      const big = await writer.putContent('line\n'.repeat(100_000));
      await writer.addDescriptor({ source: 'tool_output', createdAt: at }, big);
      await writer.close();
      const index = big.file.replace(/\.txt$/, '.idx');
      rmSync(index);
      symlinkSync('/dev/zero', index);
      const reader = await (await folder.open()).read(writer.id);
      await assert.rejects(reader?.lookup('fd:1')?.content.page(2, 4000) ?? Promise.resolve(), refusal(writer.id));
    });
  });

  describe('an altered content file', () => {
    const changed = (id: string) => (error: unknown) =>
      error instanceof DamagedContentError && error.message.startsWith(`Session ${id}: content/`);

    it('is refused when read whole, and a new write of the same text replaces it', async () => {
      const store = await folder.open();
      const writer = await store.create({ name: 'altered', origin: { kind: 'capture' } });
      const first = await writer.putContent('the right text\n');
      writeFileSync(first.file, 'the wrong text\n'); // same size: only the hash tells
      const reader = await (await folder.open()).read(writer.id);
      await assert.rejects(reader?.content(first.ref).text() ?? Promise.resolve(), changed(writer.id));

      const again = await writer.putContent('the right text\n');
      assert.equal(again.file, first.file);
      assert.equal(readFileSync(again.file, 'utf8'), 'the right text\n');
      assert.equal(
        await (await folder.open()).read(writer.id).then((r) => r?.content(first.ref).text()),
        'the right text\n',
      );
      await writer.close();
    });

    it('of another size is refused by a page read too, which does not read the whole file', async () => {
      const store = await folder.open();
      const writer = await store.create({ name: 'altered', origin: { kind: 'capture' } });
      const big = await writer.putContent('line\n'.repeat(100_000));
      writeFileSync(big.file, 'line\n'.repeat(100_001));
      const reader = await (await folder.open()).read(writer.id);
      await assert.rejects(reader?.content(big.ref).page(2, 4000) ?? Promise.resolve(), changed(writer.id));
      const again = await writer.putContent('line\n'.repeat(100_000));
      assert.equal(await again.page(2, 4000), 'line\n'.repeat(800));
      await writer.close();
    });
  });
});
