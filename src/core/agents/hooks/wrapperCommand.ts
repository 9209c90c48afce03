/**
 * The command lines fdref's hooks write into an agent's configuration and into its shell calls: the hook's own
 * (`'<node>' '<cli.js>' hook <agent> --store '<folder>' …`), and the wrapper's that a hook rewrites a shell command
 * into: `'<node>' '<cli.js>' run --store '<folder>' --agent <agent> … -- '<original command line>'` (the contract of
 * issue 24), or on Linux the same behind a shell front (`'/bin/sh' '<front.sh>' '<node>' '<cli.js>' <limit> --store …`,
 * see FRONT). Every
 * value is single-quoted for a POSIX shell, so `/bin/sh` hands the wrapper exactly the original command line,
 * whatever quotes, `$`, backticks, newlines or non-ASCII text it holds.
 */

import { createHash } from 'node:crypto';
import { DEFAULT_PREVIEW_CHARS } from '../../presentation/outputPreview';
import { POSIX_SHELLS } from '../../process/wrapperRun';
import type { WrapperAgentId } from '../wrapperAgents';

/** The agents whose shell calls fdref's hooks can see, by the id passed in `--agent` (the wrapper's contract). */
export type HookAgentId = Exclude<WrapperAgentId, 'terminal'>;

/** `value` as one word of a POSIX shell command line, always single-quoted (an embedded `'` becomes `'\''`). */
export function posixQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** A word as {@link posixQuote} writes it. */
const QUOTED = `'[^']*'(?:\\\\''[^']*')*`;
const WRAPPER_COMMAND_LINE = new RegExp(
  `^\\s*(?:${QUOTED} ${QUOTED} run --store '|'/bin/sh' ${QUOTED} ${QUOTED} ${QUOTED} \\d+ --store ')`,
);
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
  return [posixQuote(options.node), posixQuote(options.cli), 'run', ...runArguments(options, command)].join(' ');
}

const shellCase = (pattern: (name: string) => string): string => [...POSIX_SHELLS].map(pattern).join('|');

/**
 * The shell front of the wrapper, for Linux: starting Node costs 75-200 ms on a busy machine, more than most
 * commands take, and most commands print little. The front (a file of the store run by /bin/sh, a millisecond)
 * runs the command itself, with the shell `run` would choose (its parent when that is a POSIX shell, else $SHELL,
 * else /bin/sh: the rule of agentShell in wrapperRun.ts), stdin passed through, stdout and stderr one pipe in their
 * order, and reads the first limit+1 bytes into a temporary folder (GNU head reads no byte past the count). Output
 * of at most the limit is printed as it is and Node never starts. Longer output is handed over to
 * `cli.js take <folder>` (the head in a file, the rest on the same pipe, the status in a file once the command has
 * ended), which keeps it exactly as `run` does. When Node cannot start (it then leaves no `k` file), the output is
 * printed whole with a note; the front always exits with the command's status.
 * A file and not `sh -c '<script>'`: Claude Code reads a `sh -c` script and asks the user before running one
 * that removes files (this one removes its temporary folder), measured with Claude Code 2.1.330.
 */
export const FRONT = `# fdref's shell front, written by fdref's hook: see wrapperCommand.ts in fdref's source.
# Arguments: node, cli.js, the most bytes printed as they are, then cli.js take's options, the command line last.
for c; do :; done
s=$(readlink "/proc/$PPID/exe" 2>/dev/null)
case /\${s##*/} in
${shellCase((name) => `/${name}`)}) ;;
*) case $SHELL in ${shellCase((name) => `/*/${name}`)}) s=$SHELL ;; *) s=/bin/sh ;; esac ;;
esac
n=$1 j=$2 l=$3
shift 3
t=$(mktemp -d "\${TMPDIR:-/tmp}/fdref-run.XXXXXX") || {
  "$s" -c "$c"
  r=$?
  echo 'fdref: the output was not kept (no temporary folder)' >&2
  exit $r
}
{ "$s" -c "$c"; echo $? >"$t/s"; } 2>&1 | {
  if ! head -c $((l + 1)) >"$t/h"; then
    cat "$t/h" -
    echo 'fdref: the output was not kept (no room for its first bytes; some may be missing)' >&2
  elif [ "$(wc -c <"$t/h")" -le "$l" ]; then
    cat "$t/h"
  elif ! "$n" "$j" take "$t" "$@" && [ ! -e "$t/k" ]; then
    cat "$t/h" -
    echo 'fdref: the output was not kept (its tool did not start)' >&2
  fi
}
r=
{ read -r r <"$t/s"; } 2>/dev/null
rm -rf "$t"
exit "\${r:-1}"
`;

/** The front's file in the store's `bin` folder: named by its text's hash, so versions sit side by side. */
export function frontFileName(): string {
  return `front-${createHash('sha256').update(FRONT).digest('hex').slice(0, 12)}.sh`;
}

/**
 * The front's command line for `command` (see {@link FRONT}), `front` the path of its file: what the hooks write
 * on Linux, where /bin/sh, GNU head and /proc are there; elsewhere {@link wrapperCommandLine}.
 */
export function frontCommandLine(options: WrapperOptions, command: string, front: string): string {
  return [
    "'/bin/sh'",
    posixQuote(front),
    posixQuote(options.node),
    posixQuote(options.cli),
    String(options.previewChars ?? DEFAULT_PREVIEW_CHARS),
    ...runArguments(options, command),
  ].join(' ');
}

/** What a hook rewrites `command` into: through the front when its file is there (`front`), else through `run`. */
export function hookedCommandLine(options: WrapperOptions, command: string, front: string | undefined): string {
  return front === undefined ? wrapperCommandLine(options, command) : frontCommandLine(options, command, front);
}

function runArguments(options: WrapperOptions, command: string): string[] {
  return [
    '--store',
    posixQuote(options.store),
    '--agent',
    options.agent,
    ...(options.conversation === undefined ? [] : ['--conversation', posixQuote(options.conversation)]),
    ...(options.previewChars === undefined ? [] : ['--preview-chars', String(options.previewChars)]),
    ...(options.mcp === true ? ['--mcp'] : []),
    '--',
    posixQuote(command),
  ];
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
