import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { buildCliBundle, runCli, type CliRun } from '../../support/cli/cliProcess';
import { tempWorkspace } from '../support/tempWorkspace';

const out = (run: CliRun): string => run.stdout.toString('utf8');
const err = (run: CliRun): string => run.stderr.toString('utf8');

describe('cli read, search, tail, list and keep: the store from a terminal', function () {
  this.timeout(120_000);
  let cli: string;
  let ws: ReturnType<typeof tempWorkspace>;
  let store: string;
  let session: string;
  const cliIn = (args: readonly string[], input?: string) =>
    runCli(cli, args, { cwd: ws.root, ...(input === undefined ? {} : { input }) });

  before(async () => {
    cli = await buildCliBundle();
    ws = tempWorkspace();
    store = ws.file('store');
    const kept = await cliIn([
      'run',
      '--store',
      store,
      '--agent',
      'codex',
      '--',
      'seq 1 3000; echo "boom: error here"; seq 1 10',
    ]);
    session = /\(([0-9a-f]{8})\)/.exec(out(kept))?.[1] ?? '';
    assert.match(out(kept), /^fd:1 in session Codex /);
  });
  after(() => ws.dispose());

  it('reads lines of a descriptor with read_fd', async () => {
    const result = await cliIn(['read', '--store', store, '--session', session, 'fd:1', '--lines', '3000-3002']);
    assert.equal(result.status, 0);
    assert.match(out(result), /^<fd_content fd="fd:1" mode="line" [^>]*>3000\nboom: error here\n1\n<\/fd_content>\n$/);
  });

  it('finds the session of an agent without --session, and reads a page', async () => {
    const result = await runCli(cli, ['read', '--agent', 'codex', 'fd:1'], {
      cwd: ws.root,
      env: { FDREF_STORE: store },
    });
    assert.equal(result.status, 0);
    assert.match(out(result), /^<fd_content fd="fd:1" page="1" [^>]*>1\n2\n3\n/);
  });

  it('searches with search_fd: status 0 with matches, 1 with none', async () => {
    const found = await cliIn([
      'search',
      '--store',
      store,
      '--session',
      session,
      'fd:1',
      'err(or)? here',
      '--context',
      '0',
    ]);
    assert.equal(found.status, 0);
    assert.match(out(found), /matches="1"/);
    assert.match(out(found), /3001: boom: error here/);
    const none = await cliIn(['search', '--store', store, '--session', session, 'fd:1', 'nothing like this']);
    assert.equal(none.status, 1);
    assert.match(out(none), /matches="0"/);
  });

  it('prints the last lines with tail', async () => {
    const result = await cliIn(['tail', '--store', store, '--session', session, 'fd:1', '3']);
    assert.equal(result.status, 0);
    assert.match(out(result), />8\n9\n10\n<\/fd_content>\n$/);
  });

  it('lists the descriptors with list_fds', async () => {
    const result = await cliIn(['list', '--store', store, '--agent', 'codex']);
    assert.equal(result.status, 0);
    assert.match(
      out(result),
      /<fd id="fd:1" source="tool_output" tool="shell" command="seq 1 3000; [^"]*" exit_code="0"/,
    );
  });

  it('keeps piped input as a new descriptor and prints its handle', async () => {
    const input = Array.from({ length: 5000 }, (_, i) => `piped ${i}\n`).join('');
    const kept = await cliIn(['keep', '--store', store, '--agent', 'codex', '--preview-chars', '1000'], input);
    assert.equal(kept.status, 0);
    assert.match(
      out(kept),
      new RegExp(
        `^fd:2 in session Codex \\S+ \\(${session}\\): the whole output, ${input.length.toLocaleString('en-US')} characters, 5,000 lines, read from stdin\\.\\n`,
      ),
    );
    assert.ok(out(kept).length <= 1001);
    const back = await cliIn(['read', '--store', store, '--session', session, 'fd:2', '--lines', '4999-5000']);
    assert.match(out(back), />piped 4998\npiped 4999\n<\/fd_content>/);
    const listed = await cliIn(['list', '--store', store, '--session', session]);
    assert.match(out(listed), /<fd id="fd:2" source="user_input"/);
  });

  it('says what is wrong with a distinct status: not found 1, usage 2, store unusable 3', async () => {
    const missing = await cliIn(['read', '--store', store, '--session', session, 'fd:99']);
    assert.equal(missing.status, 1);
    assert.match(err(missing), /fd:99/);
    const noSession = await cliIn(['list', '--store', store, '--agent', 'cline']);
    assert.equal(noSession.status, 1);
    assert.match(err(noSession), /^fdref: no session of Cline in /);
    const usage = await cliIn(['read', '--store', store, '--pages', '2', 'fd:1']);
    assert.equal(usage.status, 2);
    assert.equal(err(usage).split('\n').length, 2, 'one line');
    const noFd = await cliIn(['tail', '--store', store]);
    assert.equal(noFd.status, 2);
    const file = ws.file('a-file');
    writeFileSync(file, 'x');
    const unusable = await cliIn(['list', '--store', file]);
    assert.equal(unusable.status, 3);
    assert.match(err(unusable), /^fdref: the store .*a-file cannot be used: .*\n$/);
  });

  it('prints help for each sub-command', async () => {
    for (const name of ['run', 'read', 'search', 'tail', 'list', 'keep']) {
      const help = await cliIn([name, '--help']);
      assert.equal(help.status, 0, name);
      assert.match(out(help), /^Usage: /, name);
    }
  });
});
