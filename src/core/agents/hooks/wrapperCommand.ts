/**
 * The command lines fdref's hooks write into an agent's configuration and into its shell calls: the hook's own
 * (`'<node>' '<cli.js>' hook <agent> --store '<folder>' …`), and the wrapper's that a hook rewrites a shell command
 * into (`'<node>' '<cli.js>' run --store '<folder>' --agent <agent> … -- '<original command line>'`, the contract of
 * issue 24). Every value is single-quoted for a POSIX shell, so `/bin/sh` hands the wrapper exactly the original
 * command line, whatever quotes, `$`, backticks, newlines or non-ASCII text it holds.
 */

import type { WrapperAgentId } from '../wrapperAgents';

/** The agents whose shell calls fdref's hooks can see, by the id passed in `--agent` (the wrapper's contract). */
export type HookAgentId = Exclude<WrapperAgentId, 'terminal'>;

/** `value` as one word of a POSIX shell command line, always single-quoted (an embedded `'` becomes `'\''`). */
export function posixQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A word as {@link posixQuote} writes it. */
const QUOTED = `'[^']*'(?:\\\\''[^']*')*`;
const WRAPPER_COMMAND_LINE = new RegExp(`^\\s*${QUOTED} ${QUOTED} run --store '`);
const FDREF_HOOK_COMMAND = new RegExp(`^${QUOTED} ${QUOTED} hook [a-z-]+ --store '`);

/** Where fdref's command-line tool is and which store it keeps output in. */
export interface CliLaunch {
  /** The Node executable (`process.execPath` of the running hook). */
  readonly node: string;
  /** The command-line tool's script (`dist/cli.js`, or the launcher that loads it). */
  readonly cli: string;
  /** The store folder. */
  readonly store: string;
}

export interface WrapperOptions extends CliLaunch {
  readonly agent: HookAgentId;
  /** The agent's conversation (session, task) id, when its hook tells it: one fdref session per conversation. */
  readonly conversation?: string | undefined;
  /** The most characters the wrapper prints for a long output. */
  readonly previewChars?: number | undefined;
  /** The agent has fdref's MCP server: the preview names its tools. */
  readonly mcp?: boolean | undefined;
}

/** The wrapper's command line that runs `command` (one shell command line) and keeps its output. */
export function wrapperCommandLine(options: WrapperOptions, command: string): string {
  return [
    posixQuote(options.node),
    posixQuote(options.cli),
    'run',
    '--store',
    posixQuote(options.store),
    '--agent',
    options.agent,
    ...(options.conversation === undefined ? [] : ['--conversation', posixQuote(options.conversation)]),
    ...(options.previewChars === undefined ? [] : ['--preview-chars', String(options.previewChars)]),
    ...(options.mcp === true ? ['--mcp'] : []),
    '--',
    posixQuote(command),
  ].join(' ');
}

/**
 * Whether `command` is already a wrapper command line (a hook ran twice, or a model copied one): wrapping it again
 * would keep the output twice. Matches what {@link wrapperCommandLine} writes, whatever the paths.
 */
export function isWrapperCommandLine(command: string): boolean {
  return WRAPPER_COMMAND_LINE.test(command);
}

export interface HookCommandOptions extends CliLaunch {
  readonly agent: HookAgentId;
  readonly previewChars?: number | undefined;
  readonly mcp?: boolean | undefined;
}

/** The command line an agent's configuration runs as fdref's hook. */
export function hookCommandLine(options: HookCommandOptions): string {
  return [
    posixQuote(options.node),
    posixQuote(options.cli),
    'hook',
    options.agent,
    '--store',
    posixQuote(options.store),
    ...(options.previewChars === undefined ? [] : ['--preview-chars', String(options.previewChars)]),
    ...(options.mcp === true ? ['--mcp'] : []),
  ].join(' ');
}

/**
 * Whether a configured command is fdref's hook (any version, any install path): what Disconnect removes and
 * Connect replaces, and never anyone else's.
 */
export function isFdrefHookCommand(command: unknown): boolean {
  return typeof command === 'string' && FDREF_HOOK_COMMAND.test(command);
}
