/** The `fdref.entities.*` settings, after validation. */
import {
  booleanSetting,
  checkedSetting,
  isHttpUrl,
  settingsGroup,
  wholeNumberSetting,
  withoutTrailingSlash,
} from './settingsReader';

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

/** The `fdref.entities.*` settings, their defaults and checks. */
export const ENTITY_SETTINGS = settingsGroup<EntitySettings>('fdref.entities', {
  apiBaseUrl: checkedSetting('apiBaseUrl', 'http://localhost:1317', {
    check: (value): value is string => isHttpUrl(value, { credentials: false }),
    rule: 'an http:// or https:// URL',
    normalize: withoutTrailingSlash,
  }),
  hoverEnabled: booleanSetting('hover.enabled', true),
  maxParallel: wholeNumberSetting('maxParallel', 5, 1, 50),
  timeoutMs: wholeNumberSetting('timeoutMs', 2000, 100, 120_000, 'a whole number of milliseconds from 100 to 120000'),
  cacheTtlSeconds: wholeNumberSetting('cacheTtlSeconds', 30, 0, 86_400, 'a whole number of seconds from 0 to 86400'),
  referenceDepth: wholeNumberSetting('referenceDepth', 1, 0, 2, '0, 1 or 2'),
});

export const DEFAULT_ENTITY_SETTINGS: EntitySettings = ENTITY_SETTINGS.defaults;

/** Raw values as read from the configuration, keyed by the setting's name under `fdref.entities.`. */
export type RawEntitySettings = Partial<
  Record<'apiBaseUrl' | 'hover.enabled' | 'maxParallel' | 'timeoutMs' | 'cacheTtlSeconds' | 'referenceDepth', unknown>
>;

/**
 * Validates the settings: each bad value is replaced by its default and described in `problems`
 * (e.g. `fdref.entities.maxParallel must be a whole number from 1 to 50 (got 0); using 5`).
 */
export function validateEntitySettings(raw: RawEntitySettings): { settings: EntitySettings; problems: string[] } {
  return ENTITY_SETTINGS.validate(raw);
}
