/**
 * Per agent, how fdref keeps its own shell tool's output: the hook that rewrites each shell call through the
 * wrapper (where the agent has one that can), the file and entry Connect an Agent writes for it at user or project
 * scope and Disconnect takes out, the preview size the wrapper prints (well under the agent's own cut of a tool
 * result, so the handle on the preview's first line always reaches the model), and, for an agent without a usable
 * hook, the instructions file that tells the model to use fdref's `run_command`. The evidence for each entry (the
 * agents' source and documentation, and measurements) is in docs/AGENT-HOOKS.md.
 */
import * as path from 'node:path';
import { HOOK_PROTOCOLS } from './hookProtocols';
import type { HookProtocol } from './hookProtocols';
import { mergeHookEntry, removeHookEntries } from './mergeHookEntry';
import { mergeHookScript, isFdrefHookScript, mergeInstructionsBlock, removeInstructionsBlock } from './textEntries';
import type { HookAgentId } from './wrapperCommand';

export type HookScope = 'user' | 'project';

/** Where the agents' files are. */
export interface HookLocations {
  readonly home: string;
  /** The workspace folder, for project scope. */
  readonly workspace?: string | undefined;
  /** `CLAUDE_CONFIG_DIR`, where Claude Code keeps what is otherwise in `~/.claude`. */
  readonly claudeConfigDir?: string | undefined;
  /** `CODEX_HOME`, Codex's folder (`~/.codex`). */
  readonly codexHome?: string | undefined;
  /** `CLINE_DIR`, Cline's folder (`~/.cline`). */
  readonly clineDir?: string | undefined;
}

/** How fdref's entry is kept in an agent's file. */
export type HookInstall =
  | {
      /** A `{ "hooks": { "<event>": [ … ] } }` JSON file. */
      readonly kind: 'hooks-json';
      readonly event: string;
      readonly allowsComments: boolean;
      /** The file is fdref's own (`.github/hooks/fdref.json`): Disconnect deletes it when nothing else is left. */
      readonly ownFile: boolean;
      /** The element added to the event's list, running `hookCommand`. */
      entry(hookCommand: string): Record<string, unknown>;
    }
  | { /** An executable script of fdref's own. */ readonly kind: 'script' }
  | {
      /** A Markdown file the agent reads into the model's context; fdref's block in it. */ readonly kind: 'instructions';
    };

export interface HookAgent {
  readonly id: HookAgentId;
  /** The product's name, as its users know it. */
  readonly label: string;
  /** The agent's hook that can rewrite its shell calls; undefined when it has none. */
  readonly protocol: HookProtocol | undefined;
  /** The most characters the wrapper prints for a long output of this agent's shell tool. */
  readonly previewChars: number;
  readonly install: HookInstall;
  /** The file fdref writes at a scope; undefined for project scope without a workspace. */
  file(scope: HookScope, locations: HookLocations): string | undefined;
  /** What Connect must tell the user beside the diff (a step left to them, what is not caught). */
  readonly notes: readonly string[];
}

/** A hook must answer quickly; a stuck one is cut by the agent (seconds; Gemini CLI counts milliseconds). */
const HOOK_TIMEOUT_SECONDS = 10;

/** Claude Code's, Codex's and Gemini CLI's entry: a matcher group holding fdref's command. */
function matcherGroup(
  matcher: string,
  handler: Record<string, unknown>,
): (hookCommand: string) => Record<string, unknown> {
  return (hookCommand) => ({ matcher, hooks: [{ type: 'command', command: hookCommand, ...handler }] });
}

function inWorkspace(locations: HookLocations, ...parts: string[]): string | undefined {
  return locations.workspace === undefined ? undefined : path.join(locations.workspace, ...parts);
}

/** What the instructions file tells a model whose agent has no hook fdref can use. */
export const RUN_COMMAND_INSTRUCTIONS = [
  '## Shell commands with long output: use fdref',
  '',
  'Run any shell command whose output may be long (builds, tests, logs, searches, installs) with the `run_command` tool of the `fdref` MCP server instead of your own shell tool: fdref keeps the whole output and answers with a handle (`fd:N`), its size, the exit code, its first and last lines and the lines that look like errors. Read more of it with `read_fd`, find lines with `search_fd`, and write it to a file with `fd_to_file`, instead of running the command again or piping it through `head`/`tail`.',
].join('\n');

export const HOOK_AGENTS: readonly HookAgent[] = [
  {
    id: 'claude-code',
    label: 'Claude Code',
    protocol: HOOK_PROTOCOLS['claude-code'],
    // Bash results up to 30K characters are shown inline; above, only a 2 KB preview and a file.
    previewChars: 8000,
    install: {
      kind: 'hooks-json',
      event: 'PreToolUse',
      allowsComments: false,
      ownFile: false,
      entry: matcherGroup('Bash', { timeout: HOOK_TIMEOUT_SECONDS }),
    },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.claudeConfigDir || path.join(locations.home, '.claude'), 'settings.json')
        : inWorkspace(locations, '.claude', 'settings.json'),
    notes: [
      "Claude Code judges its permission rules on the rewritten command, so fdref leaves alone any command one of your Bash rules allows, asks about or denies (its output is then not kept); on macOS the hook cannot see rules given on claude's command line (--allowedTools, --disallowedTools).",
    ],
  },
  {
    id: 'codex',
    label: 'Codex',
    protocol: HOOK_PROTOCOLS.codex,
    // Codex keeps about 10.2k characters of a command's output, head and tail.
    previewChars: 6000,
    install: {
      kind: 'hooks-json',
      event: 'PreToolUse',
      allowsComments: false,
      ownFile: false,
      entry: matcherGroup('^Bash$', { timeout: HOOK_TIMEOUT_SECONDS }),
    },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.codexHome || path.join(locations.home, '.codex'), 'hooks.json')
        : inWorkspace(locations, '.codex', 'hooks.json'),
    notes: [
      // Codex 0.171 keeps a hook's trust as its hash in config.toml (`[hooks.state."<file>:pre_tool_use:0:0"]
      // trusted_hash`), written when the user trusts it; an untrusted hook is skipped without a word, and
      // `bypass_hook_trust` is no config setting (only the --dangerously-bypass-hook-trust flag, for every hook), so
      // fdref leaves the trusting to the user (codex-rs/hooks/src/engine/discovery.rs `append_matcher_groups`).
      'Codex runs a new or changed hook only once you trust it: start Codex, and when it says "Hooks need review" choose "Review hooks" and trust fdref\'s PreToolUse hook (or open /hooks later). Until then, and in codex exec, which never asks, Codex skips the hook without a word. It asks again whenever fdref\'s entry changes (a new path of Node, of fdref or of the store); at project scope, Codex reads .codex/hooks.json only in a project folder you trust.',
    ],
  },
  {
    id: 'gemini-cli',
    label: 'Gemini CLI',
    protocol: HOOK_PROTOCOLS['gemini-cli'],
    // Gemini CLI cuts a tool result at 40,000 characters (first 8k and last 32k).
    previewChars: 8000,
    install: {
      kind: 'hooks-json',
      event: 'BeforeTool',
      allowsComments: true,
      ownFile: false,
      entry: matcherGroup('^run_shell_command$', { name: 'fdref', timeout: HOOK_TIMEOUT_SECONDS * 1000 }),
    },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.home, '.gemini', 'settings.json')
        : inWorkspace(locations, '.gemini', 'settings.json'),
    notes: ['At project scope Gemini CLI warns once about the new hook before it first runs.'],
  },
  {
    id: 'qwen-code',
    label: 'Qwen Code',
    protocol: undefined,
    // Qwen Code keeps about 4.5k characters; used only if its hooks can one day rewrite a command.
    previewChars: 3500,
    install: { kind: 'instructions' },
    file: (scope, locations) =>
      scope === 'user' ? path.join(locations.home, '.qwen', 'QWEN.md') : inWorkspace(locations, 'QWEN.md'),
    notes: [
      "Qwen Code's hooks cannot change a command or replace its result, so its own shell tool's long output is still cut; fdref adds instructions (QWEN.md) that ask the model to run such commands with fdref's run_command.",
    ],
  },
  {
    id: 'cline',
    label: 'Cline',
    protocol: HOOK_PROTOCOLS.cline,
    // Cline's result measured as 4k head + 4k tail.
    previewChars: 3500,
    install: { kind: 'script' },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.clineDir || path.join(locations.home, '.cline'), 'hooks', 'PreToolUse.sh')
        : inWorkspace(locations, '.cline', 'hooks', 'PreToolUse.sh'),
    notes: ['In the Cline extension, hooks run only when "Enable Hooks" is on in its settings, and not on Windows.'],
  },
  {
    id: 'copilot',
    label: 'GitHub Copilot',
    protocol: HOOK_PROTOCOLS.copilot,
    previewChars: 8000,
    install: {
      kind: 'hooks-json',
      event: 'PreToolUse',
      allowsComments: true,
      ownFile: true,
      entry: (hookCommand) => ({ type: 'command', command: hookCommand, timeout: HOOK_TIMEOUT_SECONDS }),
    },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.home, '.copilot', 'hooks', 'fdref.json')
        : inWorkspace(locations, '.github', 'hooks', 'fdref.json'),
    notes: [
      "VS Code's agent hooks are a preview; your organisation may turn them off. VS Code asks before each rewritten command unless its terminal auto-approve rules allow it.",
    ],
  },
  {
    id: 'continue',
    label: 'Continue',
    protocol: undefined,
    previewChars: 8000,
    install: { kind: 'instructions' },
    file: (scope, locations) =>
      scope === 'user'
        ? path.join(locations.home, '.continue', 'rules', 'fdref.md')
        : inWorkspace(locations, '.continue', 'rules', 'fdref.md'),
    notes: [
      "Continue loads hooks but does not run them around its tools (CLI 1.5.47), so its own Bash tool's long output is still cut; fdref adds a rule that asks the model to run such commands with fdref's run_command.",
    ],
  },
];

export function hookAgent(id: HookAgentId): HookAgent {
  const agent = HOOK_AGENTS.find((candidate) => candidate.id === id);
  if (agent === undefined) throw new Error(`no hook agent ${id}`);
  return agent;
}

export function isHookAgentId(id: string): id is HookAgentId {
  return HOOK_AGENTS.some((agent) => agent.id === id);
}

/** What to do with a file: write this text, delete it (it was fdref's alone), or leave it as it is. */
export type FileEdit =
  { readonly kind: 'write'; readonly text: string } | { readonly kind: 'delete' } | { readonly kind: 'unchanged' };

/**
 * The edit that installs fdref's entry for `agent` in its file (text `existing`, undefined when there is none),
 * running `hookCommand`; throws `AgentConfigError` for a file fdref will not edit.
 */
export function installEdit(
  agent: HookAgent,
  existing: string | undefined,
  hookCommand: string,
  fileLabel: string,
): FileEdit {
  const install = agent.install;
  let text: string;
  switch (install.kind) {
    case 'hooks-json':
      text = mergeHookEntry({
        existing,
        event: install.event,
        entry: install.entry(hookCommand),
        allowsComments: install.allowsComments,
        fileLabel,
      }).text;
      break;
    case 'script':
      text = mergeHookScript(existing, hookCommand, fileLabel);
      break;
    case 'instructions':
      text = mergeInstructionsBlock(existing, RUN_COMMAND_INSTRUCTIONS);
      break;
  }
  return text === existing ? { kind: 'unchanged' } : { kind: 'write', text };
}

/** The edit that removes every fdref entry for `agent` from its file, and nothing else. */
export function removeEdit(agent: HookAgent, existing: string | undefined, fileLabel: string): FileEdit {
  if (existing === undefined) return { kind: 'unchanged' };
  const install = agent.install;
  switch (install.kind) {
    case 'hooks-json': {
      const result = removeHookEntries({ existing, allowsComments: install.allowsComments, fileLabel });
      if (!result.changed) return { kind: 'unchanged' };
      return install.ownFile && /^\s*\{\s*\}\s*$/.test(result.text)
        ? { kind: 'delete' }
        : { kind: 'write', text: result.text };
    }
    case 'script':
      return isFdrefHookScript(existing) ? { kind: 'delete' } : { kind: 'unchanged' };
    case 'instructions': {
      const text = removeInstructionsBlock(existing);
      if (text === undefined) return { kind: 'unchanged' };
      return text.trim() === '' ? { kind: 'delete' } : { kind: 'write', text };
    }
  }
}
