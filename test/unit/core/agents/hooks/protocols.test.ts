import assert from 'node:assert/strict';
import { HOOK_PROTOCOLS } from '../../../../../src/core/agents/hooks/hookProtocols';
import type { HookProtocol } from '../../../../../src/core/agents/hooks/hookProtocols';
import type { HookAgentId } from '../../../../../src/core/agents/hooks/wrapperCommand';
import {
  CLAUDE_CODE_BASH,
  CLAUDE_CODE_WRITE,
  CLINE_READ_FILES,
  CLINE_RUN_COMMANDS,
  CODEX_APPLY_PATCH,
  CODEX_0_171_EXEC_COMMAND,
  CODEX_BASH,
  COPILOT_EDIT_FILES,
  COPILOT_RUN_IN_TERMINAL,
  GEMINI_READ_FILE,
  GEMINI_SHELL,
} from './payloads';

function protocol(id: HookAgentId): HookProtocol {
  const found = HOOK_PROTOCOLS[id];
  assert.ok(found, `${id} has a hook protocol`);
  return found;
}

const mark = (command: string): string => `WRAPPED<${command}>`;

function answer(id: HookAgentId, payload: unknown): any {
  const call = protocol(id).parse(payload);
  assert.ok(call, 'the payload is a shell call');
  return JSON.parse(protocol(id).respond(call, mark));
}

describe('agent hook protocols', () => {
  it('Claude Code: reads Bash calls, and answers with the whole input, the command rewritten, no permission decision', () => {
    const call = protocol('claude-code').parse(CLAUDE_CODE_BASH);
    assert.deepEqual(
      { commands: call?.commands, conversation: call?.conversation, cwd: call?.cwd },
      { commands: ['npm test'], conversation: 'abc123', cwd: '/Users/me/my-project' },
    );
    assert.deepEqual(answer('claude-code', CLAUDE_CODE_BASH), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: {
          command: 'WRAPPED<npm test>',
          description: 'Run the test suite',
          timeout: 120000,
          run_in_background: false,
        },
      },
    });
    assert.equal(protocol('claude-code').parse(CLAUDE_CODE_WRITE), undefined);
    assert.equal(protocol('claude-code').parse({ ...CLAUDE_CODE_BASH, hook_event_name: 'PostToolUse' }), undefined);
  });

  it('Codex: reads Bash calls, and answers with updatedInput beside the permissionDecision "allow" Codex requires', () => {
    const call = protocol('codex').parse(CODEX_BASH);
    assert.deepEqual(call?.commands, ['cargo test --workspace']);
    assert.equal(call?.conversation, '0199a213-81c0-7800-8aa1-bbab2a035a53');
    assert.deepEqual(answer('codex', CODEX_BASH), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'WRAPPED<cargo test --workspace>' },
      },
    });
    assert.equal(protocol('codex').parse(CODEX_APPLY_PATCH), undefined);
  });

  it("Codex 0.171: reads exec_command's call as it reaches the hook, and answers with only the command Codex writes back into cmd", () => {
    const call = protocol('codex').parse(CODEX_0_171_EXEC_COMMAND);
    assert.deepEqual(
      { commands: call?.commands, conversation: call?.conversation, cwd: call?.cwd },
      {
        commands: ['sh /home/me/project/build.sh'],
        conversation: '01a21f3e-c8e6-74c3-823e-c46f643aedb0',
        cwd: '/home/me/project',
      },
    );
    // exec_command.rs `with_updated_hook_input` reads `updatedInput.command` (a string) into `cmd`; output_parser.rs
    // takes `updatedInput` only beside `permissionDecision: "allow"`.
    assert.deepEqual(answer('codex', CODEX_0_171_EXEC_COMMAND), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: { command: 'WRAPPED<sh /home/me/project/build.sh>' },
      },
    });
  });

  it('Gemini CLI: reads run_shell_command, and answers with the command in hookSpecificOutput.tool_input (merged by Gemini)', () => {
    const call = protocol('gemini-cli').parse(GEMINI_SHELL);
    assert.deepEqual(
      { commands: call?.commands, conversation: call?.conversation, cwd: call?.cwd },
      { commands: ['npm run build'], conversation: '9f3c2a8e-2d4b-4c51-9a0e-6d1f0b7c3e21', cwd: '/home/me/project' },
    );
    assert.deepEqual(answer('gemini-cli', GEMINI_SHELL), {
      hookSpecificOutput: { tool_input: { command: 'WRAPPED<npm run build>' } },
    });
    assert.equal(protocol('gemini-cli').parse(GEMINI_READ_FILE), undefined);
  });

  it('Cline: reads every command of run_commands, the task as conversation, and answers with overrideInput', () => {
    const call = protocol('cline').parse(CLINE_RUN_COMMANDS);
    assert.deepEqual(
      { commands: call?.commands, conversation: call?.conversation, cwd: call?.cwd },
      { commands: ['npm ci', 'npm test'], conversation: '1764280800000', cwd: '/home/me/project' },
    );
    assert.deepEqual(answer('cline', CLINE_RUN_COMMANDS), {
      overrideInput: { commands: ['WRAPPED<npm ci>', 'WRAPPED<npm test>'] },
    });
    assert.equal(protocol('cline').parse(CLINE_READ_FILES), undefined);
  });

  it('Cline: keeps the shape of every input run_commands accepts, and leaves structured (shell-less) entries alone', () => {
    const withInput = (input: unknown) => ({
      ...CLINE_RUN_COMMANDS,
      tool_call: { ...CLINE_RUN_COMMANDS.tool_call, input },
    });
    const structured = { command: 'ls', args: ['-l'] };
    assert.deepEqual(answer('cline', withInput({ commands: ['make', structured] })).overrideInput, {
      commands: ['WRAPPED<make>', structured],
    });
    assert.deepEqual(answer('cline', withInput({ commands: 'make' })).overrideInput, { commands: 'WRAPPED<make>' });
    assert.deepEqual(answer('cline', withInput({ command: 'make' })).overrideInput, { command: 'WRAPPED<make>' });
    assert.deepEqual(answer('cline', withInput({ cmd: 'make' })).overrideInput, { cmd: 'WRAPPED<make>' });
    assert.deepEqual(answer('cline', withInput('make')).overrideInput, 'WRAPPED<make>');
    assert.deepEqual(answer('cline', withInput(['a', 'b'])).overrideInput, ['WRAPPED<a>', 'WRAPPED<b>']);
    assert.equal(protocol('cline').parse(withInput({ commands: [structured] })), undefined);
  });

  it('Copilot (VS Code agent hooks): reads run_in_terminal with the camelCase sessionId, answers updatedInput', () => {
    const call = protocol('copilot').parse(COPILOT_RUN_IN_TERMINAL);
    assert.equal(call?.conversation, 'c0ffee00-1111-2222-3333-444455556666');
    assert.deepEqual(answer('copilot', COPILOT_RUN_IN_TERMINAL), {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        updatedInput: { command: 'WRAPPED<make -j4>', explanation: 'Build everything', isBackground: false },
      },
    });
    // VS Code ignores matchers: every tool reaches the hook, and only the terminal is answered.
    assert.equal(protocol('copilot').parse(COPILOT_EDIT_FILES), undefined);
    // VS Code also runs the hooks of ~/.claude/settings.json: Claude Code's hook stays silent for Copilot's tool.
    assert.equal(protocol('claude-code').parse(COPILOT_RUN_IN_TERMINAL), undefined);
  });

  it('an input of the wrong shape is no shell call, for every agent', () => {
    const odd: unknown[] = [
      null,
      'Bash',
      [],
      { tool_name: 'Bash' },
      { tool_name: 'Bash', tool_input: { command: 42 } },
      { tool_name: 'Bash', tool_input: 'npm test' },
      { hookName: 'tool_call', tool_call: { name: 'run_commands', input: { commands: [1, null] } } },
    ];
    for (const [id, found] of Object.entries(HOOK_PROTOCOLS)) {
      for (const payload of odd) assert.equal(found.parse(payload), undefined, `${id}: ${JSON.stringify(payload)}`);
    }
  });

  it('Qwen Code and Continue have no protocol: their hooks cannot rewrite a command', () => {
    assert.equal(HOOK_PROTOCOLS['qwen-code'], undefined);
    assert.equal(HOOK_PROTOCOLS.continue, undefined);
  });
});
