import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import {
  BUILD_LOG_LINES,
  BUILD_SCRIPT,
  buildLog,
  connectChecks,
  ERROR_LINE,
  ERROR_LINE_NUMBER,
  FIRST_LINE,
  hasNoHook,
  LAST_LINE,
  NO_HOOK,
  reportTable,
  shellResult,
} from '../../../scripts/agents/agents-test';
import { Store } from '../../../src/core/store';
import type { RecordedRequest } from '../../support/modelEndpoint';

const request = (protocol: RecordedRequest['protocol'], body: unknown): RecordedRequest => ({
  protocol,
  method: 'POST',
  path: '/',
  headers: {},
  body,
});

describe('agents test: the build log and what reached the model', () => {
  it('prints the build log from its script: 20,402 lines, the error at line 20,001, a summary last', async () => {
    const log = buildLog();
    const lines = log.split('\n');
    assert.equal(lines.length, BUILD_LOG_LINES + 1, 'ends with a newline');
    assert.equal(lines[0], FIRST_LINE);
    assert.equal(lines[ERROR_LINE_NUMBER - 1], ERROR_LINE);
    assert.equal(lines[BUILD_LOG_LINES - 1], LAST_LINE);
    assert.equal(lines.filter((line) => line.includes('error:')).length, 1);
    const folder = await fs.mkdtemp(path.join(tmpdir(), 'fdref-build-log-'));
    try {
      const script = path.join(folder, 'build.sh');
      await fs.writeFile(script, BUILD_SCRIPT);
      const { stdout } = await promisify(execFile)('sh', [script], { maxBuffer: 8 * 1024 * 1024 });
      assert.equal(stdout, log);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });

  it('finds the shell tool’s result in each protocol’s next request, as the real agents send it, and skips other tools', () => {
    const cases: [RecordedRequest, string, string][] = [
      [
        request('anthropic', {
          messages: [
            { role: 'user', content: 'shell sh build.sh' },
            {
              role: 'assistant',
              content: [
                { type: 'tool_use', id: 'toolu_1', name: 'Read', input: {} },
                { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: {} },
              ],
            },
            {
              role: 'user',
              content: [
                { type: 'tool_result', tool_use_id: 'toolu_1', content: 'not this' },
                { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'claude out' }] },
              ],
            },
          ],
        }),
        'Bash',
        'claude out',
      ],
      [
        request('openai', {
          messages: [
            { role: 'assistant', content: 'Running.', tool_calls: [{ id: 'c1', function: { name: 'run_commands' } }] },
            { role: 'tool', tool_call_id: 'c1', content: '[{"query":"sh build.sh","result":"cline out"}]' },
          ],
        }),
        'run_commands',
        '[{"query":"sh build.sh","result":"cline out"}]',
      ],
      [
        request('openai', {
          messages: [
            { role: 'assistant', tool_calls: [{ id: 'c2', function: { name: 'run_shell_command' } }] },
            { role: 'tool', tool_call_id: 'c2', content: [{ type: 'text', text: 'qwen out' }] },
          ],
        }),
        'run_shell_command',
        'qwen out',
      ],
      [
        request('responses', {
          input: [
            { type: 'function_call', call_id: 'call_1', name: 'exec_command', arguments: '{}' },
            { type: 'function_call_output', call_id: 'call_1', output: 'codex out' },
          ],
        }),
        'exec_command',
        'codex out',
      ],
      [
        request('gemini', {
          contents: [
            { role: 'model', parts: [{ functionCall: { id: 'r1', name: 'run_shell_command', args: {} } }] },
            {
              role: 'user',
              parts: [
                { functionResponse: { id: 'r1', name: 'run_shell_command', response: { output: 'gemini out' } } },
              ],
            },
          ],
        }),
        'run_shell_command',
        'gemini out',
      ],
    ];
    for (const [recorded, tool, content] of cases)
      assert.deepEqual(shellResult([request(recorded.protocol, { messages: [] }), recorded]), { tool, content });
    assert.equal(
      shellResult([
        request('openai', {
          messages: [
            { role: 'assistant', tool_calls: [{ id: 'c3', function: { name: 'read_file' } }] },
            { role: 'tool', tool_call_id: 'c3', content: 'a file' },
          ],
        }),
      ]),
      undefined,
    );
  });

  it('counts Qwen Code and Continue (no usable hook) as expected misses of the connected check, no other agent', () => {
    assert.deepEqual(
      (['claude-code', 'codex', 'gemini-cli', 'qwen-code', 'cline', 'continue'] as const).filter(hasNoHook),
      ['qwen-code', 'continue'],
    );
    assert.equal(
      NO_HOOK,
      "no hook: its own shell tool's output is not caught; fdref's server and instructions installed",
    );
  });

  it('tabulates the figures, and says why an agent could not run', () => {
    const table = reportTable([
      {
        agent: 'codex',
        label: 'Codex',
        version: '1.0',
        tool: 'exec_command',
        chars: 10217,
        errorSeen: false,
        headSeen: true,
        tailSeen: true,
        seconds: 1,
      },
      { agent: 'cline', label: 'Cline CLI', version: '3.0', problem: 'cannot run offline: no | key', seconds: 1 },
    ]);
    assert.match(table, /\| Codex \| 1\.0 \| `exec_command` \| 10,217 \| no \| yes \/ yes \| no \|/);
    assert.match(table, /\| Cline CLI \| 3\.0 \| \| cannot run offline: no \\\| key \|/);
  });

  it('with fdref connected, wants the handle and the error line in the result and the whole log in a descriptor', async () => {
    const folder = await fs.mkdtemp(path.join(tmpdir(), 'fdref-connect-checks-'));
    const store = path.join(folder, 'store');
    const log = buildLog();
    const preview = {
      tool: 'Bash',
      content: `fd:3 (20402 lines)\n${FIRST_LINE}\n${ERROR_LINE_NUMBER}: ${ERROR_LINE}\n`,
    };
    try {
      assert.deepEqual(await connectChecks(preview, store, log), [`the store ${store} was not created`]);
      const opened = await Store.open(store);
      const writer = await opened.create({ name: 'Claude Code', origin: { kind: 'capture' } });
      await writer.addDescriptor(
        { source: 'tool_output', createdAt: new Date().toISOString() },
        await writer.putContent(log.slice(0, 1000)),
      );
      await writer.close();
      await opened.close();
      assert.deepEqual(await connectChecks({ tool: 'Bash', content: FIRST_LINE }, store, log), [
        `the tool result holds no fd:N handle; it begins ${JSON.stringify(FIRST_LINE.slice(0, 300))}`,
        'the tool result misses the error line',
        'no descriptor in the store (1 session(s)) holds the whole output byte for byte',
      ]);
      const again = await Store.open(store);
      const whole = await again.openWriter(writer.id);
      await whole.addDescriptor(
        { source: 'tool_output', createdAt: new Date().toISOString() },
        await whole.putContent(log),
      );
      await whole.close();
      await again.close();
      assert.deepEqual(await connectChecks(preview, store, log), []);
      assert.deepEqual(await connectChecks(undefined, store, log), ['no shell tool result reached the model']);
    } finally {
      await fs.rm(folder, { recursive: true, force: true });
    }
  });
});
