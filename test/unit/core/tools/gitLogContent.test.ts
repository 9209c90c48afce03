import { commandToolContext } from '../../../support/store/commandContext';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { DescriptorTable } from '../../../../src/core/descriptors/descriptorTable';
import { CommandJobs } from '../../../../src/core/tools/commandJobs';
import { wrapInDescriptor } from '../../../../src/core/tools/descriptorPreview';
import type { ToolContext } from '../../../../src/core/tools/toolContext';
import { runTool, toolsOn } from '../../../../src/core/tools/toolTable';
import { tempStoreFolder } from '../../../support/store/tempStore';
import { child, parseXml } from '../../support/xml';

/** Git run in `cwd` with a fixed identity and no user or system configuration, so every run gives the same log. */
function git(cwd: string, args: readonly string[], date?: string): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      PATH: process.env['PATH'] ?? '/usr/bin:/bin',
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_AUTHOR_NAME: 'Ada Tester',
      GIT_AUTHOR_EMAIL: 'ada@example.com',
      GIT_COMMITTER_NAME: 'Ada Tester',
      GIT_COMMITTER_EMAIL: 'ada@example.com',
      ...(date === undefined ? {} : { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date }),
    },
  });
}

/** The line of a pages module that commit `n` adds: the 4th commit's is the one that looks like an error. */
function pagesLine(n: number): string {
  return n === 4
    ? "  if (page > last) throw new RangeError('page past the end of the descriptor');"
    : `  const step${n} = pageSize * ${n}; // step ${n}`;
}

/**
 * A repository of seven commits, each touching several files (a module growing by 40 lines, a second module, the
 * README), the fourth adding a line that throws; returns its folder.
 */
function makeRepository(root: string): string {
  const repo = path.join(root, 'repo');
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  git(repo, ['init', '-q', '-b', 'main']);
  const pages: string[] = ['export function pageAt(page: number, last: number, pageSize: number) {'];
  for (let n = 1; n <= 7; n++) {
    for (let i = 1; i <= 40; i++) pages.push(`  const row${n}_${i} = page * ${i} + ${n}; // commit ${n}, row ${i}`);
    pages.push(pagesLine(n));
    writeFileSync(path.join(repo, 'src/pages.ts'), pages.join('\n') + '\n}\n');
    writeFileSync(path.join(repo, 'src/search.ts'), `export const SEARCH_VERSION = ${n};\n`);
    writeFileSync(path.join(repo, 'README.md'), `# pages\n\nRelease ${n} of the pages module.\n`);
    git(repo, ['add', '-A']);
    git(repo, ['commit', '-q', '-m', `Release ${n}: pages grow by 40 rows`], `2026-01-0${n}T10:00:00Z`);
  }
  return repo;
}

describe('real content: a `git log -p` of a repository with seven commits', function () {
  this.timeout(60_000);
  let folder: ReturnType<typeof tempStoreFolder>;
  let jobs: CommandJobs;
  let context: ToolContext;
  let repo: string;
  beforeEach(async () => {
    folder = tempStoreFolder();
    repo = makeRepository(folder.root);
    ({ context, jobs } = await commandToolContext(folder, 30_000));
  });
  afterEach(async () => {
    await jobs.stopAll();
    await folder.dispose();
  });

  const call = async (name: string, args: object) => {
    const outcome = await runTool(context, name, args, toolsOn('mcp'));
    assert.ok(outcome.ok, outcome.text);
    return parseXml(outcome.text);
  };
  /** `git log -p` run by run_command in the repository: its result, and the descriptor it was kept as. */
  const gitLog = async (count: number) => {
    const root = await call('run_command', { command: `git log -p -n ${count}`, cwd: repo });
    assert.equal(root.attributes['exit_code'], '0', root.text);
    const fd = root.attributes['fd'];
    assert.ok(fd !== undefined, 'a long log is kept as a descriptor');
    return { root, fd };
  };

  it("run_command's preview names the descriptor and how to read it first, and shows the line that throws with its number", async () => {
    const log = git(repo, ['log', '-p', '-n', '7']);
    const { root, fd } = await gitLog(7);
    assert.equal(root.attributes['chars'], String(log.length), 'the whole log is kept');
    assert.equal(root.children[0]?.name, 'message');
    const message = child(root, 'message').text;
    assert.match(message, new RegExp(`stored whole as ${fd} in \\d+ pages`));
    assert.match(message, new RegExp(`read_fd\\(fd="${fd}"\\).*search_fd\\(fd="${fd}"`));
    const throwing = log.split('\n').indexOf(`+${pagesLine(4)}`) + 1;
    assert.ok(throwing > 0);
    assert.match(child(root, 'error_lines').text, new RegExp(`\n${throwing}: \\+ {2}if \\(page > last\\) throw`));
    assert.ok(child(root, 'preview_head').text.startsWith('commit '), 'the head is the log’s start');
  });

  it('the descriptor preview of the same log leads with its handle and how to read it, then the line that throws', async () => {
    const log = git(repo, ['log', '-p', '-n', '7']);
    const wrapped = wrapInDescriptor(
      new DescriptorTable(),
      { kind: 'tool_output', toolName: 'run_command' },
      log,
      4000,
      3000,
    );
    const root = parseXml(wrapped.text);
    assert.equal(root.name, 'fd_result');
    const fd = root.attributes['fd'] ?? '';
    assert.match(fd, /^fd:\d+$/);
    assert.equal(root.children[0]?.name, 'message');
    assert.match(child(root, 'message').text, new RegExp(`^${fd} holds the whole output of run_command: .*read_fd`));
    const preview = child(root, 'preview').text;
    const throwing = log.split('\n').indexOf(`+${pagesLine(4)}`) + 1;
    assert.match(preview, new RegExp(`\n${throwing}: \\+ {2}if \\(page > last\\) throw`));
    assert.ok(preview.indexOf('commit ') < preview.indexOf(`${throwing}: +`), 'the head comes before the error line');
    assert.equal(await wrapped.descriptor?.content.slice(0), log);
  });

  it('search_fd finds a line of the log at its line number, with the commit around it', async () => {
    const log = git(repo, ['log', '-p', '-n', '7']);
    const { fd } = await gitLog(7);
    const wanted = `+  const row3_17 = page * 17 + 3; // commit 3, row 17`;
    const line = log.split('\n').indexOf(wanted) + 1;
    assert.ok(line > 0);
    const root = await call('search_fd', { fd, pattern: 'commit 3, row 17', context: 1 });
    assert.equal(root.attributes['matches'], '1', root.text);
    const rows = child(root, 'lines').text.split('\n');
    assert.deepEqual(rows, [
      `${line - 1}- +  const row3_16 = page * 16 + 3; // commit 3, row 16`,
      `${line}: ${wanted}`,
      `${line + 1}- +  const row3_18 = page * 18 + 3; // commit 3, row 18`,
    ]);
  });

  it('diff_fd between `git log -p -n 5` and `-n 6` shows exactly the sixth-newest commit added at the end', async () => {
    const five = git(repo, ['log', '-p', '-n', '5']);
    const six = git(repo, ['log', '-p', '-n', '6']);
    assert.ok(six.startsWith(five));
    const added = six.slice(five.length).replace(/\n$/, '').split('\n');
    const a = (await gitLog(5)).fd;
    const b = (await gitLog(6)).fd;
    const root = await call('diff_fd', { a, b, context: 0 });
    assert.equal(root.name, 'diff_result', root.text);
    assert.equal(root.attributes['identical'], 'false');
    const diff = child(root, 'diff').text;
    assert.match(diff, new RegExp(`^--- ${a}\n\\+\\+\\+ ${b}\n@@ -${five.split('\n').length - 1},0 \\+`));
    const changes = diff.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
    assert.deepEqual(
      changes,
      added.map((l) => `+${l}`),
    );
    assert.ok(added.includes('    Release 2: pages grow by 40 rows'), 'the sixth-newest commit is Release 2');
  });

  it('read_fd reads the log by pages and by lines, exactly as git wrote it', async () => {
    const log = git(repo, ['log', '-p', '-n', '7']);
    const { root: result, fd } = await gitLog(7);
    const pages = Number(result.attributes['pages']);
    assert.ok(pages >= 3, `${pages} pages`);
    let whole = '';
    for (let page = 1; page <= pages; page++) {
      const read = await call('read_fd', { fd, start: page });
      assert.equal(read.attributes['page'], String(page), read.text);
      whole += read.text;
    }
    assert.equal(whole, log);
    const lines = log.split('\n');
    const start = lines.indexOf('    Release 4: pages grow by 40 rows') + 1;
    const read = await call('read_fd', { fd, mode: 'line', start, count: 3 });
    assert.equal(read.attributes['lines'], `${start}-${start + 2}`);
    assert.equal(read.text, lines.slice(start - 1, start + 2).join('\n') + '\n');
    const tail = await call('read_fd', { fd, mode: 'tail', count: 2 });
    assert.equal(tail.text, lines.slice(-3).join('\n'));
  });
});
