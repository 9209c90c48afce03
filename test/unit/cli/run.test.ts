import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { shellQuote } from '../../../src/cli/options';
import { run as runSubcommand, RUN_USAGE_STATUS } from '../../../src/cli/run';
import { buildCliBundle, runCli, startCli, waitFor, type CliRun } from '../../support/cli/cliProcess';
import { storedOutputs } from '../../support/cli/storedOutputs';
import { tempWorkspace } from '../support/tempWorkspace';

/** The build log of issue 24: 20,402 lines, its one error at line 20,001. */
function buildLog(): string {
  const lines: string[] = [];
  for (let n = 1; n <= 20_402; n++)
    lines.push(n === 20_001 ? 'src/parser.c:112:9: error: expected ; before }' : `[${n}/20402] CC obj/file${n}.o`);
  return lines.join('\n') + '\n';
}

const text = (run: CliRun): string => run.stdout.toString('utf8');

describe('cli run: an agent shell command through the wrapper', function () {
  this.timeout(120_000);
  let cli: string;
  let ws: ReturnType<typeof tempWorkspace>;
  let store: string;
  before(async () => {
    cli = await buildCliBundle();
  });
  beforeEach(() => {
    ws = tempWorkspace();
    store = ws.file('store');
  });
  afterEach(() => ws.dispose());

  const run = (
    command: string,
    options: { input?: string; via?: string; suffix?: string; extra?: string[]; env?: NodeJS.ProcessEnv } = {},
  ) =>
    runCli(cli, ['run', '--store', store, ...(options.extra ?? []), '--', command], {
      cwd: ws.root,
      ...(options.input === undefined ? {} : { input: options.input }),
      ...(options.via === undefined ? {} : { via: options.via }),
      ...(options.suffix === undefined ? {} : { suffix: options.suffix }),
      ...(options.env === undefined ? {} : { env: options.env }),
    });

  it('exits with the command status: 0, 1, 42, and 128+n for a signal', async () => {
    assert.equal((await run('true')).status, 0);
    assert.equal((await run('exit 1')).status, 1);
    assert.equal((await run('echo x; exit 42')).status, 42);
    assert.equal((await run('kill -TERM $$')).status, 128 + 15);
    assert.equal((await run('kill -KILL $$')).status, 128 + 9);
  });

  it('passes stdin through to the command', async () => {
    const result = await run('cat; echo done', { input: 'line one\nline two\n' });
    assert.equal(text(result), 'line one\nline two\ndone\n');
  });

  it('keeps stdout and stderr in the order the command wrote them, on stdout', async () => {
    const result = await run('echo out1; echo err1 >&2; echo out2; echo err2 >&2; printf end');
    assert.equal(text(result), 'out1\nerr1\nout2\nerr2\nend');
    assert.equal(result.stderr.length, 0);
  });

  it('prints a short output byte for byte, and stores nothing for it', async () => {
    const result = await run(String.raw`printf 'caf\303\251 \377\376 raw\r\nno newline'`);
    const expected = Buffer.concat([
      Buffer.from('caf'),
      Buffer.from([0xc3, 0xa9, 0x20, 0xff, 0xfe]),
      Buffer.from(' raw\r\nno newline'),
    ]);
    assert.deepEqual(result.stdout, expected);
    assert.equal(result.status, 0);
    assert.equal(existsSync(path.join(store, 'sessions')), false, 'a short output opens no store');
  });

  const whichShell = 'echo "${BASH_VERSION:+bash}"';

  it('runs the command with the shell that started the wrapper, whatever $SHELL says', async () => {
    // `; exit $?` keeps bash as the wrapper's parent: bash runs a line's last command in its own place (exec).
    const stays = { suffix: '; exit $?' };
    assert.equal(
      text(await run(whichShell, { via: '/usr/bin/bash', ...stays, env: { SHELL: '/usr/bin/dash' } })),
      'bash\n',
    );
    assert.equal(
      text(await run(whichShell, { via: '/usr/bin/dash', ...stays, env: { SHELL: '/usr/bin/bash' } })),
      '\n',
    );
  });

  it('runs it with $SHELL when the shell that started it is gone (exec), else with /bin/sh', async () => {
    assert.equal(text(await run(whichShell, { via: '/usr/bin/bash', env: { SHELL: '/usr/bin/bash' } })), 'bash\n');
    assert.equal(text(await run(whichShell, { via: '/usr/bin/bash', env: { SHELL: '/usr/bin/dash' } })), '\n');
    assert.equal(
      text(await run(whichShell, { via: '/usr/bin/bash', env: { SHELL: '' } })),
      '\n',
      '/bin/sh is dash here',
    );
  });

  it('keeps a long output whole and prints a bounded preview starting with the handle and the error line', async () => {
    const log = buildLog();
    writeFileSync(ws.file('build.log'), log);
    const result = await run('cat build.log; exit 2', {
      extra: ['--agent', 'claude-code', '--conversation', 'conv-1'],
    });
    assert.equal(result.status, 2);
    const preview = text(result);
    assert.match(
      preview,
      new RegExp(
        `^fd:1 in session Claude Code \\S+ \\S+ \\(([0-9a-f]{8})\\): the whole output, ${log.length.toLocaleString('en-US')} characters, 20,402 lines, exit code 2\\.\n`,
      ),
    );
    assert.ok(preview.length <= 8000 + 1, `${preview.length}`);
    assert.match(preview, /\n20001: src\/parser\.c:112:9: error: expected ; before }\n/);
    assert.match(preview, /Read lines: .* read --store .* --session [0-9a-f]{8} fd:1 --lines 1-200\n/);
    assert.ok(preview.includes('[1/20402] CC obj/file1.o\n') && preview.endsWith('[20402/20402] CC obj/file20402.o\n'));
    const [kept, ...others] = await storedOutputs(store);
    assert.equal(others.length, 0);
    assert.ok(kept);
    assert.equal(kept.text, log, 'the whole output, byte for byte');
    assert.deepEqual(kept.meta.origin, { kind: 'agentShell', agent: 'claude-code', conversation: 'conv-1' });
    assert.equal(kept.descriptor.source, 'tool_output');
    assert.equal(kept.descriptor.command?.commandLine, 'cat build.log; exit 2');
    assert.equal(kept.descriptor.command?.exitCode, 2);
    assert.equal(readdirSync(path.join(store, 'spool')).length, 0, 'the spool is removed');
  });

  it('names the MCP tools in the preview with --mcp', async () => {
    const result = await run('seq 1 5000', { extra: ['--mcp', '--preview-chars', '2000'] });
    const preview = text(result);
    assert.ok(preview.length <= 2001);
    assert.match(preview, /^fd:1 in session Terminal /);
    assert.match(preview, /read_fd\(fd="fd:1", session="[0-9a-f]{8}"\)/);
    assert.match(preview, /search_fd\(/);
    assert.match(preview, /fd_to_file\(fd="fd:1", session="[0-9a-f]{8}", file_path=/);
  });

  it('keeps two parallel runs of one conversation, neither waiting for the other to end', async () => {
    const release = ws.file('release');
    const waitForRelease = `while [ ! -e ${release} ]; do sleep 0.02; done`;
    const args = (name: string) => [
      'run',
      '--store',
      store,
      '--agent',
      'codex',
      '--conversation',
      'same',
      '--preview-chars',
      '1000',
      '--',
      `seq 1 3000 | sed 's/^/${name} /'; ${waitForRelease}`,
    ];
    const a = startCli(cli, args('a'), { cwd: ws.root });
    const b = startCli(cli, args('b'), { cwd: ws.root });
    // Both are spooling their output at once: neither holds the session while its command runs.
    await waitFor(
      () => existsSync(path.join(store, 'spool')) && readdirSync(path.join(store, 'spool')).length === 2,
      'two spools',
    );
    writeFileSync(release, '');
    const [ra, rb] = await Promise.all([a.done, b.done]);
    assert.equal(ra.status, 0);
    assert.equal(rb.status, 0);
    const outputs = await storedOutputs(store);
    assert.equal(outputs.length, 2);
    assert.equal(new Set(outputs.map((o) => o.meta.id)).size, 1, 'one session');
    assert.deepEqual(outputs.map((o) => o.descriptor.id).sort(), ['fd:1', 'fd:2']);
    const expected = (name: string) => Array.from({ length: 3000 }, (_, i) => `${name} ${i + 1}\n`).join('');
    assert.deepEqual(outputs.map((o) => o.text).sort(), [expected('a'), expected('b')]);
  });

  it('creates a missing store folder', async () => {
    store = ws.file('new/store');
    const result = await run('seq 1 5000');
    assert.match(text(result), /^fd:1 in session /);
    assert.equal((await storedOutputs(store)).length, 1);
  });

  it('passes the whole output through with one note when the store cannot be used, the status kept', async () => {
    writeFileSync(store, 'not a folder');
    const result = await run('seq 1 20000; exit 3');
    assert.equal(result.status, 3);
    assert.equal(text(result), Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join(''));
    const note = result.stderr.toString('utf8');
    assert.match(note, /^fdref: the output was not kept \(.+\); it is shown whole above\.\n$/);
  });

  it('refuses a store of a later layout version before writing into it, the output passed through whole', async () => {
    // The wrapper streams without loading the store (storeFolder.ts): the version is still checked first.
    mkdirSync(store);
    writeFileSync(path.join(store, 'store.json'), JSON.stringify({ format: 'fdref.store', version: 99 }));
    const result = await run('seq 1 20000; exit 5');
    assert.equal(result.status, 5);
    assert.equal(text(result), Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join(''));
    assert.match(result.stderr.toString('utf8'), /^fdref: the output was not kept \(.*layout version 99.*\)/);
    assert.equal(existsSync(path.join(store, 'spool')), false);
  });

  it('passes the whole output through when storing fails while the command runs', async () => {
    // The command removes the store's spool midway: the sealed output can no longer be moved in.
    const spool = `'${store}/spool'`;
    const result = await run(
      `seq 1 10000; until [ -n "$(ls -A ${spool} 2>/dev/null)" ]; do sleep 0.02; done; rm -rf ${spool}; seq 10001 20000; exit 4`,
    );
    assert.equal(result.status, 4);
    assert.equal(text(result), Array.from({ length: 20000 }, (_, i) => `${i + 1}\n`).join(''));
    assert.match(result.stderr.toString('utf8'), /^fdref: the output was not kept/);
  });

  it('passes the whole output through when a write to the store fails midway (a file size limit)', async () => {
    // The wrapper may write at most 1 MiB to any file (EFBIG past it, SIGXFSZ ignored): storing fails after ~1 MiB
    // of a 4.7 MB output, while the command (which writes only to its pipe) goes on.
    const expected = Array.from({ length: 700_000 }, (_, i) => `${i + 1}\n`).join('');
    const result = await runCli(cli, ['run', '--store', store, '--', 'seq 1 700000; exit 6'], {
      cwd: ws.root,
      via: '/usr/bin/bash',
      prefix: "trap '' XFSZ; ulimit -f 1024; exec",
    });
    assert.equal(result.status, 6);
    assert.equal(text(result).length, expected.length);
    assert.ok(text(result) === expected, 'the whole output, in order');
    assert.match(result.stderr.toString('utf8'), /^fdref: the output was not kept \(.*(EFBIG|too large).*\)/i);
  });

  it('runs in-process as a sub-command, writing to the streams it is given', async () => {
    const stdout = new PassThrough();
    const out: Buffer[] = [];
    stdout.on('data', (c: Buffer) => out.push(c));
    const status = await runSubcommand(['--store', store, '--agent', 'gemini-cli', '--', 'seq 1 3000; exit 5'], {
      stdin: new PassThrough(),
      stdout,
      stderr: new PassThrough(),
      env: { ...process.env, FDREF_CLI: 'fdref-cli' },
      cwd: ws.root,
    });
    assert.equal(status, 5);
    const preview = Buffer.concat(out).toString('utf8');
    assert.match(preview, /^fd:1 in session Gemini CLI \d{4}-\d{2}-\d{2} \([0-9a-f]{8}\): .* exit code 5\.\n/);
    assert.match(preview, /\nLast lines: fdref-cli tail --store \S+ --session [0-9a-f]{8} fd:1 100\n/);
  });

  it('keeps the command status when its reader closes stdout early', async () => {
    writeFileSync(ws.file('not-a-store'), '');
    for (const where of [store, ws.file('not-a-store')]) {
      const line = [process.execPath, cli, 'run', '--store', where, '--', 'seq 1 300000; exit 7']
        .map(shellQuote)
        .join(' ');
      const result = spawnSync('/usr/bin/bash', ['-c', `${line} | head -n 1; echo "status \${PIPESTATUS[0]}"`], {
        cwd: ws.root,
        encoding: 'utf8',
      });
      assert.match(result.stdout, /\nstatus 7\n$/, where);
    }
  });

  it('exits 127 for a command that is not found, 127 for a shell that is not there, 125 for a wrong option', async () => {
    const missing = await run('no-such-command-fdref');
    assert.equal(missing.status, 127);
    assert.match(text(missing), /not found/);
    const noShell = await runCli(cli, ['run', '--store', store, '--', 'true'], {
      cwd: ws.root,
      via: 'none',
      env: { SHELL: '/nonexistent/bash' },
    });
    assert.equal(noShell.status, 127);
    assert.match(noShell.stderr.toString('utf8'), /^fdref run: cannot run the shell \/nonexistent\/bash .*ENOENT\n$/);
    const wrong = await runCli(cli, ['run', '--store', store, '--frobnicate', '--', 'true'], { cwd: ws.root });
    assert.equal(wrong.status, RUN_USAGE_STATUS);
    assert.equal(wrong.stderr.toString('utf8'), 'fdref run: unknown option "--frobnicate" (see run --help)\n');
    const none = await runCli(cli, ['run', '--', 'true'], { cwd: ws.root });
    assert.equal(none.status, RUN_USAGE_STATUS);
    assert.match(none.stderr.toString('utf8'), /no store/);
    const longId = await runCli(cli, ['run', '--store', store, '--conversation', 'c'.repeat(300), '--', 'true'], {
      cwd: ws.root,
    });
    assert.equal(longId.status, RUN_USAGE_STATUS);
    assert.match(longId.stderr.toString('utf8'), /--conversation is 300 characters/);
    const unknown = await runCli(cli, ['frob'], { cwd: ws.root });
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr.toString('utf8'), /^fdref: unknown sub-command "frob"; one of run, read/);
  });

  it('runs several arguments after -- as a command and its arguments', async () => {
    const result = await runCli(cli, ['run', '--store', store, '--', 'printf', '%s|', 'a b', "it's"], { cwd: ws.root });
    assert.equal(text(result), "a b|it's|");
  });
});
