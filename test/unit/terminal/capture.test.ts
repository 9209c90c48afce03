import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { Session } from '../../../src/core';
import { Content } from '../../../src/core/descriptors/content';
import type { CommandRun } from '../../../src/core/descriptors/descriptorDetails';
import { commandDescription, commandLabel, commandTooltipLines } from '../../../src/core/presentation/describe';
import { SessionSync } from '../../../src/core/store';
import {
  CommandOutput,
  commandRun,
  MEMORY_TAIL_CHARS,
  prefixWithin,
  suffixWithin,
  TailOutput,
} from '../../../src/core/terminal/commandOutput';
import {
  compileExcludePatterns,
  DEFAULT_EXCLUDE_PATTERNS,
  excludedBy,
} from '../../../src/core/terminal/excludePatterns';
import { MAX_MEGABYTES_LIMIT, terminalSettings } from '../../../src/core/settings/terminalSettings';
import { tempStoreFolder } from '../../support/store/tempStore';

const run: CommandRun = {
  commandLine: 'seq 1 100000',
  cwd: '/work/project',
  exitCode: 0,
  startedAt: '2026-11-24T07:00:00.000Z',
  endedAt: '2026-11-24T07:00:01.500Z',
  outputChars: 588_895,
  cut: false,
};

describe('terminal capture: a command output under its cap', () => {
  it('keeps filtered text up to the cap in UTF-8 bytes, counts the rest and says it was cut', async () => {
    const memory = new TailOutput(Number.POSITIVE_INFINITY);
    const output = new CommandOutput(memory, 10);
    await output.push('\x1b[31mabcd\x1b[0m\r\n');
    await output.push('éé');
    await output.push('ghijk\r\n');
    await output.end();
    let kept = '';
    await memory.replay({ write: async (piece: string) => void (kept += piece) });
    assert.equal(kept, 'abcd\néég');
    assert.equal(Buffer.byteLength(kept), 10);
    assert.equal(output.outputChars, 'abcd\nééghijk\n'.length);
    assert.equal(output.cut, true);
  });

  it('keeps everything below the cap and is not cut', async () => {
    const memory = new TailOutput(Number.POSITIVE_INFINITY);
    const output = new CommandOutput(memory, 1024);
    await output.push('last line without end');
    await output.end();
    let kept = '';
    await memory.replay({ write: async (piece: string) => void (kept += piece) });
    assert.equal(kept, 'last line without end');
    assert.equal(output.cut, false);
    await assert.rejects(output.push('more'), /ended/);
  });

  it('never cuts a surrogate pair', () => {
    assert.equal(prefixWithin('a😀b', 4), 'a');
    assert.equal(prefixWithin('a😀b', 5), 'a😀');
    assert.equal(prefixWithin('abc', 0), '');
    assert.equal(suffixWithin('a😀b', 4), 'b');
    assert.equal(suffixWithin('a😀b', 5), '😀b');
    assert.equal(suffixWithin('abc', 0), '');
    assert.equal(suffixWithin('héllo', 100), 'héllo');
  });

  it('describes an unfinished command without an end time and with unfinished set', () => {
    const described = commandRun({
      commandLine: 'sleep 100',
      cwd: undefined,
      exitCode: undefined,
      startedAt: new Date(run.startedAt),
      endedAt: undefined,
      output: { outputChars: 3, cut: false },
    });
    assert.deepEqual(described, {
      commandLine: 'sleep 100',
      startedAt: run.startedAt,
      unfinished: true,
      outputChars: 3,
      cut: false,
    });
  });
});

/** A small deterministic generator (mulberry32), so a failing case can be replayed. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('terminal capture: the end of an output held in memory', () => {
  it('holds the last N characters of the whole output, for any chunking (property)', async () => {
    const next = random(13);
    for (let round = 0; round < 300; round++) {
      const maxChars = 1 + Math.floor(next() * 50);
      const tail = new TailOutput(maxChars);
      let whole = '';
      const pieces = Math.floor(next() * 40);
      for (let i = 0; i < pieces; i++) {
        const length = Math.floor(next() * (next() < 0.1 ? 120 : 12));
        let piece = '';
        for (let j = 0; j < length; j++) piece += String.fromCharCode(97 + Math.floor(next() * 26));
        whole += piece;
        await tail.write(piece);
        assert.equal(tail.text(), whole.slice(-maxChars), `round ${round}, after piece ${i}`);
        assert.equal(tail.droppedChars + tail.heldChars, whole.length);
      }
      let replayed = '';
      const skipped = await tail.replay({ write: async (piece: string) => void (replayed += piece) });
      assert.equal(replayed, whole.slice(-maxChars));
      assert.equal(skipped, whole.length - replayed.length, 'the characters dropped from the front');
    }
  });

  it('replays only the end that fits a byte cap, without splitting a character, and counts what it left out', async () => {
    const tail = new TailOutput(100);
    for (const piece of ['abc\n', 'ééé\n', '😀x\n']) await tail.write(piece);
    let replayed = '';
    const skipped = await tail.replay({ write: async (piece: string) => void (replayed += piece) }, 9);
    assert.equal(replayed, 'é\n😀x\n');
    assert.equal(Buffer.byteLength(replayed), 9);
    assert.equal(skipped, 'abc\néé'.length);
  });

  it('holds at most MEMORY_TAIL_CHARS of a long output, in time linear in its length', async () => {
    const tail = new TailOutput();
    const line = '0123456789 a line of output\n';
    const started = performance.now();
    let total = 0;
    for (let i = 0; i < 400_000; i++) {
      await tail.write(line);
      total += line.length;
    }
    const took = performance.now() - started;
    assert.equal(tail.heldChars, MEMORY_TAIL_CHARS);
    assert.equal(tail.droppedChars, total - MEMORY_TAIL_CHARS);
    assert.ok(tail.text().endsWith(line));
    assert.ok(took < 2000, `11 MB in pieces took ${took.toFixed(0)} ms`);
  });
});

describe('terminal capture: exclude patterns and settings', () => {
  it('reports an invalid pattern and still applies the others', () => {
    const { patterns, problems } = compileExcludePatterns(['(', 'secret', 42]);
    assert.deepEqual(
      patterns.map((p) => p.source),
      ['secret'],
    );
    assert.equal(problems.length, 2);
    assert.match(problems[0] ?? '', /fdref\.terminal\.exclude\[0\] "\(" is not a valid regular expression/);
    assert.match(problems[1] ?? '', /fdref\.terminal\.exclude\[2\] must be a regular expression as text \(got 42\)/);
    assert.equal(excludedBy(patterns, 'show-secret --all')?.source, 'secret');
    assert.equal(excludedBy(patterns, 'ls -la'), undefined);
  });

  it('excludes by default commands that print secrets, and not ordinary ones', () => {
    const { patterns, problems } = compileExcludePatterns(DEFAULT_EXCLUDE_PATTERNS);
    assert.deepEqual(problems, []);
    for (const line of [
      'env',
      'printenv',
      'gh auth token',
      'gcloud auth print-access-token',
      'cat .env',
      'cat ~/.ssh/id_rsa',
      'kubectl get secret db -o yaml',
      'vault kv get secret/x',
    ])
      assert.ok(excludedBy(patterns, line), `${line} is excluded`);
    for (const line of [
      'seq 1 100000',
      'npm test',
      'ls -la',
      'git status',
      'environment-check',
      "printf 'x'",
      "sh -c 'exit 3'",
    ])
      assert.equal(excludedBy(patterns, line), undefined, `${line} is kept`);
  });

  it('has the manifest defaults, and replaces bad values by the defaults saying so', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(path.resolve(__dirname, '..'), '..', '..', 'package.json'), 'utf8'),
    ) as {
      contributes: { configuration: { properties: Record<string, { default: unknown; maximum?: number }> } };
    };
    const properties = manifest.contributes.configuration.properties;
    assert.equal(properties['fdref.terminal.maxMegabytes']?.maximum, MAX_MEGABYTES_LIMIT);
    assert.equal(MAX_MEGABYTES_LIMIT, 1024);
    const tooLarge = terminalSettings.validate({ maxMegabytes: 4096 });
    assert.equal(tooLarge.settings.maxMegabytes, 64);
    assert.equal(tooLarge.problems.length, 1);
    const defaults = terminalSettings.validate({}).settings;
    assert.equal(properties['fdref.terminal.keepOutput']?.default, defaults.keepOutput);
    assert.equal(properties['fdref.terminal.maxMegabytes']?.default, defaults.maxMegabytes);
    assert.deepEqual(properties['fdref.terminal.exclude']?.default, DEFAULT_EXCLUDE_PATTERNS);
    assert.deepEqual(
      defaults.exclude.map((p) => p.source),
      DEFAULT_EXCLUDE_PATTERNS,
    );
    const { settings, problems } = terminalSettings.validate({ keepOutput: 'yes', maxMegabytes: 0, exclude: 'env' });
    assert.equal(settings.keepOutput, false);
    assert.equal(settings.maxMegabytes, 64);
    assert.equal(settings.exclude.length, DEFAULT_EXCLUDE_PATTERNS.length);
    assert.equal(problems.length, 3);
    const custom = terminalSettings.validate({ exclude: [] }).settings;
    assert.deepEqual(custom.exclude, [], 'an empty list excludes nothing');
  });

  it('lets no untrusted workspace turn capture on, raise its cap or empty the exclude list (restricted configurations)', () => {
    const manifest = JSON.parse(
      readFileSync(path.join(path.resolve(__dirname, '..'), '..', '..', 'package.json'), 'utf8'),
    ) as {
      capabilities: { untrustedWorkspaces: { restrictedConfigurations?: string[] } };
    };
    const restricted = manifest.capabilities.untrustedWorkspaces.restrictedConfigurations ?? [];
    for (const key of ['fdref.terminal.keepOutput', 'fdref.terminal.maxMegabytes', 'fdref.terminal.exclude'])
      assert.ok(restricted.includes(key), `${key} is not restricted`);
  });
});

describe('terminal capture: a command descriptor', () => {
  let folder: ReturnType<typeof tempStoreFolder>;
  beforeEach(() => (folder = tempStoreFolder()));
  afterEach(() => folder.dispose());

  it('keeps its command details through the store: streamed, saved, read, opened again', async () => {
    const store = await folder.open();
    const writer = await store.create({ name: 'Terminal 2026-11-24', origin: { kind: 'terminal', day: '2026-11-24' } });
    const session = new Session();
    const sink = writer.createSink();
    await sink.write('1\n2\n');
    const content = writer.content((await sink.seal()).ref);
    session.addDescriptor('tool_output', content, { toolName: 'terminal', command: run });
    session.wrapToolOutput('shell', 'no command here\n'.repeat(1000));
    await new SessionSync(writer).sync(session);
    await writer.close();

    const reader = await (await folder.open()).read(writer.id);
    assert.deepEqual(reader?.lookup('fd:1')?.command, run);
    assert.equal(reader?.lookup('fd:1')?.toolName, 'terminal');
    assert.equal(reader?.lookup('fd:2')?.command, undefined, 'a descriptor without a command has none');
    const { session: opened } = await reader.materialize();
    assert.deepEqual(opened.getDescriptor('fd:1')?.command, run);
  });

  it('keeps its command details through the JSON form, and reads a form without them', () => {
    const session = new Session();
    session.addDescriptor('tool_output', new Content('out\n'), {
      toolName: 'terminal',
      command: { ...run, cut: true, unfinished: true },
    });
    const again = Session.fromJSON(JSON.parse(JSON.stringify(session.toJSON())));
    assert.deepEqual(again.getDescriptor('fd:1')?.command, { ...run, cut: true, unfinished: true });
    const data = session.toJSON() as { descriptors: { command?: unknown }[] };
    delete data.descriptors[0]?.command;
    assert.equal(Session.fromJSON(data).getDescriptor('fd:1')?.command, undefined);
    (data.descriptors[0] as { command?: unknown }).command = { commandLine: 'x' };
    assert.throws(() => Session.fromJSON(data), /Invalid session data/);
  });

  it('is shown by its command line, exit code and size', () => {
    assert.equal(commandLabel('fd:3', run), 'fd:3 · seq 1 100000');
    assert.equal(commandDescription(run, 588_895), 'exit 0 · 588,895 chars');
    assert.equal(commandDescription({ ...run, exitCode: 3, outputChars: 0 }, 0), 'exit 3 · 0 chars');
    assert.equal(
      commandDescription({ ...run, cut: true, outputChars: 3_000_000 }, 1024 * 1024),
      'exit 0 · cut at 1.0 MB of 3,000,000 chars',
    );
    const { endedAt: _e, exitCode: _x, ...running } = run;
    assert.equal(commandDescription({ ...running, unfinished: true }, 10), 'running when kept · 588,895 chars');
    assert.equal(
      commandLabel('fd:1', { commandLine: `for i in 1 2; do\n  echo $i\ndone ${'x'.repeat(100)}` }),
      'fd:1 · for i in 1 2; do',
    );
    const tooltip = commandTooltipLines(run, (iso) => iso).join('\n');
    assert.match(
      tooltip,
      /\$ seq 1 100000\nIn \/work\/project\nStarted 2026-11-24T07:00:00.000Z\nEnded .*\nExit code 0/,
    );
  });
});
