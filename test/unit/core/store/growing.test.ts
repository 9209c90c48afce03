import assert from 'node:assert/strict';
import { promises as fs, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { storeUsage } from '../../../../src/core/store';
import { tempStoreFolder } from '../../../support/store/tempStore';

/** Counts the bytes every file handle of this process reads while `run` runs. */
async function bytesReadDuring(run: () => Promise<unknown>, probe: string): Promise<number> {
  const handle = await fs.open(probe, 'r');
  const proto = Object.getPrototypeOf(handle) as { read: (...args: unknown[]) => Promise<{ bytesRead: number }> };
  await handle.close();
  const original = proto.read;
  let total = 0;
  proto.read = async function (this: unknown, ...args: unknown[]) {
    const result = await original.apply(this, args);
    total += result.bytesRead;
    return result;
  };
  try {
    await run();
  } finally {
    proto.read = original;
  }
  return total;
}

describe('store: a descriptor that grows while its content is written', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  const command = { commandLine: 'make', cwd: '/w', startedAt: '2026-01-01T00:00:00.000Z', outputChars: 0, cut: false };

  it('shows readers in another store instance a consistent prefix: never past the record, never half a character', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const sink = writer.createSink();
    await sink.write('é first\n');
    const n = await writer.startGrowing(
      {
        source: 'tool_output',
        toolName: 'run_command',
        command: { ...command, unfinished: true },
        createdAt: command.startedAt,
        pid: 42,
      },
      sink,
    );
    await writer.grew(n, await sink.flushNow());
    // Another process's view: its own store, its own cache.
    const other = await folder.open();
    const reader = await other.read(writer.id);
    assert.ok(reader);
    const first = reader.lookup(`fd:${n}`);
    assert.equal(first?.growing?.state, 'running');
    assert.equal(first?.growing?.pid, 42);
    assert.equal(first?.command?.unfinished, true);
    assert.equal(await first?.content.text(), 'é first\n');
    assert.deepEqual(
      reader.descriptors().map((d) => d.id),
      [`fd:${n}`],
    );
    // Written but not recorded: not seen. The high half of a pair waits for its low half.
    await sink.write('second 🙂 x\ud83d');
    const unrecorded = await sink.flushNow(); // in the file, not yet in the journal
    assert.equal(unrecorded.chars, 'é first\nsecond 🙂 x'.length, 'the lone high half waits');
    await reader.refresh();
    assert.equal(await reader.lookup(`fd:${n}`)?.content.text(), 'é first\n');
    const fresh = await (await folder.open()).read(writer.id); // nothing cached
    assert.equal(await fresh?.lookup(`fd:${n}`)?.content.text(), 'é first\n');
    assert.equal(await fresh?.lookup(`fd:${n}`)?.content.tail(3), 'st\n');
    await writer.grew(n, await sink.flushNow());
    await reader.refresh();
    const second = reader.lookup(`fd:${n}`);
    assert.equal(await second?.content.text(), 'é first\nsecond 🙂 x');
    assert.equal(second?.content.totalLines, 2);
    await sink.write('\ude00 end\n');
    await writer.grew(n, await sink.flushNow());
    await reader.refresh();
    assert.equal(await reader.lookup(`fd:${n}`)?.content.tail(7), '😀 end\n');
    // Store usage counts the growing file.
    const usage = await storeUsage(store);
    const contentFolder = path.join(store.sessionFolder(writer.id), 'content');
    const grow = readdirSync(contentFolder).find((name) => name.startsWith('grow-'));
    assert.ok(grow, 'the growing file is in the content folder');
    assert.ok((usage.sessions[0]?.bytes ?? 0) >= statSync(path.join(contentFolder, grow)).size);
    // Completed by its own number: a content under its hash, as any other; the growing file is gone.
    const { ref } = await sink.seal();
    const id = await writer.addDescriptor(
      {
        n,
        source: 'tool_output',
        toolName: 'run_command',
        command: { ...command, exitCode: 0, outputChars: 25 },
        createdAt: command.startedAt,
      },
      ref,
    );
    assert.equal(id, `fd:${n}`);
    await reader.refresh();
    const done = reader.lookup(id);
    assert.equal(done?.growing, undefined);
    assert.equal(done?.command?.exitCode, 0);
    assert.equal(await done?.content.text(), 'é first\nsecond 🙂 x😀 end\n');
    assert.deepEqual(reader.growingFds(), []);
    assert.ok(!readdirSync(contentFolder).some((name) => name.startsWith('grow-')));
    assert.equal(reader.nextFd, n + 1);
  });

  it('reads the end of a growing output by what was added, not the whole output', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const sink = writer.createSink();
    const n = await writer.startGrowing({ source: 'tool_output', createdAt: command.startedAt }, sink);
    const line = 'x'.repeat(99) + '\n';
    for (let i = 0; i < 40; i++) await sink.write(line.repeat(1000)); // 4 MB
    await writer.grew(n, await sink.flushNow());
    const reader = await (await folder.open()).read(writer.id);
    assert.ok(reader);
    assert.equal(await reader.lookup(`fd:${n}`)?.content.tail(100), line);
    await sink.write('the end\n');
    await writer.grew(n, await sink.flushNow());
    await reader.refresh();
    const content = reader.lookup(`fd:${n}`)?.content;
    assert.equal(content?.length, 4_000_008);
    let tail = '';
    const read = await bytesReadDuring(
      async () => {
        tail = (await content?.tail(8)) ?? '';
      },
      path.join(store.sessionFolder(writer.id), 'meta.json'),
    );
    assert.equal(tail, 'the end\n');
    assert.ok(read < 1_000_000, `reading the end read ${read} bytes of a 4 MB output`);
    await sink.abort();
  });

  it('marks a descriptor cut off when its writer is gone, and the next writer completes it as unfinished', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const sink = writer.createSink();
    await sink.write('kept\n');
    const n = await writer.startGrowing(
      { source: 'tool_output', command: { ...command, unfinished: true }, createdAt: command.startedAt },
      sink,
    );
    await writer.grew(n, await sink.flushNow());
    await sink.write('written after the last record\n');
    await sink.flushNow();
    // The writer stops without completing it (its lease given up, as a killed process's would be taken over).
    await writer.close();
    const other = await folder.open();
    const reader = await other.read(writer.id);
    assert.ok(reader);
    assert.equal(reader.problem, undefined);
    const cut = reader.lookup(`fd:${n}`);
    assert.equal(cut?.growing?.state, 'cut off');
    assert.equal(await cut?.content.text(), 'kept\n');
    const next = await other.openWriter(writer.id);
    await reader.refresh();
    const completed = reader.lookup(`fd:${n}`);
    assert.equal(completed?.growing, undefined);
    assert.equal(completed?.command?.unfinished, true);
    assert.equal(completed?.command?.outputChars, 5);
    assert.equal(await completed?.content.text(), 'kept\n');
    assert.ok(!readdirSync(path.join(store.sessionFolder(writer.id), 'content')).some((f) => f.startsWith('grow-')));
    await next.close();
  });

  it('refuses a second start of a number, and a completion of a number never started takes it as any new one', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 's', origin: { kind: 'capture' } });
    const sink = writer.createSink();
    const n = await writer.startGrowing({ source: 'tool_output', createdAt: command.startedAt }, sink);
    await assert.rejects(
      writer.startGrowing({ n, source: 'tool_output', createdAt: command.startedAt }, writer.createSink()),
      /already exists/,
    );
    // A descriptor added meanwhile takes the next number, not the growing one's.
    const other = await writer.putContent('other');
    assert.equal(
      await writer.addDescriptor({ source: 'user_input', createdAt: command.startedAt }, other),
      `fd:${n + 1}`,
    );
    await sink.abort();
  });
});
