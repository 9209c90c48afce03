/**
 * Compare with...: which descriptors and refs are offered as the other side, and what the diff editor is titled.
 * The command (`src/commands/compareWith.ts`) reads the sessions and shows the pick; the rules are here.
 */

/** One descriptor or ref of one session, as the pick and the title name it. */
export interface CompareSide {
  readonly sessionId: string;
  readonly sessionName: string;
  /** `fd:3`, `ref:x`. */
  readonly id: string;
  readonly createdAt: string;
}

/** The most descriptors and refs the pick lists (the newest): reading more would make it slow to open. */
export const MAX_COMPARE_CANDIDATES = 1_000;

/**
 * The descriptors and refs to offer beside `self`: every one but `self` itself, newest first, at most
 * `MAX_COMPARE_CANDIDATES`.
 */
export function compareCandidates<T extends CompareSide>(all: readonly T[], self: Omit<CompareSide, 'createdAt'>): T[] {
  return all
    .filter((side) => side.sessionId !== self.sessionId || side.id !== self.id)
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .slice(0, MAX_COMPARE_CANDIDATES);
}

/**
 * The diff editor's title, the picked side (`original`, a descriptor or a workspace file's shown path) first:
 * `fd:1 ↔ fd:4 · Terminal 2026-11-28` in one session, `fd:1 (Terminal) ↔ fd:4 (Build)` across two.
 */
export function compareTitle(
  original: Omit<CompareSide, 'createdAt'> | string,
  modified: Omit<CompareSide, 'createdAt'>,
): string {
  if (typeof original === 'string') return `${original} ↔ ${modified.id} (${modified.sessionName})`;
  if (original.sessionId === modified.sessionId) return `${original.id} ↔ ${modified.id} · ${modified.sessionName}`;
  return `${original.id} (${original.sessionName}) ↔ ${modified.id} (${modified.sessionName})`;
}
