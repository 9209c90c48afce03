import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { conversationResults, workflowTable } from '../../../scripts/agents/agents-test';
import {
  codexServerTable,
  continueServerYaml,
  launchFor,
  WORKFLOW_COMMAND,
  WORKFLOW_ERROR_LINE,
  workflowFailures,
  workflowOutput,
  workflowToolOf,
  type WorkflowResult,
} from '../../../scripts/agents/mcp-workflow';
import type { RecordedRequest } from '../../support/modelEndpoint';

const running = '<command_result state="running" fd="fd:1" elapsed_s="45.0" chars="290"><message>m</message>';
const ended = '<command_result exit_code="0" fd="fd:1" chars="693">';
const GOOD: WorkflowResult[] = [
  { name: 'mcp__fdref__run_command', content: running },
  { name: 'mcp__fdref__wait_command', content: ended },
  { name: 'mcp__fdref__search_fd', content: `76: ${WORKFLOW_ERROR_LINE}` },
  { name: 'mcp__fdref__read_fd', content: `line 74\nline 75\n${WORKFLOW_ERROR_LINE}\n` },
  { name: 'mcp__fdref__fd_to_file', content: '<write_result path="out/slow.txt">' },
];

describe('agents test: the MCP workflow', () => {
  it('prints what workflowOutput says, taking longer than the server waits', async function () {
    this.timeout(0);
    // Checked on the command's text: it sleeps once per line, so the 75 lines are 75 s.
    assert.match(WORKFLOW_COMMAND, /seq 1 75\).*sleep 1/);
    const quick = WORKFLOW_COMMAND.replace('sleep 1', 'true');
    const { stdout } = await promisify(execFile)('sh', ['-c', quick]);
    assert.equal(stdout, workflowOutput());
  });

  it('knows fdref’s tools under each agent’s prefix', () => {
    assert.equal(workflowToolOf('mcp__fdref__wait_command'), 'wait_command');
    assert.equal(workflowToolOf('fdref__read_fd'), 'read_fd');
    assert.equal(workflowToolOf('mcp_fdref_search_fd'), 'search_fd');
    assert.equal(workflowToolOf('run_command'), 'run_command');
    assert.equal(workflowToolOf('Bash'), undefined);
  });

  it('passes the whole workflow and names each way it can fail', () => {
    assert.deepEqual(workflowFailures(GOOD), []);
    const noWait = GOOD.filter((_, i) => i !== 1);
    assert.match(workflowFailures(noWait).join('\n'), /the calls were: run_command search_fd/);
    const answeredAtOnce = GOOD.map((result, i) => (i === 0 ? { ...result, content: ended } : result));
    assert.match(workflowFailures(answeredAtOnce).join('\n'), /did not answer with a running descriptor/);
    const clientGaveUp = GOOD.map((result, i) =>
      i === 1 ? { ...result, content: 'MCP error -32001: Request timed out' } : result,
    );
    assert.match(workflowFailures(clientGaveUp).join('\n'), /mcp__fdref__wait_command failed: MCP error -32001/);
    const failedCommand = GOOD.map((result, i) =>
      i === 1 ? { ...result, content: '<command_result exit_code="1" fd="fd:1">' } : result,
    );
    assert.match(workflowFailures(failedCommand).join('\n'), /did not end with exit code 0/);
    const noError = GOOD.map((result, i) => (i === 2 ? { ...result, content: 'no match' } : result));
    assert.match(workflowFailures(noError).join('\n'), /search_fd did not find/);
    const noTail = GOOD.map((result, i) => (i === 3 ? { ...result, content: 'line 1' } : result));
    assert.match(workflowFailures(noTail).join('\n'), /read_fd's tail misses/);
    const escaped = GOOD.map((result) => ({ ...result, content: JSON.stringify(result.content) }));
    assert.deepEqual(workflowFailures(escaped), [], 'quotes escaped by a client that sends JSON text');
  });

  it('takes the results of the request that carried the whole conversation', () => {
    const request = (messages: unknown[]): RecordedRequest => ({
      protocol: 'openai',
      method: 'POST',
      path: '/',
      headers: {},
      body: { messages },
    });
    const call = { role: 'assistant', tool_calls: [{ id: 'a', function: { name: 'fdref__run_command' } }] };
    const result = { role: 'tool', tool_call_id: 'a', content: running };
    assert.deepEqual(conversationResults([request([call, result]), request([{ role: 'user', content: 'title?' }])]), [
      { name: 'fdref__run_command', content: running },
    ]);
  });

  it('writes the server’s entry for Codex and Continue, with each client’s result budget', () => {
    const launch = { command: '/n/node', args: ['/l/mcp.js', '--store', '/s'], env: {} };
    assert.deepEqual(launchFor('cline', launch).args.slice(-2), ['--result-chars', '8000']);
    assert.deepEqual(launchFor('codex', launch).args.slice(-2), ['--result-chars', '9000']);
    assert.equal(
      codexServerTable(launch),
      '[mcp_servers.fdref]\ncommand = "/n/node"\nargs = ["/l/mcp.js", "--store", "/s"]\n',
    );
    assert.equal(
      continueServerYaml({ ...launch, env: { ELECTRON_RUN_AS_NODE: '1' } }),
      'mcpServers:\n  - name: fdref\n    command: "/n/node"\n    args: ["/l/mcp.js", "--store", "/s"]\n    env: { ELECTRON_RUN_AS_NODE: "1" }\n',
    );
  });

  it('reports each agent as passed or with its failures', () => {
    const table = workflowTable([
      { agent: 'codex', label: 'Codex', version: '1', calls: ['a'], failures: [], seconds: 1 },
      { agent: 'cline', label: 'Cline CLI', version: '2', calls: [], failures: ['x | y'], seconds: 1 },
    ]);
    assert.match(table, /\| Codex \| 1 \| `a` \| passed \|/);
    assert.match(table, /\| Cline CLI \| 2 \| {2}\| x \\\| y \|/);
  });
});
