import assert from 'node:assert/strict';
import { jsonOutline, MAX_OUTLINED_CHARS } from '../../../../src/core/presentation/jsonOutline';
import { wrapInToolSession } from '../../../../src/core/tools/descriptorPreview';
import { SourcesSession } from '../../support/toolSessions';
import { parseXml } from '../../support/xml';

/** A search API's answer, as `gh api search/issues` returns it (pretty-printed). */
const SEARCH = JSON.stringify(
  {
    total_count: 1234,
    incomplete_results: false,
    items: Array.from({ length: 40 }, (_, i) => ({
      number: i + 1,
      title: `Crash on start ${i}`,
      state: 'open',
      user: { login: 'octocat', id: 1 },
      ...(i % 2 === 0 ? { milestone: { title: 'v2' } } : {}),
    })),
  },
  null,
  2,
);

describe('the JSON outline of a preview', () => {
  it('gives the top level, each key with its kind, array lengths and a sample, led by jq paths', () => {
    const outline = jsonOutline(SEARCH);
    assert.equal(
      outline?.split('\n').slice(0, 6).join('\n'),
      [
        'JSON: an object of 3 keys',
        '.total_count: a number 1234',
        '.incomplete_results: a boolean false',
        '.items: an array of 40 objects',
        '.items[0] keys: number, title, state, user, milestone (20 of 40)',
        '.items[0]: {"number":1,"title":"Crash on start 0","state":"open","user":{"login":"octocat","id":1},"milestone":{"title":"v2"}}',
      ].join('\n'),
    );
  });

  it('outlines JSON Lines by their count, the keys of the first and the first line', () => {
    const text = Array.from({ length: 5 }, (_, i) => JSON.stringify({ ts: i, level: 'info', msg: 'm' })).join('\n');
    assert.equal(
      jsonOutline(text),
      'JSON Lines: 5 values, objects\nkeys of the first: ts, level, msg\nfirst: {"ts":0,"level":"info","msg":"m"}',
    );
  });

  it('has none for text that is not JSON, a lone scalar, or text longer than it parses on the thread', () => {
    assert.equal(jsonOutline('npm ERR! code 1\n{"a":1}'), undefined);
    assert.equal(jsonOutline('{"a": 1'), undefined);
    assert.equal(jsonOutline('"just a string"'), undefined);
    assert.equal(jsonOutline('[1]\nnot json'), undefined);
    assert.equal(jsonOutline('[1]\n1,2'), undefined, 'a line of two values is not JSON Lines');
    const long = JSON.stringify({ a: 'x'.repeat(MAX_OUTLINED_CHARS) });
    assert.equal(jsonOutline(long), undefined);
  });

  it('stands in place of the first characters when a long JSON output is stored', async () => {
    const session = new SourcesSession([]);
    const wrapped = await wrapInToolSession(
      session,
      { kind: 'tool_output', toolName: 'run_command' },
      SEARCH,
      2000,
      1500,
    );
    assert.ok(wrapped.text.length <= 1500);
    const root = parseXml(wrapped.text);
    assert.equal(root.name, 'fd_result');
    assert.equal(root.attributes['json'], 'true');
    const outline = root.children.find((c) => c.name === 'json_outline');
    assert.ok(outline, wrapped.text);
    assert.match(outline.text, /^JSON: an object of 3 keys\n\.total_count: a number 1234/);
    assert.equal(
      root.children.find((c) => c.name === 'preview'),
      undefined,
    );
    assert.match(root.children[0]?.text ?? '', /Query it with query_fd\(fd="fd:1"/);
  });
});
