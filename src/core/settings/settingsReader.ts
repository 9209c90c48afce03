/**
 * The one way fdref reads a group of settings (`fdref.chat.*`, `fdref.entities.*`). Each setting has a
 * key under its section, a default and a reader: a value that is not set is the default; a set value is
 * checked, and a bad one is replaced by the default and described in one sentence, e.g.
 * `fdref.entities.maxParallel must be a whole number from 1 to 50 (got 0); using 5`, quoting at most a
 * short prefix of what was set. A setting made of parts (the chat's endpoints) reads its value itself and
 * reports each bad part. The VS Code side only fetches the raw values of `keys` (`WatchedSettings`).
 */
import { quoteInput } from '../quoteInput';

/** One setting: where it is, what it defaults to, and how a value that is set is read. */
export interface Setting<T> {
  /** Its key under the group's section, e.g. `hover.enabled`. */
  readonly key: string;
  readonly defaultValue: T;
  /**
   * The value to use for `value` (set: neither undefined nor null). Reports each problem with it through
   * `problem`; `name` is the setting's full name, e.g. `fdref.entities.maxParallel`.
   */
  readonly read: (value: unknown, problem: (text: string) => void, name: string) => T;
}

/** A value checked as a whole. */
export interface CheckedSettingOptions<T> {
  readonly check: (value: unknown) => value is T;
  /** What a good value is, after "must be": `true or false`, `a whole number from 1 to 50`. */
  readonly rule: string;
  /** Applied to a good value, e.g. to drop a URL's trailing slash. */
  readonly normalize?: (value: T) => T;
}

/** A setting whose value is used when it passes `check`; anything else gives the default and a problem naming `rule`. */
export function checkedSetting<T>(key: string, defaultValue: T, options: CheckedSettingOptions<T>): Setting<T> {
  const { check, rule, normalize } = options;
  return {
    key,
    defaultValue,
    read(value, problem, name) {
      if (check(value)) return normalize === undefined ? value : normalize(value);
      problem(`${name} must be ${rule} (got ${quoteInput(value)}); using ${JSON.stringify(defaultValue)}`);
      return defaultValue;
    },
  };
}

/** `true` or `false`. */
export function booleanSetting(key: string, defaultValue: boolean): Setting<boolean> {
  return checkedSetting(key, defaultValue, {
    check: (value): value is boolean => typeof value === 'boolean',
    rule: 'true or false',
  });
}

/** Any text. */
export function textSetting(key: string, defaultValue: string): Setting<string> {
  return checkedSetting(key, defaultValue, {
    check: (value): value is string => typeof value === 'string',
    rule: 'text',
  });
}

/** A whole number from `min` to `max`; `rule` says so in words when the default wording does not fit. */
export function wholeNumberSetting(
  key: string,
  defaultValue: number,
  min: number,
  max: number,
  rule = `a whole number from ${min} to ${max}`,
): Setting<number> {
  const check = (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
  return checkedSetting(key, defaultValue, { check, rule });
}

/** An `http:` or `https:` URL; with `credentials: false`, one without a user name or password. */
export function isHttpUrl(value: unknown, options: { credentials: boolean }): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    return options.credentials || (url.username === '' && url.password === '');
  } catch {
    return false;
  }
}

/** The URL without trailing slashes, so paths can be appended with one. */
export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A group of settings under one section, each property of `S` read by its {@link Setting}. */
export interface SettingsGroup<S> {
  /** E.g. `fdref.entities`. */
  readonly section: string;
  /** The keys whose raw values `validate` reads. */
  readonly keys: readonly string[];
  readonly defaults: S;
  /** Every setting of the group from the raw values by key, with a sentence for each problem. */
  validate(raw: Readonly<Record<string, unknown>>): { settings: S; problems: string[] };
}

/** The group of `settings` under `section`. */
export function settingsGroup<S extends object>(
  section: string,
  settings: { readonly [K in keyof S]: Setting<S[K]> },
): SettingsGroup<S> {
  const entries = Object.entries(settings) as [keyof S & string, Setting<unknown>][];
  return {
    section,
    keys: entries.map(([, setting]) => setting.key),
    defaults: Object.fromEntries(entries.map(([property, setting]) => [property, setting.defaultValue])) as S,
    validate(raw) {
      const problems: string[] = [];
      const report = (text: string): void => {
        problems.push(text);
      };
      const values = entries.map(([property, setting]) => {
        const value = Object.hasOwn(raw, setting.key) ? raw[setting.key] : undefined;
        return [
          property,
          value === undefined || value === null
            ? setting.defaultValue
            : setting.read(value, report, `${section}.${setting.key}`),
        ];
      });
      return { settings: Object.fromEntries(values) as S, problems };
    },
  };
}
