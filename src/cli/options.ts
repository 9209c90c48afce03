/**
 * The command line of a sub-command: its options (each declared, with or without a value), its positional
 * arguments, and everything after `--`. Anything else is a usage error naming what was wrong.
 */

export class UsageError extends Error {}

export interface OptionSpec {
  /** Options that take a value (`--store <folder>` or `--store=<folder>`). */
  readonly values: readonly string[];
  /** Options that take none (`--mcp`). */
  readonly flags: readonly string[];
}

export interface ParsedOptions {
  readonly values: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
  readonly positionals: readonly string[];
  /** What followed `--`, undefined when there was no `--`. */
  readonly rest: readonly string[] | undefined;
}

/** `--help` and `-h` are flags of every sub-command. */
export function parseOptions(argv: readonly string[], spec: OptionSpec): ParsedOptions {
  const values = new Map<string, string>();
  const flags = new Set<string>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') return { values, flags, positionals, rest: argv.slice(i + 1) };
    if (arg === '-h' || arg === '--help') {
      flags.add('--help');
      continue;
    }
    if (!arg.startsWith('-') || arg === '-' || /^-\d/.test(arg)) {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg : arg.slice(0, eq);
    if (spec.values.includes(name)) {
      const value = eq < 0 ? argv[++i] : arg.slice(eq + 1);
      if (value === undefined) throw new UsageError(`${name} needs a value`);
      values.set(name, value);
    } else if (spec.flags.includes(name) && eq < 0) {
      flags.add(name);
    } else {
      throw new UsageError(`unknown option ${JSON.stringify(name.slice(0, 80))}`);
    }
  }
  return { values, flags, positionals, rest: undefined };
}

/** A whole number of at least `min` given for `name`. */
export function wholeNumber(name: string, value: string, min: number): number {
  if (!/^\d+$/.test(value) || Number(value) < min)
    throw new UsageError(
      `${name} must be a whole number of at least ${min}, not ${JSON.stringify(value.slice(0, 40))}`,
    );
  return Number(value);
}

/** `value` quoted for a POSIX shell (as the hints print command lines to copy). */
export function shellQuote(value: string): string {
  return /^[A-Za-z0-9_\-./:=@%+,]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}
