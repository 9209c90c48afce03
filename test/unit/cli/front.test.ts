import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { FRONT, frontCommandLine, type WrapperOptions } from '../../../src/core/agents/hooks/wrapperCommand';
import { buildCliBundle, runCli, startShellLine, type CliRun } from '../../support/cli/cliProcess';
import { storedOutputs, storedTexts } from '../../support/cli/storedOutputs';
import { tempWorkspace } from '../support/tempWorkspace';

/** `1\n2\n…n\n`, as `seq 1 n` prints it. */
const seq = (from: number, to: number): string =>
  Array.from({ length: to - from + 1 }, (_, i) => `${from + i}\n`).join('');

const text = (run: CliRun): string => run.stdout.toString('utf8');

describe('cli: the shell front the hooks run commands through on Linux', function () {
  this.timeout(120_000);
  let cli: string;
  let ws: ReturnType<typeof tempWorkspace>;
  let store: string;
  let tmp: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  beforeEach(() => {
    ws = tempWorkspace();
    store = ws.file('store');
    tmp = ws.file('tmp');
    mkdirSync(tmp);
  });
  afterEach(() => ws.dispose());

  /** Runs the front's command line for `command` as an agent's shell would (`<shell> -c '<line>'`). */
  const front = (
    command: string,
    options: {
      input?: string;
      via?: string;
      /** No `; exit $?` after the line: bash then runs the front in its own place (exec), so Node is its parent. */
      exec?: boolean;
      env?: NodeJS.ProcessEnv;
      launch?: Partial<WrapperOptions>;
    } = {},
  ): Promise<CliRun> => {
    const frontFile = ws.file('front.sh');
    writeFileSync(frontFile, FRONT);
    const line = frontCommandLine(
      { node: process.execPath, cli, store, agent: 'claude-code', conversation: 'conv-1', ...options.launch },
      command,
      frontFile,
    );
    return startShellLine(options.via ?? '/bin/sh', options.exec === true ? line : `${line}; exit $?`, {
      cwd: ws.root,
      env: { TMPDIR: tmp, ...options.env },
      ...(options.input === undefined ? {} : { input: options.input }),
    }).done;
  };

  it('prints a short output byte for byte with its status, and never starts Node for it', async () => {
    const command = String.raw`printf 'caf\303\251 \377 raw\r\n'; echo err >&2; printf 'no newline'; exit 3`;
    // The front's Node is a path that does not exist: a short output must not need it.
    const result = await front(command, { launch: { node: '/nonexistent/node' } });
    assert.deepEqual(
      result.stdout,
      Buffer.concat([
        Buffer.from('caf'),
        Buffer.from([0xc3, 0xa9, 0x20, 0xff]),
        Buffer.from(' raw\r\nerr\nno newline'),
      ]),
    );
    assert.equal(result.status, 3);
    assert.equal(result.stderr.length, 0);
    assert.equal(existsSync(store), false, 'a short output opens no store');
    assert.deepEqual(readdirSync(tmp), [], 'the front leaves no temporary folder');
  });

  it('prints an output of exactly the limit itself, and keeps one byte more', async () => {
    const limit = { launch: { previewChars: 1000 } };
    const exact = await front(`head -c 1000 /dev/zero | tr '\\0' a`, limit);
    assert.equal(text(exact), 'a'.repeat(1000));
    assert.equal(existsSync(store), false);
    const over = await front(`head -c 1001 /dev/zero | tr '\\0' a`, limit);
    assert.match(
      text(over),
      /^fd:1 in session Claude Code .*: the whole output, 1,001 characters, 1 line, exit code 0\.\n/,
    );
    assert.deepEqual(await storedTexts(store), ['a'.repeat(1001)]);
  });

  it('keeps a long output whole with the handle first, the error line, stdin passed through and the status kept', async () => {
    const lines = seq(1, 20_000) + 'src/parser.c:112:9: error: expected ; before }\n' + seq(20_001, 20_400);
    writeFileSync(ws.file('build.log'), lines);
    const result = await front('cat build.log; cat; exit 2', { input: 'from stdin\n' });
    assert.equal(result.status, 2);
    const preview = text(result);
    assert.match(preview, /^fd:1 in session Claude Code \S+ \S+ \([0-9a-f]{8}\): the whole output, .* exit code 2\.\n/);
    assert.match(preview, /\n20001: src\/parser\.c:112:9: error: expected ; before }\n/);
    assert.ok(preview.endsWith('20400\nfrom stdin\n'), preview.slice(-100));
    assert.deepEqual(await storedTexts(store), [lines + 'from stdin\n']);
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('keeps stdout and stderr in the order the command wrote them', async () => {
    const result = await front('for i in $(seq 1 3000); do echo "out $i"; echo "err $i" >&2; done', {
      launch: { previewChars: 1000 },
    });
    assert.equal(result.status, 0);
    const expected = Array.from({ length: 3000 }, (_, i) => `out ${i + 1}\nerr ${i + 1}\n`).join('');
    assert.deepEqual(await storedTexts(store), [expected]);
  });

  it('exits as the command did: a status, or 128+n for signal n', async () => {
    assert.equal((await front('exit 42')).status, 42);
    assert.equal((await front('seq 1 100000; kill -TERM $$')).status, 128 + 15);
    assert.equal((await front('kill -KILL $$')).status, 128 + 9);
  });

  it('runs the command with the shell that started it, else $SHELL, else /bin/sh', async () => {
    const which = 'echo "${BASH_VERSION:+bash}"';
    const bash = '/usr/bin/bash';
    assert.equal(text(await front(which, { via: bash, env: { SHELL: '/usr/bin/dash' } })), 'bash\n');
    assert.equal(text(await front(which, { via: '/usr/bin/dash', env: { SHELL: bash } })), '\n');
    // bash runs the front in its own place: the parent is Node, not a shell.
    assert.equal(text(await front(which, { via: bash, exec: true, env: { SHELL: bash } })), 'bash\n');
    assert.equal(text(await front(which, { via: bash, exec: true, env: { SHELL: '/usr/bin/dash' } })), '\n');
    assert.equal(text(await front(which, { via: bash, exec: true, env: { SHELL: 'bash' } })), '\n', 'not absolute');
    assert.equal(text(await front(which, { via: bash, exec: true, env: { SHELL: '' } })), '\n', '/bin/sh is dash');
  });

  it('prints a long output whole, with a note, when Node cannot start; the status kept', async () => {
    const result = await front('seq 1 20000; exit 7', { launch: { node: '/nonexistent/node' } });
    assert.equal(result.status, 7);
    assert.ok(text(result) === seq(1, 20_000), 'the whole output, in order');
    assert.match(result.stderr.toString('utf8'), /fdref: the output was not kept \(its tool did not start\)\n$/);
    assert.deepEqual(readdirSync(tmp), []);
  });

  it('runs the command unkept, with a note, when it cannot make its temporary folder', async () => {
    const result = await front('seq 1 20000; exit 4', { env: { TMPDIR: ws.file('no such folder') } });
    assert.equal(result.status, 4);
    assert.ok(text(result) === seq(1, 20_000));
    assert.match(result.stderr.toString('utf8'), /fdref: the output was not kept \(no temporary folder\)\n$/);
  });

  it('passes a long output through whole when the store cannot be used, as run does', async () => {
    writeFileSync(store, 'a file where the store should be');
    const result = await front('seq 1 20000; exit 5');
    assert.equal(result.status, 5);
    assert.ok(text(result) === seq(1, 20_000));
    assert.match(
      result.stderr.toString('utf8'),
      /^fdref: the output was not kept \(.+\); it is shown whole above\.\n$/,
    );
  });

  it('take: says what is wrong when the front left nothing, and exits 125', async () => {
    const none = await runCli(cli, ['take'], { cwd: ws.root });
    assert.equal(none.status, 125);
    assert.match(none.stderr.toString('utf8'), /^fdref take: no folder/);
    const missing = await runCli(cli, ['take', ws.file('gone'), '--store', store, '--', 'true'], { cwd: ws.root });
    assert.equal(missing.status, 125);
    assert.match(missing.stderr.toString('utf8'), /^fdref take: .*ENOENT/);
    assert.equal(existsSync(store), false);
  });

  it('writes the same line wherever the store and command hold quotes, and hands take the command unchanged', async () => {
    const command = `printf '%s\\n' "it's" \`echo 'a b'\` $((1+1)); seq 1 3000`;
    const result = await front(command, { launch: { store: ws.file("st'o re"), previewChars: 1000 } });
    assert.equal(result.status, 0);
    assert.match(text(result), /^fd:1 /);
    const [kept, ...others] = await storedOutputs(ws.file("st'o re"));
    assert.equal(others.length, 0);
    assert.equal(kept?.descriptor.command?.commandLine, command);
    assert.equal(kept?.text, "it's\na\nb\n2\n" + seq(1, 3000));
  });
});
