/**
 * Pre-tool hook inputs shaped exactly as each agent sends them, field for field, with where the shape comes from.
 * The values (ids, paths, commands) are examples; the keys, nesting and types are the agents'.
 */

/**
 * Claude Code `PreToolUse` for `Bash`: the hooks reference's PreToolUse input
 * (https://code.claude.com/docs/en/hooks, "PreToolUse input"; `tool_use_id` since 2.0.x, anthropics/claude-code
 * CHANGELOG "Added `tool_use_id` field to `PreToolUseHookInput`").
 */
export const CLAUDE_CODE_BASH = {
  session_id: 'abc123',
  transcript_path: '/Users/me/.claude/projects/my-project/00893aaf-19fa-41d2-8238-13269b9b3ca0.jsonl',
  cwd: '/Users/me/my-project',
  permission_mode: 'default',
  hook_event_name: 'PreToolUse',
  tool_name: 'Bash',
  tool_input: { command: 'npm test', description: 'Run the test suite', timeout: 120000, run_in_background: false },
  tool_use_id: 'toolu_01ABC123',
};

/** Claude Code `PreToolUse` for `Write` (a matcher-less hook sees it too). */
export const CLAUDE_CODE_WRITE = {
  ...CLAUDE_CODE_BASH,
  tool_name: 'Write',
  tool_input: { file_path: '/Users/me/my-project/a.txt', content: 'hello' },
};

/**
 * Codex `PreToolUse`: `codex-rs/hooks/src/events/pre_tool_use.rs` `command_input_json` (openai/codex @0082977c),
 * schema `codex-rs/hooks/schema/generated/pre-tool-use.command.input.schema.json`: shell-like tools arrive as
 * `tool_name: "Bash"` with `tool_input: { command }`; `transcript_path` may be null.
 */
export const CODEX_BASH = {
  session_id: '0199a213-81c0-7800-8aa1-bbab2a035a53',
  turn_id: '1',
  transcript_path: null,
  cwd: '/home/me/project',
  hook_event_name: 'PreToolUse',
  model: 'gpt-5.1-codex',
  permission_mode: 'default',
  tool_name: 'Bash',
  tool_input: { command: 'cargo test --workspace' },
  tool_use_id: 'call_5b3e0e2f',
};

/**
 * What Codex 0.171.0 (npm `@openai/codex`) wrote on the hook's stdin for its `exec_command` tool (unified exec,
 * arguments `{ cmd, … }`) in `scripts/agents/agents-test.ts --agent codex --connect scripts/agents/connect-hooks.ts`,
 * recorded byte for byte (only the temporary folders renamed): `exec_command.rs` `pre_tool_use_payload` hands the hook
 * `tool_name: "Bash"` and `tool_input: { command: cmd }` (openai/codex
 * codex-rs/core/src/tools/handlers/unified_exec/exec_command.rs @019ff651); `permission_mode` is
 * `"bypassPermissions"` under `approval_policy = "never"` with `danger-full-access`.
 */
export const CODEX_0_171_EXEC_COMMAND = {
  session_id: '01a21f3e-c8e6-74c3-823e-c46f643aedb0',
  turn_id: '01a21f3e-c8f9-7b11-a482-e0116a4d2719',
  transcript_path:
    '/home/me/.codex/sessions/2026/11/27/rollout-2026-11-27T23-02-18-01a21f3e-c8e6-74c3-823e-c46f643aedb0.jsonl',
  cwd: '/home/me/project',
  hook_event_name: 'PreToolUse',
  model: 'gpt-emulated',
  permission_mode: 'bypassPermissions',
  tool_name: 'Bash',
  tool_input: { command: 'sh /home/me/project/build.sh' },
  tool_use_id: 'call_emu_000005',
};

/** Codex `PreToolUse` for `apply_patch` (pre_tool_use.rs test `command_input_uses_request_tool_name`). */
export const CODEX_APPLY_PATCH = {
  ...CODEX_BASH,
  tool_name: 'apply_patch',
  tool_input: { command: '*** Begin Patch' },
};

/**
 * Gemini CLI `BeforeTool` for `run_shell_command`: `createBaseInput` + `fireBeforeToolEvent`
 * (google-gemini/gemini-cli packages/core/src/hooks/hookEventHandler.ts @5411f113), arguments `ShellToolParams`
 * (packages/core/src/tools/shell.ts), base fields in docs/hooks/reference.md "Base input schema".
 */
export const GEMINI_SHELL = {
  session_id: '9f3c2a8e-2d4b-4c51-9a0e-6d1f0b7c3e21',
  transcript_path: '/home/me/.gemini/tmp/4a1b/chats/session-2026-11-27T22-00-9f3c2a8e.json',
  cwd: '/home/me/project',
  hook_event_name: 'BeforeTool',
  timestamp: '2026-11-27T22:00:00.000Z',
  tool_name: 'run_shell_command',
  tool_input: { command: 'npm run build', description: 'Build the project', dir_path: 'packages/app' },
};

/** Gemini CLI `BeforeTool` for `read_file`. */
export const GEMINI_READ_FILE = { ...GEMINI_SHELL, tool_name: 'read_file', tool_input: { file_path: 'README.md' } };

/**
 * Cline `PreToolUse` file hook: `createPayloadBase` and the `tool_call` event (cline/cline
 * sdk/packages/core/src/hooks/hook-file-hooks.ts @21cb8d25); `run_commands` input `{ commands: string[] }`
 * (sdk/packages/core/src/extensions/tools/schemas.ts `RunCommandsInputSchema`).
 */
export const CLINE_RUN_COMMANDS = {
  clineVersion: '3.0.65',
  timestamp: '2026-11-27T22:00:00.000Z',
  taskId: '1764280800000',
  sessionContext: { rootSessionId: '1764280800000' },
  workspaceRoots: ['/home/me/project'],
  userId: 'me',
  hookName: 'tool_call',
  iteration: 2,
  tool_call: { id: 'toolu_01XyZ', name: 'run_commands', input: { commands: ['npm ci', 'npm test'] } },
  preToolUse: { toolName: 'run_commands', parameters: { commands: '["npm ci","npm test"]' } },
};

/** Cline `PreToolUse` for `read_files`. */
export const CLINE_READ_FILES = {
  ...CLINE_RUN_COMMANDS,
  tool_call: { id: 'toolu_02', name: 'read_files', input: { filePath: 'src/a.ts' } },
  preToolUse: { toolName: 'read_files', parameters: { filePath: 'src/a.ts' } },
};

/**
 * VS Code agent hooks, `PreToolUse` for Copilot's `run_in_terminal`: the hooks reference's common input fields
 * (`timestamp`, `cwd`, `sessionId`, `hookEventName`, `transcript_path`) and PreToolUse fields (`tool_name`,
 * `tool_input`, `tool_use_id`) (https://code.visualstudio.com/docs/agents/reference/hooks-reference); the
 * `run_in_terminal` arguments as context-mode's VS Code adapter reads them (mksglu/context-mode
 * src/adapters/vscode-copilot/index.ts @9d2e6c58).
 */
export const COPILOT_RUN_IN_TERMINAL = {
  timestamp: '2026-11-27T22:00:00.000Z',
  cwd: '/home/me/project',
  sessionId: 'c0ffee00-1111-2222-3333-444455556666',
  hookEventName: 'PreToolUse',
  transcript_path: '/home/me/.config/Code/User/workspaceStorage/ab12/chatSessions/c0ffee00.json',
  tool_name: 'run_in_terminal',
  tool_input: { command: 'make -j4', explanation: 'Build everything', isBackground: false },
  tool_use_id: 'tool-123',
};

/** VS Code `PreToolUse` for `editFiles` (the reference's own example). */
export const COPILOT_EDIT_FILES = {
  ...COPILOT_RUN_IN_TERMINAL,
  tool_name: 'editFiles',
  tool_input: { files: ['src/main.ts'] },
};
