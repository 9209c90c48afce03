/** An editor group as the column rule sees it. */
export interface GroupSight {
  /** Its `ViewColumn` (1 for the leftmost group). */
  readonly column: number;
  /** The group the user works in now. */
  readonly active: boolean;
  /** Its active tab is a chat: a document opened there would cover the chat. */
  readonly showsChat: boolean;
}

/**
 * Where a document opened from a chat goes (a ref, a diff, an entity's JSON, an exported chat): never over a chat
 * and never in a new column when there is a group to use. The active group, unless it shows a chat; else the
 * leftmost group that shows none; else, every group showing a chat, `'beside'` (a new column). With no group at all,
 * column 1. A chat in the side bar is in no group, so its documents go to the active group.
 */
export function documentColumn(groups: readonly GroupSight[]): number | 'beside' {
  if (groups.length === 0) return 1;
  const active = groups.find((group) => group.active);
  if (active && !active.showsChat) return active.column;
  const free = groups.filter((group) => !group.showsChat).sort((a, b) => a.column - b.column)[0];
  return free ? free.column : 'beside';
}
