import assert from 'node:assert/strict';
import {
  type ConversationTurn,
  FD_WORKFLOW_MAX_WAITS,
  isRunningCommandResult,
  scriptedReply,
} from '../../support/modelEndpoint/scenarios';

const PROMPT = 'fd workflow\nrun seq 1 200000\nsearch ^15000[0-9]$\nwrite out/numbers.txt';
const MCP_TOOLS = [
  'Bash',
  'mcp__fdref__run_command',
  'mcp__fdref__wait_command',
  'mcp__fdref__search_fd',
  'mcp__fdref__read_fd',
  'mcp__fdref__fd_to_file',
];
const RUN_RESULT =
  '<command_result exit_code="0" fd="fd:3" chars="1288895"><message>stored whole as fd:3</message></command_result>';

/** The conversation after `results` tool results, each answering the call before it. */
function after(...results: { name: string; content: string; isError?: boolean }[]): ConversationTurn[] {
  return [
    { kind: 'user', text: PROMPT },
    ...results.flatMap((result, i): ConversationTurn[] => [
      { kind: 'assistant' },
      { kind: 'toolResults', results: [{ callId: `c${i}`, isError: false, ...result }] },
    ]),
  ];
}

function call(turns: ConversationTurn[], tools = MCP_TOOLS): { name: string; args: unknown } {
  const reply = scriptedReply(turns, tools);
  assert.equal(reply.kind, 'answer');
  const [only] = reply.kind === 'answer' ? reply.toolCalls : [];
  assert.ok(only, 'one tool call');
  return { name: only.name, args: JSON.parse(only.arguments) as unknown };
}

describe('the model endpoint’s fd workflow script', () => {
  it('runs the command, then searches, reads the tail of and writes the descriptor its output became', () => {
    assert.deepEqual(call(after()), { name: 'mcp__fdref__run_command', args: { command: 'seq 1 200000' } });
    const ran = { name: 'mcp__fdref__run_command', content: RUN_RESULT };
    assert.deepEqual(call(after(ran)), {
      name: 'mcp__fdref__search_fd',
      args: { fd: 'fd:3', pattern: '^15000[0-9]$', regex: true },
    });
    const searched = { name: 'mcp__fdref__search_fd', content: '150000' };
    assert.deepEqual(call(after(ran, searched)), {
      name: 'mcp__fdref__read_fd',
      args: { fd: 'fd:3', mode: 'tail', count: 3 },
    });
    const read = { name: 'mcp__fdref__read_fd', content: '200000' };
    assert.deepEqual(call(after(ran, searched, read)), {
      name: 'mcp__fdref__fd_to_file',
      args: { fd: 'fd:3', file_path: 'out/numbers.txt' },
    });
    const done = scriptedReply(
      after(ran, searched, read, { name: 'mcp__fdref__fd_to_file', content: 'wrote' }),
      MCP_TOOLS,
    );
    assert.ok(done.kind === 'answer' && done.chunks.join('').startsWith('The workflow is done.'));
  });

  it('calls the tools by their plain names where those are offered', () => {
    assert.equal(call(after(), ['run_command', 'search_fd']).name, 'run_command');
  });

  it('finds the tools under each agent’s prefix: Cline CLI’s fdref__, Gemini CLI’s mcp_fdref_', () => {
    assert.equal(call(after(), ['read_file', 'fdref__run_command']).name, 'fdref__run_command');
    assert.equal(call(after(), ['run_shell_command', 'mcp_fdref_run_command']).name, 'mcp_fdref_run_command');
  });

  it('stops at an error result, quoting it, and names a tool it is not offered', () => {
    const failed = scriptedReply(after({ name: 'mcp__fdref__run_command', content: 'boom', isError: true }), MCP_TOOLS);
    assert.ok(failed.kind === 'answer' && failed.toolCalls.length === 0);
    assert.match(failed.chunks.join(''), /^The workflow stopped: mcp__fdref__run_command failed: boom/);
    const missing = scriptedReply(after({ name: 'run_command', content: RUN_RESULT }), ['run_command']);
    assert.ok(missing.kind === 'answer' && /offers no search_fd tool/.test(missing.chunks.join('')));
  });

  it('waits for a command that is still running, then works on its descriptor', () => {
    const running = (fd: string): string =>
      `<command_result state="running" fd="${fd}" pid="7" elapsed_s="45" chars="300"><message>still running</message></command_result>`;
    const ran = { name: 'mcp__fdref__run_command', content: running('fd:4') };
    assert.deepEqual(call(after(ran)), { name: 'mcp__fdref__wait_command', args: { fd: 'fd:4' } });
    const waited = { name: 'mcp__fdref__wait_command', content: running('fd:4') };
    assert.deepEqual(call(after(ran, waited)), { name: 'mcp__fdref__wait_command', args: { fd: 'fd:4' } });
    const ended = { name: 'mcp__fdref__wait_command', content: '<command_result exit_code="0" fd="fd:4" chars="700">' };
    assert.deepEqual(call(after(ran, waited, ended)), {
      name: 'mcp__fdref__search_fd',
      args: { fd: 'fd:4', pattern: '^15000[0-9]$', regex: true },
    });
    const searched = { name: 'mcp__fdref__search_fd', content: 'ERROR' };
    assert.deepEqual(call(after(ran, ended, searched)).name, 'mcp__fdref__read_fd');
    const read = { name: 'mcp__fdref__read_fd', content: 'line 75' };
    assert.deepEqual(call(after(ran, waited, ended, searched, read)), {
      name: 'mcp__fdref__fd_to_file',
      args: { fd: 'fd:4', file_path: 'out/numbers.txt' },
    });
    const done = scriptedReply(
      after(ran, waited, ended, searched, read, { name: 'mcp__fdref__fd_to_file', content: 'wrote' }),
      MCP_TOOLS,
    );
    assert.ok(done.kind === 'answer' && done.chunks.join('').startsWith('The workflow is done.'));
  });

  it('reads a running result whose quotes a client escaped (a result passed on as JSON text)', () => {
    const escaped = JSON.stringify([{ type: 'text', text: '<command_result state="running" fd="fd:2">' }]);
    assert.ok(isRunningCommandResult(escaped));
    assert.deepEqual(call(after({ name: 'run_command', content: escaped }), ['run_command', 'wait_command']), {
      name: 'wait_command',
      args: { fd: 'fd:2' },
    });
    assert.equal(isRunningCommandResult('<command_result exit_code="0" fd="fd:2">'), false);
  });

  it('gives up after too many waits, and names a missing wait_command', () => {
    const ran = { name: 'run_command', content: '<command_result state="running" fd="fd:1">' };
    const waits = Array.from({ length: FD_WORKFLOW_MAX_WAITS }, () => ({ name: 'wait_command', content: ran.content }));
    const gaveUp = scriptedReply(after(ran, ...waits), ['run_command', 'wait_command']);
    assert.ok(gaveUp.kind === 'answer' && gaveUp.toolCalls.length === 0);
    assert.match(gaveUp.chunks.join(''), /still running after 20 waits/);
    const missing = scriptedReply(after(ran), ['run_command']);
    assert.ok(missing.kind === 'answer' && /offers no wait_command tool/.test(missing.chunks.join('')));
  });
});
