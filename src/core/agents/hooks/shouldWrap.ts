/**
 * Which shell commands a hook rewrites through fdref's wrapper. Left alone: commands that talk to a person
 * (editors, pagers, REPLs, `ssh` to a shell, `git commit` that opens an editor), commands that already send their
 * output somewhere (`> file`, `| tee`), background jobs (`&`, `nohup`, `disown`), commands already wrapped, and
 * anything the shared exclude list matches (the commands that print secrets, `fdref.terminal.exclude`'s defaults).
 * The command line is read as a POSIX shell reads it, enough to tell words from quoted text and here-documents:
 * a `>` inside quotes or inside a here-document is text, not a redirection.
 */
import { compileExcludePatterns, DEFAULT_EXCLUDE_PATTERNS, excludedBy } from '../../terminal/excludePatterns';
import type { ExcludePattern } from '../../terminal/excludePatterns';
import { isWrapperCommandLine } from './wrapperCommand';

export type WrapDecision =
  | { readonly wrap: true }
  | {
      readonly wrap: false;
      readonly reason: 'empty' | 'wrapped' | 'excluded' | 'background' | 'redirected' | 'interactive';
    };

/** The shared exclude list, compiled once (its patterns are constants, so none is a problem). */
export const DEFAULT_EXCLUDES: readonly ExcludePattern[] = compileExcludePatterns(DEFAULT_EXCLUDE_PATTERNS).patterns;

/** Whether a hook should run `command` through the wrapper, and if not, why. */
export function shouldWrap(command: string, excludes: readonly ExcludePattern[] = DEFAULT_EXCLUDES): WrapDecision {
  if (command.trim() === '') return { wrap: false, reason: 'empty' };
  if (isWrapperCommandLine(command)) return { wrap: false, reason: 'wrapped' };
  if (excludedBy(excludes, command) !== undefined) return { wrap: false, reason: 'excluded' };
  const skeleton = shellSkeleton(command);
  if (runsInBackground(skeleton)) return { wrap: false, reason: 'background' };
  if (redirectsOutput(skeleton)) return { wrap: false, reason: 'redirected' };
  if (simpleCommands(skeleton).some(isInteractive)) return { wrap: false, reason: 'interactive' };
  return { wrap: true };
}

/**
 * The command line with what the shell does not read as syntax taken out: quoted text becomes `''`, a backslash
 * escape becomes `_`, here-document bodies and comments are dropped. Operators, words and redirections stay where
 * they were.
 */
export function shellSkeleton(command: string): string {
  let out = '';
  const pendingHeredocs: { delimiter: string; stripTabs: boolean }[] = [];
  let i = 0;
  const n = command.length;
  while (i < n) {
    const c = command[i] as string;
    if (c === '\\') {
      out += command[i + 1] === '\n' ? '' : '_';
      i += 2;
    } else if (c === "'") {
      const end = command.indexOf("'", i + 1);
      i = end < 0 ? n : end + 1;
      out += "''";
    } else if (c === '"') {
      i++;
      while (i < n && command[i] !== '"') i += command[i] === '\\' ? 2 : 1;
      i++;
      out += "''";
    } else if (c === '#' && (i === 0 || /[\s;&|()]/.test(command[i - 1] as string))) {
      while (i < n && command[i] !== '\n') i++;
    } else if (c === '<' && command[i + 1] === '<' && command[i + 2] !== '<') {
      const heredoc = /^<<(-?)[ \t]*(?:'([^']*)'|"([^"]*)"|\\?([^\s;&|<>()]+))/.exec(command.slice(i));
      if (heredoc === null) {
        out += '<<';
        i += 2;
      } else {
        pendingHeredocs.push({
          delimiter: heredoc[2] ?? heredoc[3] ?? heredoc[4] ?? '',
          stripTabs: heredoc[1] === '-',
        });
        out += "<<''";
        i += heredoc[0].length;
      }
    } else if (c === '\n' && pendingHeredocs.length > 0) {
      out += '\n';
      i++;
      for (const heredoc of pendingHeredocs.splice(0)) {
        while (i < n) {
          const lineEnd = command.indexOf('\n', i);
          const line = command.slice(i, lineEnd < 0 ? n : lineEnd);
          i = lineEnd < 0 ? n : lineEnd + 1;
          if ((heredoc.stripTabs ? line.replace(/^\t+/, '') : line) === heredoc.delimiter) break;
        }
      }
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** A `&` that puts a command in the background (not `&&`, `>&`, `&>`, `|&`), or `nohup` / `disown` / `setsid` as a command. */
function runsInBackground(skeleton: string): boolean {
  if (/(?<![&>|<])&(?![&>])/.test(skeleton)) return true;
  return simpleCommands(skeleton).some(({ words }) => ['nohup', 'disown', 'setsid'].includes(words[0] ?? ''));
}

/**
 * A redirection of standard output (or of both streams) to a file, or a pipe into `tee`: the command already
 * keeps its output where its author wants it. `2>file` and `2>&1` keep standard output flowing, so they do not count.
 */
function redirectsOutput(skeleton: string): boolean {
  for (const match of skeleton.matchAll(/(&>>?|\d*>>?|\d*>\|)(&?)/g)) {
    const [whole, operator, duplicate] = match as unknown as [string, string, string];
    const before = skeleton[(match.index ?? 0) - 1];
    if (before === '<' || before === '>' || before === '=') continue; // `<>`, `>>` seen at its first `>`, `[ a=>b ]`
    if (operator.startsWith('&')) return true;
    const fd = /^\d+/.exec(operator)?.[0] ?? '1';
    if (fd !== '1') continue;
    if (duplicate === '&') {
      // `>&2` sends standard output to another stream the agent still reads; `>&file` (bash) is a file.
      const target = /^\s*(\S*)/.exec(skeleton.slice((match.index ?? 0) + whole.length))?.[1] ?? '';
      if (/^\d+$|^-$/.test(target)) continue;
    }
    return true;
  }
  return simpleCommands(skeleton).some(({ words }) => words[0] === 'tee');
}

/** Words that only set up the command after them. */
const PREFIXES = new Set(['sudo', 'doas', 'command', 'builtin', 'exec', 'time', 'nice', 'env', 'stdbuf', 'timeout']);

/** A simple command: its words (prefixes and `VAR=value` assignments dropped), and whether a pipe feeds its input. */
interface SimpleCommand {
  readonly words: readonly string[];
  readonly piped: boolean;
}

/** The simple commands of a command line (pipelines, lists, subshells split). */
function simpleCommands(skeleton: string): SimpleCommand[] {
  const parts = skeleton.split(/(&&|\|\||[|;&\n(){}])/);
  const commands: SimpleCommand[] = [];
  for (let i = 0; i < parts.length; i += 2) {
    const words = (parts[i] as string).trim().split(/\s+/).filter(Boolean);
    let first = 0;
    while (first < words.length) {
      const word = words[first] as string;
      if (/^[A-Za-z_]\w*=/.test(word) || PREFIXES.has(word)) first++;
      else if (first > 0 && word.startsWith('-') && PREFIXES.has(words[first - 1] as string)) first++;
      else if (first > 0 && /^\d+[smhd]?$/.test(word) && words[first - 1] === 'timeout') first++;
      else break;
    }
    const [program, ...args] = words.slice(first);
    // `/usr/bin/vim` is `vim`.
    if (program !== undefined)
      commands.push({ words: [program.replace(/^.*\/(?=.)/, ''), ...args], piped: parts[i - 1] === '|' });
  }
  return commands;
}

/** Programs that take over the terminal whatever their arguments. */
const ALWAYS_INTERACTIVE = new Set([
  'vi',
  'vim',
  'nvim',
  'view',
  'nano',
  'pico',
  'emacs',
  'micro',
  'less',
  'more',
  'most',
  'man',
  'top',
  'htop',
  'btop',
  'atop',
  'watch',
  'tmux',
  'screen',
  'fzf',
  'mc',
  'ranger',
  'tig',
  'lazygit',
  'telnet',
  'ftp',
  'sftp',
  'mosh',
]);

/** Programs that are a REPL when they get no argument (or only options). */
const REPL_WITHOUT_ARGUMENTS = new Set([
  'python',
  'python3',
  'node',
  'irb',
  'ruby',
  'bash',
  'sh',
  'zsh',
  'fish',
  'psql',
  'mysql',
  'sqlite3',
  'redis-cli',
  'mongo',
  'mongosh',
  'ghci',
  'lua',
  'php',
  'R',
  'julia',
]);

function isInteractive({ words, piped }: SimpleCommand): boolean {
  const [program = '', ...args] = words;
  if (ALWAYS_INTERACTIVE.has(program)) return true;
  // A REPL whose input is a pipe reads the program from it (`cat script | sh`).
  if (REPL_WITHOUT_ARGUMENTS.has(program))
    return !piped && args.every((arg) => arg.startsWith('-') && !isScriptFlag(arg));
  if (program === 'ssh') return sshOpensShell(args);
  if (program === 'git') return gitIsInteractive(args);
  if (['docker', 'podman', 'kubectl'].includes(program))
    return args.some((arg) => /^-(?:it|ti|[a-z]*t[a-z]*i|-tty)$/.test(arg));
  return false;
}

/** Options that give a REPL program something to run or print instead of a prompt (`-c`, `-e`, `-m`, `--version`…). */
function isScriptFlag(arg: string): boolean {
  return /^-(?:c|e|m|p|f|V|h|-eval|-print|-command|-execute|-file|-version|-help)$/.test(arg);
}

/** `ssh host` opens a shell; `ssh host command…` runs the command. Options that take a value are skipped. */
function sshOpensShell(args: readonly string[]): boolean {
  const withValue = /^-[BbcDEeFIiJLlmOoPpQRSWw]$/;
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) i += withValue.test(args[i] as string) ? 2 : 1;
  return args.length - i <= 1;
}

/** `git commit` without a message opens an editor; so do `rebase -i`, `add -p`/`-i`, `commit --amend` without `--no-edit`. */
function gitIsInteractive(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && (args[i] as string).startsWith('-')) i += ['-C', '-c'].includes(args[i] as string) ? 2 : 1;
  const [sub, ...rest] = args.slice(i);
  const has = (...flags: string[]): boolean =>
    rest.some((arg) => flags.some((flag) => arg === flag || (flag.startsWith('--') && arg.startsWith(`${flag}=`))));
  switch (sub) {
    case 'commit':
      return (
        !has('-m', '--message', '-F', '--file', '-C', '--reuse-message', '--no-edit', '--fixup') &&
        !rest.some((arg) => /^-[a-zA-Z]*m/.test(arg) && !arg.startsWith('--'))
      );
    case 'rebase':
      return has('-i', '--interactive');
    case 'add':
    case 'checkout':
    case 'reset':
    case 'restore':
    case 'stash':
      return has('-p', '--patch', '-i', '--interactive');
    default:
      return false;
  }
}
