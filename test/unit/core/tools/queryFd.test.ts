import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runTool } from '../../../../src/core/tools/toolTable';
import { looksLikeJsonLines, MAX_QUERY_WHOLE_CHARS } from '../../../../src/core/tools/queryFd';
import { Content } from '../../../../src/core/descriptors/content';
import { ChunkedText, contextOf, SourcesSession } from '../../support/toolSessions';
import { parseXml } from '../../support/xml';

/** A GitHub-shaped list of pull requests, as `gh api repos/o/r/pulls` returns it (pretty-printed). */
const PULLS = JSON.stringify(
  Array.from({ length: 30 }, (_, i) => ({
    url: `https://api.github.com/repos/o/r/pulls/${i + 1}`,
    number: i + 1,
    state: i % 3 === 0 ? 'closed' : 'open',
    title: `Fix ${i}`,
    user: { login: i % 2 === 0 ? 'octocat' : 'hubot', id: 583231 + i, type: 'User' },
    labels: i % 5 === 0 ? [{ id: 1, name: 'bug', color: 'd73a4a' }] : [],
    draft: false,
    created_at: `2024-05-${String((i % 28) + 1).padStart(2, '0')}T10:00:00Z`,
    head: { ref: `fix-${i}`, sha: 'a'.repeat(40) },
  })),
  null,
  2,
);

/** Runs query_fd on fd:1 holding `text`, read in chunks of `chunkChars`. */
async function query(
  text: string,
  args: Record<string, unknown>,
  options: { chunkChars?: number; resultChars?: number } = {},
) {
  const session = new SourcesSession([new ChunkedText(text, options.chunkChars ?? 64 * 1024)]);
  const context = {
    ...contextOf(session, 100_000),
    ...(options.resultChars === undefined ? {} : { resultChars: options.resultChars }),
  };
  const outcome = await runTool(context, 'query_fd', { fd: 'fd:1', ...args });
  return { outcome, root: parseXml(outcome.text), session };
}

describe('query_fd', function () {
  this.timeout(120_000);

  it('runs a jq program over a pretty-printed API payload, values one compact line each', async () => {
    const { outcome, root } = await query(PULLS, {
      query: '.[] | select(.state == "open" and (.labels | map(.name) | index("bug"))) | {number, login: .user.login}',
    });
    assert.ok(outcome.ok, outcome.text);
    assert.equal(root.name, 'query_result');
    assert.equal(root.attributes['input'], 'json');
    const expected = (
      JSON.parse(PULLS) as { number: number; state: string; labels: { name: string }[]; user: { login: string } }[]
    )
      .filter((p) => p.state === 'open' && p.labels.some((l) => l.name === 'bug'))
      .map((p) => JSON.stringify({ number: p.number, login: p.user.login }));
    assert.ok(expected.length > 0);
    assert.equal(root.text, expected.join('\n'));
    assert.equal(root.attributes['values'], String(expected.length));
  });

  it('gives strings as text with raw, and one array of every line with slurp', async () => {
    const lines = '{"level":"info","msg":"a"}\n{"level":"error","msg":"b c"}\n{"level":"error","msg":"d"}\n';
    const raw = await query(lines, { query: 'select(.level == "error") | .msg', raw: true });
    assert.equal(raw.root.text, 'b c\nd');
    const slurped = await query(lines, {
      query: 'map(.level) | group_by(.) | map({(.[0]): length}) | add',
      slurp: true,
    });
    assert.equal(slurped.root.text, '{"error":2,"info":1}');
  });

  it('reads a 50 MB JSON Lines file line by line, within the time limit', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fdref-query-'));
    try {
      const file = path.join(dir, 'events.jsonl');
      const rows: string[] = [];
      let size = 0;
      for (let i = 0; size < 50 * 1024 * 1024; i++) {
        const row = JSON.stringify({
          ts: 1_700_000_000 + i,
          id: i,
          level: i % 1000 === 999 ? 'error' : 'info',
          path: `/api/v1/items/${i % 97}`,
          status: i % 1000 === 999 ? 500 : 200,
          ms: i % 250,
          ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko)',
        });
        rows.push(row);
        size += row.length + 1;
      }
      fs.writeFileSync(file, rows.join('\n') + '\n');
      const text = fs.readFileSync(file, 'utf8');
      assert.ok(text.length > MAX_QUERY_WHOLE_CHARS, 'more than jq could hold whole');
      const { outcome, root } = await query(text, { query: 'select(.status >= 500) | .id', timeout_s: 60 });
      assert.ok(outcome.ok, outcome.text);
      assert.equal(root.attributes['input'], 'json_lines');
      const expected = rows.map((r) => JSON.parse(r) as { id: number; status: number }).filter((r) => r.status >= 500);
      assert.equal(root.text, expected.map((r) => r.id).join('\n'));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('says where JSON Lines stop being JSON, by the line in the whole text', async () => {
    // About 9 MB before the bad line: past the first batches jq is given, which number their lines from 1.
    const good = Array.from({ length: 200_000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(30) }));
    const text = [...good, '{"i": oops}', '{"i":1}'].join('\n');
    const { outcome } = await query(text, { query: '.i' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /type="invalid_argument"/);
    assert.match(outcome.text, /fd:1 is not JSON or JSON Lines \(parse error: .* at line 200001, column/);
  });

  it("refuses text that is not JSON with jq's parse error and its position", async () => {
    const { outcome } = await query('npm ERR! code ELIFECYCLE\nnpm ERR! errno 1\n', { query: '.' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /is not JSON or JSON Lines \(parse error: Invalid .* at line 1, column \d+\)/);
  });

  it("refuses a program that does not compile, with jq's message", async () => {
    const { outcome } = await query(PULLS, { query: '.[] | select(.state ==' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /the jq program does not compile\. jq: error: syntax error/);
  });

  it('reports a runtime error of the program', async () => {
    const { outcome } = await query(PULLS, { query: '.[0].number.x' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /the jq program failed on fd:1\. jq: error .*Cannot index number with/);
  });

  it('stops a program that never ends at its time limit, and the thread stays free meanwhile', async () => {
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    try {
      const { outcome } = await query('1', { query: 'def f: f; f', timeout_s: 1 });
      assert.equal(outcome.ok, false);
      assert.match(outcome.text, /ran longer than 1 s and was stopped/);
      assert.ok(ticks > 0, 'timers ran while jq looped');
    } finally {
      clearInterval(ticker);
    }
  });

  it('stops a program that uses up its memory', async () => {
    const { outcome } = await query('"x"', { query: '[range(100000000) | tostring]', timeout_s: 60 });
    assert.equal(outcome.ok, false);
    assert.match(outcome.text, /used up the memory a query has \(256 MB\) on fd:1 and was stopped/);
  });

  it('stores a result longer than the budget as a descriptor of JSON Lines, with a preview', async () => {
    const { outcome, root, session } = await query(PULLS, { query: '.[]' }, { resultChars: 2000 });
    assert.ok(outcome.ok, outcome.text);
    assert.equal(root.name, 'fd_result');
    assert.equal(root.attributes['fd'], 'fd:2');
    const stored = session.made[1];
    assert.ok(stored);
    const text = (stored.content as Content).text;
    assert.deepEqual(
      text.split('\n').map((line) => JSON.parse(line) as unknown),
      JSON.parse(PULLS) as unknown[],
    );
    // The stored output is JSON Lines: it can be queried again.
    const again = await runTool(contextOf(session, 100_000), 'query_fd', { fd: 'fd:2', query: '.number' });
    assert.equal(parseXml(again.text).text, Array.from({ length: 30 }, (_, i) => i + 1).join('\n'));
  });

  it('tells JSON Lines from one document by the first line', async () => {
    const of = (text: string) => looksLikeJsonLines(new Content(text));
    assert.equal(await of('{"a":1}\n{"a":2}\n'), true);
    assert.equal(await of('{"a":1}\n'), false);
    assert.equal(await of('{\n  "a": 1\n}\n'), false);
    assert.equal(await of('[1,\n2]'), false);
    assert.equal(await of(''), false);
  });
});
