import assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import type { CommandRun } from '../../../src/core/descriptors/descriptorDetails';
import { CommandOutput, SLICE_CHARS, TailOutput } from '../../../src/core/terminal/commandOutput';
import { CommandCapture, type CaptureMode, type StoreTarget } from '../../../src/terminal/commandCapture';

/** Output chunks handed to the capture as `read()` would, one at a time, until closed. */
class OutputChannel implements AsyncIterable<string> {
  private readonly chunks: string[] = [];
  private closed = false;
  private wake: (() => void) | undefined;

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<string> {
    for (;;) {
      const chunk = this.chunks.shift();
      if (chunk !== undefined) {
        yield chunk;
        continue;
      }
      if (this.closed) return;
      await new Promise<void>((resolve) => (this.wake = resolve));
    }
  }
}

/**
 * A shell integration execution as the capture sees it. The real one comes only from a terminal's shell; the
 * integration tests drive it there, these tests the cases a real terminal cannot be made to produce on demand.
 */
function execution(commandLine: string, channel: OutputChannel): vscode.TerminalShellExecution {
  let reads = 0;
  return {
    commandLine: { value: commandLine, isTrusted: true, confidence: 2 },
    cwd: undefined,
    read: () => {
      reads++;
      assert.equal(reads, 1, 'read once');
      return channel;
    },
  };
}

/** A store target that keeps what it is given in memory. */
function memoryTarget(failWrites = false): StoreTarget & { text: string; kept: CommandRun[]; aborted: boolean } {
  const target = {
    text: '',
    kept: [] as CommandRun[],
    aborted: false,
    write: async (piece: string) => {
      if (failWrites) throw new Error('disk full');
      target.text += piece;
    },
    abort: async () => void (target.aborted = true),
    keep: async (command: CommandRun) => {
      target.kept.push(command);
      return { sessionId: 's', descriptorId: `fd:${target.kept.length}` };
    },
  };
  return target;
}

const terminal = {} as vscode.Terminal;
const start = new Date('2026-11-24T08:00:00.000Z');

/** A capture of `command` streaming into `target`, with a 1 MiB cap; a failure fails the test. */
function storeCapture(
  command: string,
  channel: OutputChannel,
  target: ReturnType<typeof memoryTarget>,
): CommandCapture {
  return new CommandCapture(
    execution(command, channel),
    terminal,
    { kind: 'store', sink: Promise.resolve(target) },
    1 << 20,
    start,
    () => assert.fail('no failure'),
  );
}
const never = (): undefined => undefined;

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 5));
  assert.ok(check(), what);
}

describe('terminal capture: one command', () => {
  it('streams the filtered output into the store and keeps it with its exit code once the shell reports the end', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget();
    const mode: CaptureMode = { kind: 'store', sink: Promise.resolve(target) };
    const failures: string[] = [];
    const capture = new CommandCapture(execution('make', channel), terminal, mode, 1 << 20, start, (_c, m) =>
      failures.push(m),
    );
    channel.push('\x1b[1mbuild\x1b');
    channel.push('[0m ok\r\n');
    await until(() => target.text === 'build ok\n', 'streamed before the end');
    channel.close();
    capture.ended(2, 'make all', new Date('2026-11-24T08:00:02.000Z'), never);
    await until(() => target.kept.length === 1, 'kept');
    assert.deepEqual(target.kept[0], {
      commandLine: 'make all',
      exitCode: 2,
      startedAt: start.toISOString(),
      endedAt: '2026-11-24T08:00:02.000Z',
      outputChars: 9,
      cut: false,
    });
    assert.deepEqual(capture.keptAs, { sessionId: 's', descriptorId: 'fd:1', run: target.kept[0] });
    assert.deepEqual(failures, []);
  });

  it('keeps what arrived, marked unfinished, when the window closes while the command runs', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget();
    const capture = storeCapture('tail -f log', channel, target);
    channel.push('line 1\nline 2 without end');
    await until(() => target.text === 'line 1\n', 'the first line streamed');
    await capture.stop();
    channel.push('after the stop\n');
    channel.close();
    assert.equal(target.text, 'line 1\nline 2 without end');
    assert.equal(target.kept.length, 1);
    assert.equal(target.kept[0]?.unfinished, true);
    assert.equal(target.kept[0]?.endedAt, undefined);
    assert.equal(target.kept[0]?.exitCode, undefined);
  });

  it('drops what it streamed when the command line the shell reports at the end is excluded', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget();
    const capture = storeCapture('cat x', channel, target);
    channel.push('TOKEN=abc\n');
    channel.close();
    const pattern = { source: 'secret', regex: /secret/ };
    capture.ended(0, 'cat secret.txt', new Date(), (line) => (pattern.regex.test(line) ? pattern : undefined));
    await until(() => target.aborted, 'aborted');
    assert.deepEqual(target.kept, []);
    assert.equal(capture.excludedPattern, pattern);
  });

  it('reports a failed write once, drops the content and reads on without keeping', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget(true);
    const failures: string[] = [];
    const capture = new CommandCapture(
      execution('seq 1 3', channel),
      terminal,
      { kind: 'store', sink: Promise.resolve(target) },
      1 << 20,
      start,
      (_c, m) => failures.push(m),
    );
    channel.push('1\n2\n');
    channel.push('3\n');
    channel.close();
    capture.ended(0, 'seq 1 3', new Date(), never);
    await until(() => target.aborted, 'aborted');
    assert.equal(failures.length, 1);
    assert.match(failures[0] ?? '', /could not keep the output of "seq 1 3": disk full/);
    assert.deepEqual(target.kept, []);
  });

  it('holds the last command in memory and keeps it on demand, running or ended', async () => {
    const channel = new OutputChannel();
    const capture = new CommandCapture(execution('npm test', channel), terminal, { kind: 'memory' }, 8, start, () =>
      assert.fail('no failure'),
    );
    channel.push('pass 1\npass 2\n');
    await new Promise((resolve) => setTimeout(resolve, 20));
    const running = memoryTarget();
    await capture.keepFromMemory(running);
    assert.equal(running.text, '\npass 2\n', 'its end, up to the cap of 8 bytes');
    assert.equal(running.kept[0]?.unfinished, true);
    assert.equal(running.kept[0]?.cut, false);
    assert.equal(running.kept[0]?.startDroppedChars, 6);
    channel.close();
    capture.ended(1, 'npm test', new Date(), never);
    const ended = memoryTarget();
    await capture.keepFromMemory(ended);
    assert.equal(ended.kept[0]?.exitCode, 1);
    assert.equal(ended.kept[0]?.outputChars, 14);
    capture.release();
    const released = memoryTarget();
    await capture.keepFromMemory(released);
    assert.equal(released.text, '', 'released output is gone');
  });

  it('never rejects stop() after a failed write, nor leaves a rejection to be awaited again', async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown): void => void rejections.push(reason);
    process.on('unhandledRejection', onRejection);
    try {
      const channel = new OutputChannel();
      const target = memoryTarget(true);
      const failures: string[] = [];
      const capture = new CommandCapture(
        execution('make', channel),
        terminal,
        { kind: 'store', sink: Promise.resolve(target) },
        1 << 20,
        start,
        (_c, m) => failures.push(m),
      );
      channel.push('building\n');
      await until(() => failures.length === 1, 'the failure reported');
      await capture.stop(); // the terminal closed, or the window
      await capture.stop();
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.deepEqual(rejections, []);
      assert.equal(failures.length, 1);
      assert.deepEqual(target.kept, []);
    } finally {
      process.off('unhandledRejection', onRejection);
    }
  });

  it('waits for the end report however late it comes, so an exclusion it brings still applies', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget();
    const capture = storeCapture('cat', channel, target);
    channel.push('TOKEN=abc\n');
    channel.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.deepEqual(target.kept, [], 'not kept before the end report');
    const pattern = { source: 'secret', regex: /secret/ };
    capture.ended(0, 'cat secret.txt', new Date(), (line) => (pattern.regex.test(line) ? pattern : undefined));
    await until(() => target.aborted, 'aborted');
    assert.deepEqual(target.kept, []);
  });

  it('keeps nothing of a command that printed nothing (cd, clear)', async () => {
    const channel = new OutputChannel();
    const target = memoryTarget();
    const capture = storeCapture('cd src', channel, target);
    channel.push('\x1b]633;P;Cwd=/src\x07\x1b[H\x1b[2J');
    channel.close();
    capture.ended(0, 'cd src', new Date(), never);
    await until(() => target.aborted, 'aborted');
    assert.deepEqual(target.kept, []);
    assert.equal(capture.outputChars, 0);
  });

  it('keeps the whole end of an ended command, also what the host delivers after its end report', async () => {
    const channel = new OutputChannel();
    const capture = new CommandCapture(execution('make', channel), terminal, { kind: 'memory' }, 1 << 20, start, () =>
      assert.fail('no failure'),
    );
    channel.push('compiling\n');
    capture.ended(0, 'make', new Date(), never);
    const target = memoryTarget();
    const keeping = capture.keepFromMemory(target);
    setTimeout(() => {
      channel.push('linking\ndone\n');
      channel.close();
    }, 30);
    const kept = await keeping;
    assert.equal(target.text, 'compiling\nlinking\ndone\n');
    assert.equal(kept.run.outputChars, target.text.length);
    assert.equal(kept.run.startDroppedChars, undefined);
  });

  it('does not read an excluded command at all', () => {
    const channel = new OutputChannel();
    const exec = execution('env', channel);
    const capture = new CommandCapture(
      { ...exec, read: () => assert.fail('read') },
      terminal,
      { kind: 'excluded', pattern: { source: 'env', regex: /env/ } },
      8,
      start,
      () => undefined,
    );
    assert.equal(capture.excludedPattern?.source, 'env');
  });
});

describe('terminal capture: the extension host thread', () => {
  // How long each slice takes is a benchmark figure (`npm run bench`, "terminal: longest block"); here, that a
  // large chunk is cut into slices of SLICE_CHARS with a turn of the event loop between each two, and kept whole.
  it('filters a 16 MB chunk in slices, giving the event loop a turn between every two', async () => {
    const line = '\x1b[32mok\x1b[0m 0123456789 output line\r\n';
    const raw = line.repeat((16 * 1024 * 1024) / line.length);
    const output = new CommandOutput(new TailOutput(Number.POSITIVE_INFINITY), 64 * 1024 * 1024);
    let turns = 0;
    let pushing = true;
    const tick = (): void => {
      turns++;
      if (pushing) setImmediate(tick);
    };
    setImmediate(tick);
    await output.push(raw);
    pushing = false;
    await output.end();
    const slices = Math.ceil(raw.length / SLICE_CHARS);
    assert.ok(turns >= slices - 1, `${turns} turns of the event loop for ${slices} slices`);
    assert.equal(output.outputChars, (raw.length / line.length) * 'ok 0123456789 output line\n'.length);
  });
});
