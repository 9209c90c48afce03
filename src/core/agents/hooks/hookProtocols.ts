/**
 * What each agent's pre-tool hook reads on stdin and what it prints to run a shell call differently: per agent,
 * `parse` finds the shell call (its command lines, the conversation it belongs to, the folder it runs in) in the
 * hook's input, and `respond` writes the agent's answer that runs each command line rewritten. The shapes are the
 * agents' own, from their source and documentation (named in each comment; the tests' payloads cite where each
 * shape comes from); anything else, a call to another tool or an input that does not look as expected, is
 * `undefined`: the hook then has no opinion.
 */
import type { HookAgentId } from './wrapperCommand';

/** A call of the agent's shell tool, as its pre-tool hook sees it. */
export interface ShellCall {
  /** The shell command lines the call runs (Cline's `run_commands` runs several). */
  readonly commands: readonly string[];
  /** The agent's conversation (session, task) id. */
  readonly conversation: string | undefined;
  /** The folder the agent runs in. */
  readonly cwd: string | undefined;
  /** The tool's input as the agent sent it; a rewrite keeps every other field of it. */
  readonly input: Readonly<Record<string, unknown>>;
}

export interface HookProtocol {
  /** The shell call in a hook's input, or undefined when the input is anything else. */
  parse(payload: unknown): ShellCall | undefined;
  /** The hook's stdout that runs `call` with each command line passed through `rewrite` (exit status 0). */
  respond(call: ShellCall, rewrite: (command: string) => string): string;
}

type Json = Readonly<Record<string, unknown>>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The shape Claude Code set and Codex, VS Code and Qwen Code follow: `tool_name`, `tool_input.command` (one
 * command line), `session_id` (VS Code: `sessionId`), `cwd`.
 */
function claudeStyleCall(payload: unknown, toolName: string, event: string): ShellCall | undefined {
  if (!isObject(payload) || payload['tool_name'] !== toolName) return undefined;
  const eventName = payload['hook_event_name'] ?? payload['hookEventName'];
  if (eventName !== undefined && eventName !== event) return undefined;
  const input = payload['tool_input'];
  if (!isObject(input) || typeof input['command'] !== 'string') return undefined;
  return {
    commands: [input['command']],
    conversation: text(payload['session_id']) ?? text(payload['sessionId']),
    cwd: text(payload['cwd']),
    input,
  };
}

/** `tool_input` with its one command line rewritten, every other field kept (Claude Code replaces the whole input). */
function rewrittenInput(call: ShellCall, rewrite: (command: string) => string): Json {
  return { ...call.input, command: rewrite(call.commands[0] ?? '') };
}

/**
 * Claude Code `PreToolUse` on `Bash`: `hookSpecificOutput.updatedInput` replaces the tool's input. No
 * `permissionDecision`: `allow` would run every command without the permission prompt the user set up, `ask`
 * would prompt for every one; without it Claude Code's own permission check applies (to the rewritten command).
 */
const claudeCode: HookProtocol = {
  parse: (payload) => claudeStyleCall(payload, 'Bash', 'PreToolUse'),
  respond: (call, rewrite) =>
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: rewrittenInput(call, rewrite) },
    }),
};

/**
 * Codex `PreToolUse`: its shell tools arrive as `tool_name: "Bash"` with `tool_input: { command }` whatever their
 * own arguments: `exec_command` (unified exec, `{ cmd, workdir, yield_time_ms, … }`, the one Codex 0.171 gives the
 * model) hands the hook `{ command: cmd }` and writes `updatedInput.command` back into `cmd`, keeping its other
 * arguments (codex-rs/core/src/tools/handlers/unified_exec/exec_command.rs `pre_tool_use_payload`,
 * `with_updated_hook_input`); any other field of `updatedInput` is not used. Codex applies `updatedInput` only
 * beside `permissionDecision: "allow"` and refuses either without the other
 * (codex-rs/hooks/src/engine/output_parser.rs); `allow` there carries the rewrite, approvals still apply.
 */
const codex: HookProtocol = {
  parse: (payload) => claudeStyleCall(payload, 'Bash', 'PreToolUse'),
  respond: (call, rewrite) =>
    JSON.stringify({
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: rewrittenInput(call, rewrite),
      },
    }),
};

/** Gemini CLI `BeforeTool` on `run_shell_command`: `hookSpecificOutput.tool_input` is merged over the model's arguments. */
const geminiCli: HookProtocol = {
  parse: (payload) => claudeStyleCall(payload, 'run_shell_command', 'BeforeTool'),
  respond: (call, rewrite) =>
    JSON.stringify({ hookSpecificOutput: { tool_input: { command: rewrite(call.commands[0] ?? '') } } }),
};

/**
 * VS Code's agent hooks (`PreToolUse`) on Copilot's `run_in_terminal`: `hookSpecificOutput.updatedInput`. VS Code
 * runs every hook for every tool (matchers are ignored), so any other tool is left alone here.
 */
const copilot: HookProtocol = {
  parse: (payload) => claudeStyleCall(payload, 'run_in_terminal', 'PreToolUse'),
  respond: (call, rewrite) =>
    JSON.stringify({
      hookSpecificOutput: { hookEventName: 'PreToolUse', updatedInput: rewrittenInput(call, rewrite) },
    }),
};

/**
 * Cline's `PreToolUse` file hook (`hookName: "tool_call"`) on `run_commands`: `overrideInput` replaces the input.
 * The input is `{ commands: [...] }`; Cline also accepts `{ commands: "…" }`, `{ command }`, `{ cmd }`, a string,
 * or an array of strings (sdk/packages/core/src/extensions/tools/schemas.ts). `{ command, args }` entries run
 * without a shell and stay as they are.
 */
const cline: HookProtocol = {
  parse(payload) {
    if (!isObject(payload) || payload['hookName'] !== 'tool_call') return undefined;
    const toolCall = payload['tool_call'];
    if (!isObject(toolCall) || toolCall['name'] !== 'run_commands') return undefined;
    const raw = toolCall['input'];
    const input: Json = isObject(raw) ? raw : { [INPUT_ITSELF]: raw };
    const commands = clineCommands(input);
    if (commands.length === 0) return undefined;
    const roots = payload['workspaceRoots'];
    const session = payload['sessionContext'];
    return {
      commands,
      conversation: text(payload['taskId']) ?? (isObject(session) ? text(session['rootSessionId']) : undefined),
      cwd: Array.isArray(roots) ? text(roots[0]) : undefined,
      input,
    };
  },
  respond(call, rewrite) {
    const each = (value: unknown): unknown => (typeof value === 'string' ? rewrite(value) : value);
    const rewritten = Object.fromEntries(
      Object.entries(call.input).map(([key, value]) =>
        COMMAND_KEYS.includes(key) ? [key, Array.isArray(value) ? value.map(each) : each(value)] : [key, value],
      ),
    );
    return JSON.stringify({
      overrideInput: Object.hasOwn(rewritten, INPUT_ITSELF) ? rewritten[INPUT_ITSELF] : rewritten,
    });
  },
};

/** Where Cline's command lines are in its input (an input that is not an object is kept under INPUT_ITSELF). */
const INPUT_ITSELF = '\u0000input';
const COMMAND_KEYS: readonly string[] = ['commands', 'command', 'cmd', INPUT_ITSELF];

function clineCommands(input: Json): string[] {
  return COMMAND_KEYS.flatMap((key) => {
    const value = input[key];
    return (Array.isArray(value) ? value : [value]).filter((entry): entry is string => typeof entry === 'string');
  });
}

/** The agents whose pre-tool hook can rewrite a shell call; the others (Qwen Code, Continue) have none that can. */
export const HOOK_PROTOCOLS: Readonly<Partial<Record<HookAgentId, HookProtocol>>> = {
  'claude-code': claudeCode,
  codex,
  'gemini-cli': geminiCli,
  cline,
  copilot,
};
