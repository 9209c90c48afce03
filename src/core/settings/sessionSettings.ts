/** The `fdref.sessions.*` settings (how much the session store keeps), after validation. */
import { settingsGroup, wholeNumberSetting } from './settingsReader';

export interface SessionSettings {
  /** Sessions unchanged for more days than this are removed; 0 keeps them however old. */
  readonly maxDays: number;
  /** While the store holds more megabytes than this, the session unchanged longest is removed; 0: no limit. */
  readonly maxMegabytes: number;
}

/** The `fdref.sessions.*` settings, their defaults and checks. */
export const SESSION_SETTINGS = settingsGroup<SessionSettings>('fdref.sessions', {
  maxDays: wholeNumberSetting('maxDays', 30, 0, 36_500, 'a whole number of days from 0 (no limit) to 36500'),
  maxMegabytes: wholeNumberSetting(
    'maxMegabytes',
    2048,
    0,
    16_777_216,
    'a whole number of megabytes from 0 (no limit) to 16777216',
  ),
});

/** The retention policy the settings ask for (a limit of 0 is no limit). */
export function retentionLimits(settings: SessionSettings): { maxDays?: number; maxBytes?: number } {
  return {
    ...(settings.maxDays > 0 ? { maxDays: settings.maxDays } : {}),
    ...(settings.maxMegabytes > 0 ? { maxBytes: settings.maxMegabytes * 1024 * 1024 } : {}),
  };
}
