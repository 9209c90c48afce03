import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Content } from '../../../../src/core/descriptors/content';
import {
  diffOffThread,
  diffsInThread,
  IN_THREAD_MAX_CHARS,
  IN_THREAD_MAX_LINES,
} from '../../../../src/core/diff/diffOffThread';
import { MAX_DIFF_EDITS, MAX_DIFF_SIDE_LINES } from '../../../../src/core/diff/unifiedDiff';
import type { ToolContext } from '../../../../src/core/tools/toolContext';
import { runTool, toolDefinition, toolRecord } from '../../../../src/core/tools/toolTable';
import { contextOf, SourcesSession } from '../../support/toolSessions';
import { child, parseXml } from '../../support/xml';

/** Two runs of the same mocha suite: the second fails one test in the middle, and every duration differs. */
function testRun(failing: boolean, durations: readonly number[]): string {
  const names = ['parses refs', 'pages a descriptor', 'writes a file', 'searches lines', 'keeps a command output'];
  const lines = ['', '> fdref@0.1.0 test:unit', '> mocha', '', '', '  store'];
  names.forEach((name, index) => {
    const failed = failing && index === 2;
    lines.push(failed ? `    ${index + 1}) ${name}` : `    ✔ ${name} (${durations[index] ?? 1}ms)`);
  });
  lines.push('', '', `  ${failing ? 4 : 5} passing (${durations.reduce((s, d) => s + d, 0)}ms)`);
  if (failing) {
    lines.push(
      '  1 failing',
      '',
      '  1) store',
      '       writes a file:',
      '     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '',
      "'a\\n' !== 'a\\r\\n'",
      '',
      '      at Context.<anonymous> (test/unit/store.test.ts:42:12)',
    );
  }
  return lines.join('\n') + '\n';
}

const GREEN = testRun(false, [12, 30, 8, 41, 120]);
const RED = testRun(true, [14, 28, 9, 39, 131]);

async function diff(
  texts: readonly string[],
  args: Record<string, unknown>,
  pageSize = 100_000,
  roots: string[] = [],
  workspaceTrusted?: boolean,
) {
  const session = new SourcesSession(texts.map((t) => new Content(t)));
  const context: ToolContext = {
    ...contextOf(session, pageSize),
    workspaceRoots: roots,
    ...(workspaceTrusted === undefined ? {} : { workspaceTrusted }),
  };
  const outcome = await runTool(context, 'diff_fd', args);
  return { outcome, session, root: parseXml(outcome.text) };
}

/** The lines of a unified diff that are changes ('+' or '-', not the '---'/'+++' header). */
function changes(diffText: string): string[] {
  return diffText.split('\n').filter((l) => /^[-+](?![-+]{2} )/.test(l));
}

describe('diff_fd', () => {
  it('shows the one test that failed in the second run of a suite, with line numbers, and only that when durations are ignored', async () => {
    const { root } = await diff([GREEN, RED], { a: 'fd:1', b: 'fd:2', ignore_pattern: '\\(\\d+ms\\)' });
    assert.equal(root.name, 'diff_result');
    assert.equal(root.attributes['identical'], 'false');
    const text = child(root, 'diff').text;
    assert.match(text, /^--- fd:1\n\+\+\+ fd:2\n@@ -\d+,\d+ \+\d+,\d+ @@\n/);
    assert.deepEqual(changes(text), [
      '-    ✔ writes a file (8ms)',
      '+    3) writes a file',
      '-  5 passing (211ms)',
      '+  4 passing (221ms)',
      '+  1 failing',
      '+',
      '+  1) store',
      '+       writes a file:',
      '+     AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:',
      '+',
      "+'a\\n' !== 'a\\r\\n'",
      '+',
      '+      at Context.<anonymous> (test/unit/store.test.ts:42:12)',
    ]);
    assert.equal(root.attributes['removed'], '2');
    assert.equal(root.attributes['added'], '11');
  });

  it('without the ignore pattern, every changed duration is a change too', async () => {
    const { root } = await diff([GREEN, RED], { a: 'fd:1', b: 'fd:2' });
    const removed = changes(child(root, 'diff').text).filter((l) => l.startsWith('-'));
    assert.equal(removed.length, 6, removed.join('\n'));
  });

  it('says two equal inputs are identical, with no diff', async () => {
    const { root, outcome } = await diff([GREEN, GREEN], { a: 'fd:1', b: 'fd:2' });
    assert.equal(outcome.ok, true);
    assert.equal(root.attributes['identical'], 'true');
    assert.equal(
      root.children.find((c) => c.name === 'diff'),
      undefined,
    );
    assert.match(child(root, 'message').text, /fd:1 and fd:2 are identical \(14 lines\)/);
  });

  it('treats lines differing only in whitespace as equal with ignore_whitespace, and says what differed', async () => {
    const a = 'const x = 1;\nif (x) {\n  run();\n}\n';
    const b = 'const x =  1;\nif (x) {\n\trun();   \n}\n';
    const plain = await diff([a, b], { a: 'fd:1', b: 'fd:2' });
    assert.equal(plain.root.attributes['identical'], 'false');
    assert.equal(plain.root.attributes['added'], '2');
    const ignoring = await diff([a, b], { a: 'fd:1', b: 'fd:2', ignore_whitespace: true });
    assert.equal(ignoring.root.attributes['identical'], 'true');
    assert.match(child(ignoring.root, 'message').text, /differ only in what was ignored/);
    // Whitespace inside a word still counts: "ab" is not "a b".
    const words = await diff(['a b\n', 'ab\n'], { a: 'fd:1', b: 'fd:2', ignore_whitespace: true });
    assert.equal(words.root.attributes['identical'], 'false');
  });

  it('takes the number of context lines asked for', async () => {
    const a = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const b = a.replace('line 10\n', 'line ten\n');
    const { root } = await diff([a, b], { a: 'fd:1', b: 'fd:2', context: 1 });
    assert.equal(
      child(root, 'diff').text,
      '--- fd:1\n+++ fd:2\n@@ -9,3 +9,3 @@\n line 9\n-line 10\n+line ten\n line 11\n',
    );
    const none = await diff([a, b], { a: 'fd:1', b: 'fd:2', context: 0 });
    assert.match(child(none.root, 'diff').text, /@@ -10,1 \+10,1 @@\n-line 10\n\+line ten\n$/);
  });

  it('refuses a bad ignore pattern, a bad context and a missing descriptor with clear errors', async () => {
    const bad = await diff([GREEN, RED], { a: 'fd:1', b: 'fd:2', ignore_pattern: '(\\d+' });
    assert.equal(bad.outcome.ok, false);
    assert.match(bad.outcome.text, /type="invalid_argument"/);
    assert.match(bad.outcome.text, /ignore_pattern is not a valid JavaScript regular expression/);
    const context = await diff([GREEN, RED], { a: 'fd:1', b: 'fd:2', context: 101 });
    assert.match(context.outcome.text, /context must be from 0 to 100 \(got 101\)/);
    const missing = await diff([GREEN], { a: 'fd:1', b: 'fd:7' });
    assert.equal(missing.outcome.ok, false);
    assert.match(missing.outcome.text, /type="not_found"/);
    assert.match(missing.outcome.text, /"fd:7" does not exist.*Available: fd:1/s);
  });

  it('stores a diff longer than a page as a new descriptor holding the whole diff, its start and end shown', async () => {
    const a = Array.from({ length: 400 }, (_, i) => `row ${i} value ${i * 2}`).join('\n') + '\n';
    const b = Array.from({ length: 400 }, (_, i) => `row ${i} value ${i % 7 === 0 ? i * 3 : i * 2}`).join('\n') + '\n';
    const { root, outcome, session } = await diff([a, b], { a: 'fd:1', b: 'fd:2' }, 2_000);
    assert.equal(outcome.ok, true);
    assert.ok(outcome.text.length <= 2_000, `${outcome.text.length}`);
    assert.equal(root.attributes['fd'], 'fd:3');
    assert.equal(root.attributes['truncated'], 'true');
    assert.deepEqual(outcome.ok && outcome.made, ['fd:3']);
    const stored = session.made[2];
    assert.ok(stored !== undefined);
    const whole = await stored.content.slice(0, stored.content.length);
    assert.match(whole, /^--- fd:1\n\+\+\+ fd:2\n@@ /);
    assert.equal(changes(whole).length, 2 * 57);
    const preview = child(child(root, 'fd_result'), 'preview').text;
    const head = /^--- first (\d+) characters ---\n/.exec(preview);
    assert.ok(head, preview.slice(0, 200));
    assert.ok(whole.startsWith(preview.slice(head[0].length, head[0].length + Number(head[1]))), 'its start is shown');
    const tail = /--- \d+ characters not shown; last (\d+) characters ---\n/.exec(preview);
    assert.ok(tail && whole.endsWith(preview.slice(preview.length - Number(tail[1]))), 'and its end');
  });

  it('refuses a pair too different to diff in bounded time rather than running on', async () => {
    const a = Array.from({ length: MAX_DIFF_EDITS }, (_, i) => `a-${i}`).join('\n');
    const b = Array.from({ length: MAX_DIFF_EDITS }, (_, i) => `b-${i}`).join('\n');
    const { outcome } = await diff([a, b], { a: 'fd:1', b: 'fd:2' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /differ in more than 3,000 lines/);
  });

  it('stops a diff that runs past its time limit on its worker, and the thread stays free meanwhile', async () => {
    // Each distinct line runs the pattern once, and `(a+)+$` backtracks without end on a long run of a's not at
    // the line's end: in place, this would hold the thread for good.
    const a = `${'a'.repeat(40)}b\nsame\n`;
    const b = `${'a'.repeat(40)}c\nsame\n`;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const { outcome } = await diff([a, b], { a: 'fd:1', b: 'fd:2', ignore_pattern: '(a+)+$' });
      assert.equal(outcome.ok, false);
      assert.match(outcome.text, /fd:1 and fd:2 differ in more than 3,000 lines \(or the diff took longer than 3 s\)/);
      assert.ok(ticks > 0, 'timers ran while the diff ran');
    } finally {
      clearInterval(ticker);
    }
  });

  it('diffs a small pair in place and anything larger, or with an ignore pattern, on a worker', async () => {
    const lines = (count: number, tag: string) =>
      Array.from({ length: count }, (_, i) => `${tag}${i}`).join('\n') + '\n';
    const options = { aLabel: 'a', bLabel: 'b' };
    const half = IN_THREAD_MAX_LINES / 2;
    assert.equal(diffsInThread(lines(half, 'a'), lines(half, 'b'), options), true);
    assert.equal(diffsInThread(lines(half, 'a'), lines(half + 1, 'b'), options), false);
    assert.equal(diffsInThread('x'.repeat(IN_THREAD_MAX_CHARS), 'y', options), false);
    assert.equal(diffsInThread('x\n', 'y\n', { ...options, ignorePattern: /\d+/g }), false);
    // Either way the same diff.
    const [small, large] = [lines(half, 'a'), lines(half, 'b') + lines(half, 'c')];
    const inPlace = await diffOffThread(small, small.replace('a7\n', 'A7\n'), options);
    const onWorker = await diffOffThread(large, large.replace('b7\n', 'B7\n'), options);
    assert.equal(inPlace.kind, 'different');
    assert.equal(onWorker.kind, 'different');
    assert.match(inPlace.kind === 'different' ? inPlace.text : '', /\n-a7\n\+A7\n/);
    assert.match(onWorker.kind === 'different' ? onWorker.text : '', /\n-b7\n\+B7\n/);
    const ignoring = await diffOffThread('took 12ms\n', 'took 15ms\n', { ...options, ignorePattern: /\d+ms/g });
    assert.equal(ignoring.kind, 'identical');
  });

  it('refuses a side with more lines than it compares before reading it', async () => {
    const big = 'x\n'.repeat(MAX_DIFF_SIDE_LINES + 1);
    const { outcome } = await diff(['x\n', big], { a: 'fd:1', b: 'fd:2' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /fd:2 is 400,002 characters \(200,001 lines\), more than diff_fd compares/);
  });

  describe('workspace files', () => {
    let folder: string;
    let outside: string;
    beforeEach(() => {
      folder = mkdtempSync(path.join(tmpdir(), 'fdref-diff-ws-'));
      outside = mkdtempSync(path.join(tmpdir(), 'fdref-diff-out-'));
      mkdirSync(path.join(folder, 'logs'));
      writeFileSync(path.join(folder, 'logs', 'green.log'), GREEN);
      writeFileSync(path.join(outside, 'secret.txt'), 'secret\n');
      symlinkSync(path.join(outside, 'secret.txt'), path.join(folder, 'link.txt'));
    });
    afterEach(() => {
      rmSync(folder, { recursive: true, force: true });
      rmSync(outside, { recursive: true, force: true });
    });

    it('compares a descriptor with a workspace file, naming the file by its workspace path', async () => {
      const { root } = await diff([RED], { a: 'logs/green.log', b: 'fd:1' }, 100_000, [folder]);
      assert.equal(root.attributes['a'], path.join('logs', 'green.log'));
      assert.match(child(root, 'diff').text, /^--- \S*logs\/green\.log\n\+\+\+ fd:1\n/);
      assert.ok(changes(child(root, 'diff').text).includes('+  1 failing'));
    });

    it('refuses a file outside the workspace, by path or through a link, and a missing one', async () => {
      for (const a of [path.join(outside, 'secret.txt'), '../' + path.basename(outside) + '/secret.txt', 'link.txt']) {
        const { outcome } = await diff([GREEN], { a, b: 'fd:1' }, 100_000, [folder]);
        assert.equal(outcome.ok, false, a);
        assert.match(outcome.text, /type="outside_workspace"/, a);
        assert.doesNotMatch(outcome.text, /secret\n/);
      }
      const missing = await diff([GREEN], { a: 'logs/red.log', b: 'fd:1' }, 100_000, [folder]);
      assert.match(missing.outcome.text, /type="file_not_found"/);
      const noFolder = await diff([GREEN], { a: 'logs/green.log', b: 'fd:1' });
      assert.match(noFolder.outcome.text, /no workspace folder is open/);
    });

    it('refuses a workspace file in Restricted Mode, naming it, and still compares descriptors there', async () => {
      for (const args of [
        { a: 'logs/green.log', b: 'fd:1' },
        { a: 'fd:1', b: 'logs/green.log' },
      ]) {
        const { outcome } = await diff([RED], args, 100_000, [folder], false);
        assert.equal(outcome.ok, false);
        assert.match(outcome.text, /type="permission_denied"/);
        assert.match(outcome.text, /cannot read the workspace file "logs\/green\.log" in Restricted Mode/);
        // Nothing of the file reaches the model.
        assert.doesNotMatch(outcome.text, /parses refs/);
      }
      const descriptors = await diff([GREEN, RED], { a: 'fd:1', b: 'fd:2' }, 100_000, [folder], false);
      assert.equal(descriptors.outcome.ok, true);
      assert.ok(changes(child(descriptors.root, 'diff').text).includes('+  1 failing'));
      const trusted = await diff([RED], { a: 'logs/green.log', b: 'fd:1' }, 100_000, [folder], true);
      assert.equal(trusted.outcome.ok, true);
    });
  });

  describe('sessions', () => {
    it('reads b from the session b_session names, and refuses it where no other session can be read', async () => {
      const own = new SourcesSession([new Content(GREEN)]);
      const other = new SourcesSession([new Content('unrelated\n'), new Content(RED)]);
      const opened: string[] = [];
      const context: ToolContext = {
        ...contextOf(own, 100_000),
        openSession: (id) => {
          opened.push(id);
          return Promise.resolve(other);
        },
      };
      const outcome = await runTool(context, 'diff_fd', { a: 'fd:1', b: 'fd:2', b_session: 'ci' });
      const root = parseXml(outcome.text);
      assert.deepEqual(opened, ['ci']);
      assert.match(child(root, 'diff').text, /^--- fd:1\n\+\+\+ fd:2 \(session ci\)\n/);
      assert.ok(changes(child(root, 'diff').text).includes('+  1 failing'));

      const chat = await runTool(contextOf(own, 100_000), 'diff_fd', { a: 'fd:1', b: 'fd:1', b_session: 'ci' });
      assert.equal(chat.ok, false);
      assert.match(chat.text, /type="invalid_argument".*b_session/s);
    });

    it('offers a_session and b_session only where other sessions can be read, beside session', () => {
      const record = toolRecord('diff_fd');
      assert.ok(record);
      const properties = (sessions: boolean) =>
        Object.keys(
          (
            toolDefinition(record, { sessionArgument: sessions, inlineChars: 1000 }).inputSchema as {
              properties: object;
            }
          ).properties,
        );
      assert.deepEqual(properties(false), ['a', 'b', 'ignore_whitespace', 'ignore_pattern', 'context']);
      assert.deepEqual(properties(true), [
        'a',
        'b',
        'ignore_whitespace',
        'ignore_pattern',
        'context',
        'a_session',
        'b_session',
        'session',
      ]);
    });
  });

  it('has a one-line summary for the chat', () => {
    const record = toolRecord('diff_fd');
    const headline = record?.headline?.({
      args: { a: 'fd:1', b: 'fd:2' },
      tag: {
        name: 'diff_result',
        attributes: { a: 'fd:1', b: 'fd:2', identical: 'false', added: '11', removed: '2' },
        end: 0,
      },
      result: '',
    });
    assert.deepEqual(headline, [
      { text: 'Compared ' },
      { fd: 'fd:1' },
      { text: ' with ' },
      { fd: 'fd:2' },
      { text: ': 11 added, 2 removed' },
    ]);
  });
});
