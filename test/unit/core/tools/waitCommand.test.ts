import { commandToolContext } from '../../../support/store/commandContext';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { headlineText, toolCallHeadline } from '../../../../src/core/chat/toolSummary';
import { StoreToolSession } from '../../../../src/core/store/storeToolSession';
import { CommandJobs } from '../../../../src/core/tools/commandJobs';
import type { ToolContext } from '../../../../src/core/tools/toolContext';
import { runTool, toolsOn } from '../../../../src/core/tools/toolTable';
import { sessionOutput } from '../../../../src/mcp/commandTool';
import { tempStoreFolder } from '../../../support/store/tempStore';

/** Prints a line every 20 ms until a file `stop` appears, then `done`, exit 3; writes its group id to `group.pid`. */
const PRINTER =
  'echo $$ > group.pid; i=0; while [ ! -e stop ]; do i=$((i+1)); echo "line $i"; sleep 0.02; done; echo done; exit 3';

function attribute(xml: string, name: string): string | undefined {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(xml)?.[1];
}

function groupAlive(group: number): boolean {
  try {
    process.kill(-group, 0);
    return true;
  } catch {
    return false;
  }
}

async function until<T>(what: string, check: () => Promise<T | undefined> | T | undefined): Promise<T> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function headline(name: string, args: object, text: string): string {
  const parts = toolCallHeadline({ callId: 'c', name, arguments: JSON.stringify(args), status: 'done', result: text });
  assert.ok(parts, `no headline for ${text.slice(0, 200)}`);
  return headlineText(parts);
}

describe('wait_command: commands that go on after their call answered', function () {
  this.timeout(30_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  let jobs: CommandJobs;
  let context: ToolContext;
  let session: StoreToolSession;
  beforeEach(async () => {
    folder = tempStoreFolder();
    ({ context, session, jobs } = await commandToolContext(folder, 300));
  });
  afterEach(async () => {
    writeFileSync(path.join(folder.root, 'stop'), '');
    await jobs.stopAll();
    await folder.dispose();
  });

  const call = async (name: string, args: object): Promise<string> => {
    const outcome = await runTool(context, name, args, toolsOn('mcp'));
    assert.ok(outcome.ok, outcome.text);
    return outcome.text;
  };

  it('answers a command that ends within the wait as before: no growing descriptor, no state', async () => {
    const text = await call('run_command', { command: 'seq 1 200' });
    assert.equal(attribute(text, 'state'), undefined);
    assert.equal(attribute(text, 'exit_code'), '0');
    assert.equal(session.lookup(attribute(text, 'fd') ?? '')?.command?.exitCode, 0);
  });

  it('answers a command still running with a growing fd, then its new output, then its end as run_command would', async () => {
    const first = await call('run_command', { command: PRINTER });
    assert.equal(attribute(first, 'state'), 'running', first);
    const fd = attribute(first, 'fd') as string;
    assert.match(
      headline('run_command', { command: PRINTER }, first),
      /^Started .*still running, output so far in fd:\d+/,
    );
    await session.refresh();
    assert.equal(session.lookup(fd)?.growing?.state, 'running');
    const looked = await call('wait_command', { fd, seconds: 0 });
    assert.equal(attribute(looked, 'state'), 'running');
    const from = Number(attribute(looked, 'new_from'));
    assert.equal(from, Number(attribute(first, 'new_chars')), 'the new output starts where the last look ended');
    assert.match(headline('wait_command', { fd }, looked), /^Waited for fd:\d+: still running/);
    writeFileSync(path.join(folder.root, 'stop'), '');
    const end = await until('the end', async () => {
      const text = await call('wait_command', { fd, seconds: 5 });
      return attribute(text, 'state') === 'running' ? undefined : text;
    });
    assert.equal(attribute(end, 'exit_code'), '3');
    assert.equal(attribute(end, 'fd'), fd);
    assert.match(end, /done\n<\/preview_/);
    assert.match(headline('wait_command', { fd }, end), /^Waited for fd:\d+: exit 3/);
    await session.refresh();
    const done = session.lookup(fd);
    assert.equal(done?.growing, undefined);
    assert.equal(done?.command?.exitCode, 3);
    assert.equal(done?.command?.commandLine, PRINTER);
    // Asked again, it says it ended (the same answer).
    assert.equal(await call('wait_command', { fd }), end);
  });

  it('takes a shorter wait from the call (wait_s), never a longer one than the surface allows', async () => {
    jobs = new CommandJobs(60_000);
    context = { ...context, commands: { ...context.commands!, output: sessionOutput(session, jobs) } };
    const first = await call('run_command', { command: PRINTER, wait_s: 0.2 });
    assert.equal(attribute(first, 'state'), 'running', first);
  });

  it('stops a command (wait_command stop) and every process of its group', async () => {
    const first = await call('run_command', { command: `sleep 1000 & ${PRINTER}` });
    const fd = attribute(first, 'fd') as string;
    const group = Number(readFileSync(path.join(folder.root, 'group.pid'), 'utf8'));
    const stopped = await call('wait_command', { fd, stop: true });
    assert.equal(attribute(stopped, 'cancelled'), 'true', stopped);
    assert.match(headline('wait_command', { fd, stop: true }, stopped), /^Stopped fd:\d+/);
    await until('the group to end', () => (groupAlive(group) ? undefined : true));
    await session.refresh();
    assert.equal(session.lookup(fd)?.command?.ended, 'stopped');
  });

  it('ends every running command when the process stops (stopAll), each descriptor saying so', async () => {
    const first = await call('run_command', { command: PRINTER });
    const fd = attribute(first, 'fd') as string;
    const group = Number(readFileSync(path.join(folder.root, 'group.pid'), 'utf8'));
    await jobs.stopAll();
    assert.ok(!groupAlive(group) || (await until('the group to end', () => (groupAlive(group) ? undefined : true))));
    await session.refresh();
    const done = session.lookup(fd);
    assert.equal(done?.growing, undefined);
    assert.equal(done?.command?.ended, 'stopped');
    // A command started while stopping is not left behind: it runs to its end in its call.
    assert.equal(attribute(await call('run_command', { command: 'echo late' }), 'state'), undefined);
  });

  it('says what an fd that is no running command is', async () => {
    const missing = await runTool(context, 'wait_command', { fd: 'fd:9' }, toolsOn('mcp'));
    assert.ok(!missing.ok);
    assert.equal(missing.error.type, 'not_found');
    const long = await call('run_command', { command: 'seq 1 200' });
    const ended = await call('wait_command', { fd: attribute(long, 'fd') });
    assert.equal(attribute(ended, 'state'), 'ended');
    assert.equal(attribute(ended, 'exit_code'), '0');
    assert.ok(!existsSync(path.join(folder.root, 'group.pid')));
  });

  it("shows the error lines of a running command's new output and of its whole output at the end, numbered in the whole output", async () => {
    // Lines 1-3000, an error at 3001, 3002-6001; after `stop`: 6002-9001, a failure at 9002, 100 more.
    const command =
      'seq 1 3000; echo "error: boom in the middle"; seq 3001 6000; : > printed; ' +
      'while [ ! -e stop ]; do sleep 0.02; done; seq 1 3000; echo "FAIL second half"; seq 1 100; exit 1';
    const first = await call('run_command', { command });
    assert.equal(attribute(first, 'state'), 'running', first);
    const fd = attribute(first, 'fd') as string;
    await until('the first half', () => (existsSync(path.join(folder.root, 'printed')) ? true : undefined));
    const looked = await call('wait_command', { fd, seconds: 0 });
    assert.equal(attribute(looked, 'state'), 'running', looked);
    // The error is in one of the two looks (whichever saw it written), under its line in the whole output.
    const lookErrors = [first, looked].map((text) => /<error_lines>([^<]*)<\/error_lines>/.exec(text)?.[1] ?? '');
    assert.equal(lookErrors.filter((errors) => errors.includes('\n3001: error: boom in the middle\n')).length, 1);
    assert.ok(lookErrors.every((errors) => !errors.includes('FAIL')));
    assert.match(first + looked, /and between them the lines that look like errors or warnings with their numbers/);
    writeFileSync(path.join(folder.root, 'stop'), '');
    const end = await until('the end', async () => {
      const text = await call('wait_command', { fd, seconds: 5 });
      return attribute(text, 'state') === 'running' ? undefined : text;
    });
    assert.equal(attribute(end, 'exit_code'), '1');
    const endErrors = /<error_lines>([^<]*)<\/error_lines>/.exec(end)?.[1] ?? '';
    assert.match(endErrors, /\n3001: error: boom in the middle\n9002: FAIL second half\n/);
  });

  it('is offered only where commands go on after their call (not in the chat)', () => {
    assert.ok(toolsOn('mcp').some((t) => t.name === 'wait_command'));
    assert.ok(!toolsOn('chat').some((t) => t.name === 'wait_command'));
    assert.ok(!toolsOn('copilot').some((t) => t.name === 'wait_command'));
  });
});
