import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  AGENT_CLIENTS,
  agentClient,
  configurationSnippet,
  SERVER_NAME,
} from '../../../../src/core/agents/agentClients';
import { AgentConfigError, MAX_CONFIG_DEPTH, mergeServerEntry } from '../../../../src/core/agents/mergeServerEntry';
import { serverLaunch } from '../../../../src/core/agents/serverLaunch';

const LAUNCH = serverLaunch({
  runtime: { kind: 'node', path: '/usr/bin/node' },
  launcher: '/home/u/.config/Code/User/globalStorage/fdref.fdref/mcp/fdref-mcp.js',
  store: '/home/u/.config/Code/User/globalStorage/fdref.fdref/store/abc',
  workspaces: ['/work/a', '/work/b c'],
});
const ENTRY = agentClient('cursor').entry(LAUNCH);

function merge(existing: string | undefined, allowsComments = false) {
  return mergeServerEntry({ existing, entry: ENTRY, allowsComments, fileLabel: '~/.cursor/mcp.json' });
}

/** How many characters differ between two texts, once their common beginning and end are set aside. */
function changedSpan(before: string, after: string): number {
  let start = 0;
  while (start < before.length && before[start] === after[start]) start++;
  let end = 0;
  while (end < before.length - start && before[before.length - 1 - end] === after[after.length - 1 - end]) end++;
  return after.length - start - end;
}

function refused(existing: string, pattern: RegExp, allowsComments = false): void {
  assert.throws(
    () => merge(existing, allowsComments),
    (error: unknown) => error instanceof AgentConfigError && pattern.test(error.message),
  );
}

describe('merging fdref into an agent configuration', () => {
  it('creates the file with only fdref when there is none, or it is empty', () => {
    for (const existing of [undefined, '', '  \n', '\uFEFF']) {
      const result = merge(existing);
      assert.deepEqual(JSON.parse(result.merged), { mcpServers: { fdref: ENTRY } });
      assert.equal(result.created, true);
      assert.equal(result.replaced, false);
    }
  });

  it('keeps every other server and every other key, in their order and formatting', () => {
    const existing = `{
    "numStartups": 12,
    "mcpServers": {
        "github": { "command": "docker", "args": ["run", "-i"] },
        "memory": {"command": "npx"}
    },
    "projects": {"/x": {"allowedTools": []}}
}
`;
    const result = merge(existing);
    const parsed = JSON.parse(result.merged) as Record<string, Record<string, unknown>>;
    assert.deepEqual(Object.keys(parsed), ['numStartups', 'mcpServers', 'projects']);
    assert.deepEqual(Object.keys(parsed['mcpServers'] ?? {}), ['github', 'memory', 'fdref']);
    assert.deepEqual(parsed['mcpServers']?.['fdref'], ENTRY);
    assert.deepEqual(parsed['projects'], { '/x': { allowedTools: [] } });
    // The lines that were there are there unchanged (the four-space indentation too).
    assert.ok(result.merged.includes('        "github": { "command": "docker", "args": ["run", "-i"] },'));
    assert.ok(result.merged.includes('\n        "fdref": {\n            "command": "/usr/bin/node",'));
    assert.equal(result.replaced, false);
    assert.equal(result.created, false);
  });

  it('adds mcpServers when the file has none', () => {
    const result = merge('{"theme": "dark"}');
    assert.deepEqual(JSON.parse(result.merged), { theme: 'dark', mcpServers: { fdref: ENTRY } });
  });

  it('replaces an existing fdref entry whole and says so', () => {
    const existing = JSON.stringify(
      { mcpServers: { fdref: { command: 'old', args: ['x'], autoApprove: ['read_fd'] }, other: { command: 'o' } } },
      null,
      2,
    );
    const result = merge(existing);
    assert.equal(result.replaced, true);
    assert.deepEqual(JSON.parse(result.merged), { mcpServers: { fdref: ENTRY, other: { command: 'o' } } });
  });

  it('keeps comments and trailing commas for a client that reads them', () => {
    const existing = '{\n  // my servers\n  "mcpServers": {\n    "a": {"command": "a"}, /* keep */\n  },\n}\n';
    const result = merge(existing, true);
    assert.ok(result.merged.includes('// my servers'));
    assert.ok(result.merged.includes('/* keep */'));
    assert.ok(result.merged.includes('"fdref"'));
  });

  it('keeps CRLF line ends and a byte order mark', () => {
    const result = merge('\uFEFF{\r\n  "mcpServers": {\r\n    "a": {"command": "a"}\r\n  }\r\n}\r\n');
    assert.ok(result.merged.startsWith('\uFEFF{\r\n'));
    assert.ok(!/[^\r]\n/.test(result.merged), 'every line ends in CRLF');
    assert.deepEqual(JSON.parse(result.merged.slice(1)), { mcpServers: { a: { command: 'a' }, fdref: ENTRY } });
  });

  it('refuses a malformed file, saying where and that nothing was written', () => {
    refused('{"mcpServers": {"a": {"command": "a"}', /line 1, column \d+.*nothing was written/);
    refused('{"mcpServers": {"a" {"command": "a"}}}', /JSON syntax error \(a colon expected\) at line 1, column 21/);
    refused('{\n  "a": 1\n  "b": 2\n}', /a comma expected\) at line 3, column 3/);
    refused('{"a": 1} {"b": 2}', /text after the end of the JSON value/);
  });

  it('refuses comments and trailing commas for a client that reads plain JSON', () => {
    refused('{\n  // mine\n  "mcpServers": {}\n}', /a comment, which this client cannot read .* line 2, column 3/);
    refused('{"mcpServers": {"a": {"command": "a"},}}', /a trailing comma, which this client cannot read/);
  });

  it('refuses a file whose top level or mcpServers is not an object', () => {
    refused('[1, 2]', /holds an array, not a JSON object/);
    refused('"text"', /holds a string, not a JSON object/);
    refused('null', /holds null, not a JSON object/);
    refused('{"mcpServers": []}', /"mcpServers" is an array, not an object of servers/);
    refused('{"mcpServers": "none"}', /"mcpServers" is a string/);
  });

  it('refuses a file with mcpServers or fdref twice, rather than guess which one counts', () => {
    refused('{"mcpServers": {}, "mcpServers": {"a": {}}}', /"mcpServers" 2 times/);
    refused('{"mcpServers": {"fdref": {}, "fdref": {}}}', /"mcpServers.fdref" 2 times/);
  });

  it('refuses a configuration nested deeper than it reads, naming the file and where', () => {
    for (const depth of [1_000, 10_000]) {
      refused(
        `{"a": ${'['.repeat(depth)}${']'.repeat(depth)}}`,
        new RegExp(
          `^~/\\.cursor/mcp\\.json nests arrays and objects more than ${MAX_CONFIG_DEPTH} deep at line 1, column ${MAX_CONFIG_DEPTH + 6}\\..*nothing was written\\.$`,
        ),
      );
    }
    refused(`{\n"a":\n${'{"b":'.repeat(20_000)}`, /more than \d+ deep at line 3/);
    refused(`${']'.repeat(20_000)}${'['.repeat(20_000)}`, /more than \d+ deep at line 1, column 20257\./);
    const deepest = `{"a": ${'['.repeat(MAX_CONFIG_DEPTH - 1)}${']'.repeat(MAX_CONFIG_DEPTH - 1)}}`;
    assert.deepEqual(JSON.parse(merge(deepest).merged), { ...JSON.parse(deepest), mcpServers: { fdref: ENTRY } });
  });

  it('changes one span of a minified configuration, as long as fdref’s entry whatever the file’s size', () => {
    // Formatting the whole line (jsonc-parser's modify does for an insertion) made the merge quadratic in a
    // minified file's length: every token's formatting edit copied the whole text.
    const spans = [100, 2_000].map((count) => {
      const servers = Object.fromEntries(
        Array.from({ length: count }, (_, i) => [`s${i}`, { command: 'npx', args: ['-y', `pkg${i}`] }]),
      );
      const existing = JSON.stringify({ mcpServers: servers, other: Array.from({ length: count }, (_, i) => i) });
      const { merged } = merge(existing);
      assert.deepEqual(JSON.parse(merged), {
        mcpServers: { ...servers, fdref: ENTRY },
        other: JSON.parse(existing).other,
      });
      return changedSpan(existing, merged);
    });
    assert.ok(spans[0]! <= JSON.stringify(ENTRY).length + 20, `changed ${spans[0]} characters`);
    assert.equal(spans[1], spans[0]);
  });

  it('writes fdref’s entry in the file’s style: one line in a one-line file, indented in an indented one', () => {
    assert.equal(
      merge('{"mcpServers":{"a":{}},"x":1}').merged,
      `{"mcpServers":{"a":{},"fdref":${JSON.stringify(ENTRY)}},"x":1}`,
    );
    assert.equal(
      merge('{\n\t"mcpServers": {}\n}\n').merged,
      `{\n\t"mcpServers": {\n\t\t"fdref": ${JSON.stringify(ENTRY, null, '\t').replaceAll('\n', '\n\t\t')}\n\t}\n}\n`,
    );
    assert.equal(
      merge('{\n  "x": 1\n}').merged,
      `{\n  "x": 1,\n  "mcpServers": ${JSON.stringify({ fdref: ENTRY }, null, 2).replaceAll('\n', '\n  ')}\n}`,
    );
    assert.equal(
      merge('{\n  "mcpServers": {\n    "fdref": {"command": "old"}\n  }\n}').merged,
      `{\n  "mcpServers": {\n    "fdref": ${JSON.stringify(ENTRY, null, 2).replaceAll('\n', '\n    ')}\n  }\n}`,
    );
  });

  it('changes nothing but the fdref entry, for any configuration', () => {
    const json = fc.jsonValue({ maxDepth: 3 });
    const config = fc.record({
      top: fc.dictionary(
        fc.string().filter((key) => key !== 'mcpServers' && key !== '__proto__'),
        json,
      ),
      servers: fc.dictionary(
        fc.string().filter((key) => key !== '__proto__'),
        fc.dictionary(
          fc.string().filter((key) => key !== '__proto__'),
          json,
        ),
      ),
      indent: fc.constantFrom(0, 2, 4, '\t'),
    });
    fc.assert(
      fc.property(config, ({ top, servers, indent }) => {
        const before = { ...top, mcpServers: servers };
        const result = merge(JSON.stringify(before, null, indent));
        const expected = { ...top, mcpServers: { ...servers, [SERVER_NAME]: ENTRY } };
        assert.deepEqual(JSON.parse(result.merged), JSON.parse(JSON.stringify(expected)));
        assert.equal(result.replaced, Object.hasOwn(servers, SERVER_NAME));
      }),
      { numRuns: 200 },
    );
  });
});

describe('the agents’ entries', () => {
  it('give each client the server’s command line, and VS Code’s runtime its environment variable', () => {
    const vscodeLaunch = serverLaunch({
      runtime: { kind: 'vscode', path: '/usr/share/code/code' },
      launcher: '/l/fdref-mcp.js',
      store: '/s',
      workspaces: ['/w'],
    });
    assert.deepEqual(vscodeLaunch, {
      command: '/usr/share/code/code',
      args: ['/l/fdref-mcp.js', '--store', '/s', '--workspace', '/w'],
      env: { ELECTRON_RUN_AS_NODE: '1' },
    });
    for (const client of AGENT_CLIENTS) {
      const entry = client.entry(vscodeLaunch);
      assert.equal(entry['command'], '/usr/share/code/code', client.id);
      const budget = client.resultChars === undefined ? [] : ['--result-chars', String(client.resultChars)];
      assert.deepEqual(entry['args'], [...vscodeLaunch.args, ...budget], client.id);
      assert.deepEqual(entry['env'], { ELECTRON_RUN_AS_NODE: '1' }, client.id);
    }
    assert.deepEqual(agentClient('claude').entry(LAUNCH), {
      type: 'stdio',
      command: '/usr/bin/node',
      args: [...LAUNCH.args, '--result-chars', '40000'],
      env: {},
    });
    assert.equal(agentClient('cursor').entry(LAUNCH)['env'], undefined);
    assert.deepEqual(agentClient('cline').entry(LAUNCH)['args'], [...LAUNCH.args, '--result-chars', '8000']);
    assert.deepEqual(agentClient('cursor').entry(LAUNCH)['args'], LAUNCH.args, 'the snippet for any client has none');
  });

  it('copy as a snippet any client takes', () => {
    assert.deepEqual(JSON.parse(configurationSnippet(LAUNCH)), { mcpServers: { fdref: ENTRY } });
  });
});
