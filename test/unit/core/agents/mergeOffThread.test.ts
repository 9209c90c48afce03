import assert from 'node:assert/strict';
import * as path from 'node:path';
import { connectPlan } from '../../../../src/core/agents/connectPlan';
import { mergeServerEntryOffThread, planOffThread } from '../../../../src/core/agents/mergeOffThread';
import { AgentConfigError, mergeServerEntry, type MergeRequest } from '../../../../src/core/agents/mergeServerEntry';

/** The worker's TypeScript source, loaded through tsx as the tests load everything (the extension runs its bundle). */
const WORKER = path.join(path.resolve(__dirname, '../..'), '../../src/core/agents/mergeWorker.ts');
const LOAD_TYPESCRIPT = { execArgv: ['--require', require.resolve('tsx/cjs')] };

function request(existing: string | undefined): MergeRequest {
  return {
    existing,
    entry: { command: '/usr/bin/node', args: ['/l/fdref-mcp.js', '--store', '/s'] },
    allowsComments: false,
    fileLabel: '~/.cursor/mcp.json',
  };
}

describe('merging an agent configuration on a worker thread', () => {
  it('gives what the merge gives, for a new file, an added entry and a replaced one', async () => {
    for (const existing of [undefined, '{"mcpServers":{"a":{}}}', '{\n  "mcpServers": {\n    "fdref": {}\n  }\n}\n']) {
      assert.deepEqual(
        await mergeServerEntryOffThread(request(existing), WORKER, LOAD_TYPESCRIPT),
        mergeServerEntry(request(existing)),
      );
    }
  });

  it('refuses a file as the merge does, with its message', async () => {
    const deep = `{"a": ${'['.repeat(10_000)}${']'.repeat(10_000)}}`;
    for (const existing of [deep, '{"mcpServers": []}', '{"a": 1']) {
      const expected = (() => {
        try {
          mergeServerEntry(request(existing));
        } catch (error) {
          return (error as Error).message;
        }
        return assert.fail('the merge accepted it');
      })();
      await assert.rejects(
        mergeServerEntryOffThread(request(existing), WORKER, LOAD_TYPESCRIPT),
        (error: unknown) => error instanceof AgentConfigError && error.message === expected,
      );
    }
  });

  it('leaves the calling thread free while it merges', async () => {
    const servers = Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`s${i}`, { command: 'npx' }]));
    let turned = false;
    setImmediate(() => (turned = true));
    const merged = await mergeServerEntryOffThread(
      request(JSON.stringify({ mcpServers: servers })),
      WORKER,
      LOAD_TYPESCRIPT,
    ).then((result) => ({ result, turnedBefore: turned }));
    assert.ok(merged.turnedBefore, 'the event loop turned before the merge ended');
    assert.ok(merged.result.merged.includes('"fdref"'));
  });

  it('says so when the worker cannot run, and writes nothing', async () => {
    await assert.rejects(
      mergeServerEntryOffThread(request('{}'), path.join(path.resolve(__dirname, '../..'), 'no-such-worker.js')),
      /merging fdref into ~\/\.cursor\/mcp\.json failed: .*nothing was written/,
    );
  });
});

describe('planning Connect an Agent on a worker thread', () => {
  const locations = { home: '/h', workspace: '/w', globalStorage: '/g' };
  const launches = {
    server: { command: '/usr/bin/node', args: ['/l/fdref-mcp.js'], env: {} },
    cli: { node: '/usr/bin/node', cli: '/l/fdref-cli.js', store: '/s' },
  };
  const texts = { '/h/.gemini/settings.json': '{\n  // mine\n  "theme": "x"\n}\n' };

  it('gives the plans connectPlan and disconnectPlan give', async () => {
    const connected = await planOffThread(
      { plan: 'connect', agent: 'gemini-cli', scope: 'user', locations, launches, texts },
      WORKER,
      LOAD_TYPESCRIPT,
    );
    assert.deepEqual(
      connected,
      connectPlan('gemini-cli', 'user', locations, launches, (file) => texts[file as keyof typeof texts]),
    );
    const after = { '/h/.gemini/settings.json': connected.files[0]?.after };
    const disconnected = await planOffThread(
      { plan: 'disconnect', agent: 'gemini-cli', scope: 'user', locations, texts: after },
      WORKER,
      LOAD_TYPESCRIPT,
    );
    assert.equal(disconnected.files[0]?.after, texts['/h/.gemini/settings.json']);
  });

  it('refuses a file as the plan does', async () => {
    await assert.rejects(
      planOffThread(
        {
          plan: 'connect',
          agent: 'codex',
          scope: 'user',
          locations,
          launches,
          texts: { '/h/.codex/hooks.json': '{ no' },
        },
        WORKER,
        LOAD_TYPESCRIPT,
      ),
      (error: unknown) => error instanceof AgentConfigError && /hooks\.json is not valid JSON/.test(error.message),
    );
  });
});
