/**
 * `fdref.terminal.exclude`: regular expressions matched against a command line; a command any of them matches
 * is never kept. An invalid pattern is reported in one sentence and left out; the others still apply.
 */
import { quoteInput } from '../quoteInput';

/** A pattern as the user wrote it and compiled. */
export interface ExcludePattern {
  readonly source: string;
  readonly regex: RegExp;
}

/**
 * Commands that print secrets as a matter of course: the environment, access tokens, credential files, secret
 * stores. A user who sets the setting replaces this list.
 */
export const DEFAULT_EXCLUDE_PATTERNS: readonly string[] = [
  '^\\s*(env|printenv|set|export)(\\s+-p)?\\s*$',
  '\\b(print-access-token|get-access-token|auth token|print-identity-token)\\b',
  '\\b(cat|less|more|head|tail|bat|type)\\b.*(\\.env\\b|\\.npmrc|\\.netrc|\\.pgpass|id_rsa|id_ed25519|\\bcredentials\\b)',
  '\\b(pass|gopass) show\\b|\\bop read\\b|\\bvault (kv get|read)\\b|\\bkubectl get secrets?\\b',
];

/** Compiles each pattern; an entry that is not text or not a valid regular expression becomes a problem. */
export function compileExcludePatterns(
  values: readonly unknown[],
  name = 'fdref.terminal.exclude',
): { patterns: ExcludePattern[]; problems: string[] } {
  const patterns: ExcludePattern[] = [];
  const problems: string[] = [];
  values.forEach((value, i) => {
    if (typeof value !== 'string') {
      problems.push(`${name}[${i}] must be a regular expression as text (got ${quoteInput(value)}); it is ignored`);
      return;
    }
    try {
      patterns.push({ source: value, regex: new RegExp(value) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      problems.push(`${name}[${i}] ${quoteInput(value)} is not a valid regular expression (${reason}); it is ignored`);
    }
  });
  return { patterns, problems };
}

/** The first pattern that matches `commandLine`, or undefined when it may be kept. */
export function excludedBy(patterns: readonly ExcludePattern[], commandLine: string): ExcludePattern | undefined {
  return patterns.find((pattern) => pattern.regex.test(commandLine));
}
