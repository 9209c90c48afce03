/**
 * Claude Code checks its permission rules against the command a `PreToolUse` hook rewrote, not the one the model
 * wrote (seen with Claude Code 2.1.332: with `Bash(seq:*)` denied, `seq 1 3` rewritten through the wrapper ran;
 * with it allowed, the rewritten command was refused for want of approval). So fdref's hook stays out of the way
 * of every Bash rule but the blanket ones: when a `deny` or `ask` rule could concern the command, or an `allow` rule
 * lets it run unasked, the hook has no opinion and Claude Code judges the original command as it always did. The
 * matching errs towards "could concern": a command left unwrapped loses only fdref's copy of its output, while a
 * rule side-stepped would run a command the user denied.
 *
 * The rules come from the settings files and from Claude Code's own command line (`--allowedTools`,
 * `--disallowedTools`, `--settings`), which the hook reads from its ancestors' command lines where the system
 * shows them (Linux `/proc`).
 */

/** The contents of the `Bash(…)` rules of Claude Code's settings (`""` for a bare `Bash` or `Bash(*)`), by kind. */
export interface BashRules {
  readonly allow: readonly string[];
  readonly deny: readonly string[];
  readonly ask: readonly string[];
}

/** The Bash rules of Claude Code settings files (each parsed JSON; anything else is skipped). */
export function bashRules(settings: readonly unknown[]): BashRules {
  const rules = { allow: [] as string[], deny: [] as string[], ask: [] as string[] };
  for (const file of settings) {
    const permissions = isObject(file) ? file['permissions'] : undefined;
    if (!isObject(permissions)) continue;
    for (const kind of ['allow', 'deny', 'ask'] as const) {
      const list = permissions[kind];
      if (!Array.isArray(list)) continue;
      for (const rule of list) {
        const content = typeof rule === 'string' ? bashRuleContent(rule) : undefined;
        if (content !== undefined) rules[kind].push(content);
      }
    }
  }
  return rules;
}

/** Rules of several sources together. */
export function joinRules(...sources: readonly BashRules[]): BashRules {
  return {
    allow: sources.flatMap((rules) => rules.allow),
    deny: sources.flatMap((rules) => rules.deny),
    ask: sources.flatMap((rules) => rules.ask),
  };
}

const CLI_RULE_OPTIONS: Readonly<Record<string, 'allow' | 'deny'>> = {
  '--allowedTools': 'allow',
  '--allowed-tools': 'allow',
  '--disallowedTools': 'deny',
  '--disallowed-tools': 'deny',
};

/**
 * The Bash rules of a `claude` command line: `--allowedTools` / `--disallowedTools` (each followed by rules until
 * the next option, a rule list split at commas and spaces outside parentheses, `--opt=value` too), and the
 * `--settings` values given as JSON text (`settingsFiles` gets those given as a file path, for the caller to read).
 */
export function claudeCliRules(argv: readonly string[], settingsFiles: string[] = []): BashRules {
  const found: { allow: string[]; deny: string[]; settings: unknown[] } = { allow: [], deny: [], settings: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    const [name = '', inline] = arg.startsWith('--') && arg.includes('=') ? arg.split(/=(.*)/s, 2) : [arg, undefined];
    const kind = CLI_RULE_OPTIONS[name];
    if (kind !== undefined) {
      const values = inline !== undefined ? [inline] : [];
      if (inline === undefined)
        while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('-')) values.push(argv[++i] as string);
      for (const value of values) found[kind].push(...splitRuleList(value));
    } else if (name === '--settings') {
      const value = inline ?? argv[++i];
      if (value === undefined) continue;
      if (value.trim().startsWith('{')) {
        try {
          found.settings.push(JSON.parse(value) as unknown);
        } catch {
          // Claude Code refuses it too.
        }
      } else settingsFiles.push(value);
    }
  }
  const listed = bashRules([{ permissions: { allow: found.allow, deny: found.deny } }]);
  return joinRules(listed, bashRules(found.settings));
}

/** `Bash(git diff *),Edit Read` → its rules: commas and spaces separate them, except inside parentheses. */
function splitRuleList(list: string): string[] {
  const rules: string[] = [];
  let depth = 0;
  let current = '';
  for (const c of list) {
    if (c === '(') depth++;
    else if (c === ')') depth = Math.max(0, depth - 1);
    if (depth === 0 && (c === ',' || /\s/.test(c))) {
      if (current !== '') rules.push(current);
      current = '';
    } else current += c;
  }
  if (current !== '') rules.push(current);
  return rules;
}

/** `npm test:*` for `Bash(npm test:*)`, `""` for `Bash` and `Bash(*)`, undefined for a rule of another tool. */
function bashRuleContent(rule: string): string | undefined {
  const match = /^\s*Bash(?:\((.*)\))?\s*$/s.exec(rule);
  if (match === null) return undefined;
  const content = (match[1] ?? '').trim();
  return content === '*' || content === ':*' ? '' : content;
}

/** Whether the hook must leave `command` to Claude Code's own rules (see the file comment). */
export function defersToClaudeRules(command: string, rules: BashRules): boolean {
  // A blanket deny or ask covers every command, the rewritten one too: nothing is side-stepped.
  const concerns = (rule: string): boolean => rule !== '' && command.includes(ruleLiteral(rule));
  if (rules.deny.some(concerns) || rules.ask.some(concerns)) return true;
  // A blanket allow lets the rewritten command run as it lets the original.
  return rules.allow.some((rule) => rule !== '' && allows(rule, command));
}

/** The rule's text before its first wildcard: a command that does not contain it is none of the rule's business. */
function ruleLiteral(rule: string): string {
  const literal = rule.replace(/:\*$/, '').split('*')[0] ?? '';
  return literal.trim() === '' ? '' : literal.trim();
}

/**
 * Whether an allow rule may let `command` (or one of the commands of a list or pipeline) run unasked. Generous on
 * purpose, as {@link defersToClaudeRules} explains: any part of the command line that starts with the rule's text.
 */
function allows(rule: string, command: string): boolean {
  const literal = ruleLiteral(rule);
  if (literal === '') return true;
  return command.split(/&&|\|\||[;|&\n(]|\$\(|`/).some(
    (part) =>
      part.trim().startsWith(literal) ||
      part
        .trim()
        .replace(/^(?:\w+=\S*\s+)+/, '')
        .startsWith(literal),
  );
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
