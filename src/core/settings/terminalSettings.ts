/** The `fdref.terminal.*` settings: whether command output is kept, its cap, the commands never kept. */
import { booleanSetting, settingsGroup, wholeNumberSetting, type Setting } from './settingsReader';
import { quoteInput } from '../quoteInput';
import { compileExcludePatterns, DEFAULT_EXCLUDE_PATTERNS, type ExcludePattern } from '../terminal/excludePatterns';

export interface TerminalSettings {
  /** Keep every command's output in the day's Terminal session (off: output can hold secrets). */
  readonly keepOutput: boolean;
  /** The most UTF-8 megabytes kept of one command's output (MiB). */
  readonly maxMegabytes: number;
  /** Commands never kept. */
  readonly exclude: readonly ExcludePattern[];
}

/** The highest `maxMegabytes`: a command's output is streamed to disk, but a GiB is already more than anyone reads. */
export const MAX_MEGABYTES_LIMIT = 1024;

/** An array of patterns; an invalid one is reported and the others kept. */
function excludeSetting(key: string): Setting<readonly ExcludePattern[]> {
  return {
    key,
    defaultValue: compileExcludePatterns(DEFAULT_EXCLUDE_PATTERNS).patterns,
    read(value, problem, name) {
      if (!Array.isArray(value)) {
        problem(`${name} must be a list of regular expressions (got ${quoteInput(value)}); using the default list`);
        return compileExcludePatterns(DEFAULT_EXCLUDE_PATTERNS).patterns;
      }
      const { patterns, problems } = compileExcludePatterns(value, name);
      problems.forEach(problem);
      return patterns;
    },
  };
}

export const terminalSettings = settingsGroup<TerminalSettings>('fdref.terminal', {
  keepOutput: booleanSetting('keepOutput', false),
  maxMegabytes: wholeNumberSetting('maxMegabytes', 64, 1, MAX_MEGABYTES_LIMIT),
  exclude: excludeSetting('exclude'),
});

/** The cap in bytes. */
export function capBytes(settings: Pick<TerminalSettings, 'maxMegabytes'>): number {
  return settings.maxMegabytes * 1024 * 1024;
}
