/** The `fdref.entities.*` settings, after validation. */
export interface EntitySettings {
  /** The Structs consensus API, e.g. `http://localhost:1317`. */
  readonly apiBaseUrl: string;
  readonly hoverEnabled: boolean;
  readonly maxParallel: number;
  readonly timeoutMs: number;
  readonly cacheTtlSeconds: number;
  /** How deep the references of an opened entity go (0-2). */
  readonly referenceDepth: number;
}

export const DEFAULT_ENTITY_SETTINGS: EntitySettings = {
  apiBaseUrl: 'http://localhost:1317',
  hoverEnabled: true,
  maxParallel: 5,
  timeoutMs: 2000,
  cacheTtlSeconds: 30,
  referenceDepth: 1,
};

/** Raw values as read from the configuration, keyed by the setting's name under `fdref.entities.`. */
export type RawEntitySettings = Partial<Record<'apiBaseUrl' | 'hover.enabled' | 'maxParallel' | 'timeoutMs' | 'cacheTtlSeconds' | 'referenceDepth', unknown>>;

/**
 * Validates the settings: each bad value is replaced by its default and described in `problems`
 * (e.g. `fdref.entities.maxParallel must be a whole number from 1 to 50 (got 0); using 5`).
 */
export function validateEntitySettings(raw: RawEntitySettings): { settings: EntitySettings; problems: string[] } {
  const problems: string[] = [];
  const pick = <T>(key: keyof RawEntitySettings, fallback: T, valid: (value: unknown) => value is T, rule: string): T => {
    const value = raw[key];
    if (value === undefined || value === null) return fallback;
    if (valid(value)) return value;
    problems.push(`fdref.entities.${key} must be ${rule} (got ${JSON.stringify(value)}); using ${JSON.stringify(fallback)}`);
    return fallback;
  };
  const wholeNumber = (min: number, max: number) => (value: unknown): value is number =>
    typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
  const d = DEFAULT_ENTITY_SETTINGS;
  const apiBaseUrl = pick('apiBaseUrl', d.apiBaseUrl, isHttpUrl, 'an http:// or https:// URL');
  return {
    settings: {
      apiBaseUrl: apiBaseUrl.replace(/\/+$/, ''),
      hoverEnabled: pick('hover.enabled', d.hoverEnabled, (v): v is boolean => typeof v === 'boolean', 'true or false'),
      maxParallel: pick('maxParallel', d.maxParallel, wholeNumber(1, 50), 'a whole number from 1 to 50'),
      timeoutMs: pick('timeoutMs', d.timeoutMs, wholeNumber(100, 120_000), 'a whole number of milliseconds from 100 to 120000'),
      cacheTtlSeconds: pick('cacheTtlSeconds', d.cacheTtlSeconds, wholeNumber(0, 86_400), 'a whole number of seconds from 0 to 86400'),
      referenceDepth: pick('referenceDepth', d.referenceDepth, wholeNumber(0, 2), '0, 1 or 2'),
    },
    problems,
  };
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.username === '' && url.password === '';
  } catch {
    return false;
  }
}
