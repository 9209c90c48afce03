import * as vscode from 'vscode';
import { UserError, errorMessage } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import { byteSize } from '../core/quantities';
import { searchIndexUsage } from '../core/presentation/searchKeptOutput';
import {
  clearQuestion,
  describeClear,
  groupUsage,
  type SessionUsage,
  type StoredSessionMeta,
  type UsageGroup,
} from '../core/store';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';

/** How long Show Store Usage waits for the search index's size (its worker may be busy catching up). */
const INDEX_STATS_MS = 3_000;

/** What a test passes instead of picking and confirming. */
interface UsageArguments {
  readonly sessionIds?: readonly string[];
  /** A group's key (`chat`, `terminal`, `mcp`, `agent:claude-code`, ...): clears that group's sessions. */
  readonly group?: string;
  readonly confirmed?: boolean;
}

/**
 * Shows what takes the store's space, by source (chat, terminal, MCP server, each agent), largest first; a group
 * picked can be cleared whole (pinned and open sessions stay) or its sessions listed by size to remove some.
 * `{ group, confirmed: true }` clears a group and `{ sessionIds, confirmed: true }` removes sessions without
 * asking. Resolves to the ids removed.
 */
export class ShowStoreUsageCommand implements Command {
  readonly id = 'fdref.showStoreUsage';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<string[]> {
    const args: UsageArguments = typeof arg === 'object' && arg !== null ? arg : {};
    const asked = args.group !== undefined || args.sessionIds !== undefined;
    const indexRow = asked ? undefined : this.indexUsage();
    const [usage, sessions] = await Promise.all([this.registry.usage(), this.registry.list()]);
    const names = new Map(sessions.map((s) => [s.id, s]));
    const known = usage.sessions.filter((s) => names.has(s.id));
    const groups = groupUsage(known);
    if (args.group !== undefined) {
      const group = groups.find((g) => g.key === args.group);
      if (group === undefined) throw new UserError(`The FD Refs store holds no sessions of ${args.group}.`);
      return this.clear(group, args.confirmed === true);
    }
    if (args.sessionIds !== undefined) return this.remove(known, names, args, 'FD Refs store');
    const total = `${byteSize(usage.totalBytes)} in ${known.length} ${known.length === 1 ? 'session' : 'sessions'}`;
    // The index is the store's, not a session's: a row of its own, below the groups, that clears nothing.
    const index = {
      ...(await (indexRow ?? this.indexUsage())),
      detail: 'Kept beside the sessions; Search Kept Output... reads it',
    };
    const rows: (vscode.QuickPickItem & { group?: UsageGroup })[] = [
      ...groups.map((g) => ({
        label: g.label,
        description: `${byteSize(g.bytes)} · ${g.sessions.length} ${g.sessions.length === 1 ? 'session' : 'sessions'}`,
        detail: staying(g),
        group: g,
      })),
      { label: '', kind: vscode.QuickPickItemKind.Separator },
      index,
    ];
    const picked = await vscode.window.showQuickPick(rows, {
      title: `FD Refs store: ${total}`,
      placeHolder: 'By source, largest first. Pick one to clear it or see its sessions',
    });
    const group = picked?.group === undefined ? undefined : { ...picked, group: picked.group };
    if (group === undefined) return [];
    const action = await vscode.window.showQuickPick(
      [
        { label: `Clear ${group.label}...`, detail: 'Removes its sessions, except pinned and open ones', clear: true },
        { label: `Pick ${group.label} Sessions to Remove...`, detail: 'Its sessions by size', clear: false },
      ],
      { title: `${group.label}: ${group.description}` },
    );
    if (action === undefined) return [];
    return action.clear ? this.clear(group.group, false) : this.remove(group.group.sessions, names, {}, group.label);
  }

  /** The search index's row: its size on disk and what is not indexed yet, or why that is not known. */
  private async indexUsage(): Promise<{ label: string; description: string }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`busy, no answer within ${INDEX_STATS_MS / 1000} s`)), INDEX_STATS_MS);
    });
    try {
      return searchIndexUsage(await Promise.race([this.registry.search.store.stats(), late]));
    } catch (error) {
      return searchIndexUsage({ failure: errorMessage(error) });
    } finally {
      clearTimeout(timer);
    }
  }

  /** Clears a group after a modal question naming how many sessions and bytes go; says what stayed and why. */
  private async clear(group: UsageGroup, confirmed: boolean): Promise<string[]> {
    if (!confirmed) {
      const { question, detail, removable } = clearQuestion(group, (s) => s.open || this.registry.holds(s.id));
      if (removable === 0) {
        void this.messages.info(`Every ${group.label} session is pinned or open: there is nothing to clear.`);
        return [];
      }
      if ((await this.messages.ask('warning', question, detail, 'Remove')) !== 'Remove') return [];
    }
    const result = await this.registry.clear(group.sessions);
    void this.messages.info(describeClear(group, result));
    return result.removed.map((s) => s.id);
  }

  /** Lists `usage`'s sessions by size and removes the ones picked (or `args.sessionIds`) after a confirmation. */
  private async remove(
    usage: readonly SessionUsage[],
    names: ReadonlyMap<string, StoredSessionMeta>,
    args: UsageArguments,
    title: string,
  ): Promise<string[]> {
    const rows = [...usage]
      .sort((a, b) => b.bytes - a.bytes)
      .map((s) => {
        const meta = names.get(s.id);
        const marks = [
          s.pinned ? 'pinned' : undefined,
          this.registry.holds(s.id) ? 'open here' : s.open ? 'open in another window or agent' : undefined,
        ].filter((m) => m !== undefined);
        return {
          label: meta?.name ?? s.id,
          description: [byteSize(s.bytes), ...marks].join(' · '),
          detail: `Last changed ${new Date(s.lastChangedMs).toLocaleString()} · id ${s.id}`,
          usage: s,
        };
      });
    let picked: typeof rows;
    if (args.sessionIds === undefined) {
      const bytes = usage.reduce((sum, s) => sum + s.bytes, 0);
      const chosen = await vscode.window.showQuickPick(rows, {
        title: `${title}: ${byteSize(bytes)} in ${rows.length} ${rows.length === 1 ? 'session' : 'sessions'}`,
        placeHolder: 'Largest first. Pick sessions to remove, or press Escape',
        canPickMany: true,
        matchOnDescription: true,
        matchOnDetail: true,
      });
      if (chosen === undefined || chosen.length === 0) return [];
      picked = chosen;
    } else {
      const wanted = new Set(args.sessionIds);
      picked = rows.filter((row) => wanted.has(row.usage.id));
      const unknown = [...wanted].filter((id) => !names.has(id));
      if (unknown.length > 0) throw new UserError(`There is no FD Refs session with id ${unknown.join(', ')}.`);
    }
    if (picked.length === 0) return [];
    if (args.confirmed !== true) {
      const bytes = picked.reduce((sum, row) => sum + row.usage.bytes, 0);
      const pinned = picked.filter((row) => row.usage.pinned).length;
      const answer = await this.messages.ask(
        'warning',
        `Remove ${picked.length} ${picked.length === 1 ? 'session' : 'sessions'} (${byteSize(bytes)})?`,
        `${picked.map((row) => row.label).join(', ')}${pinned > 0 ? `\n${pinned} of them pinned.` : ''}\nThis cannot be undone.`,
        'Remove',
      );
      if (answer !== 'Remove') return [];
    }
    const removed: string[] = [];
    const failed: string[] = [];
    for (const row of picked) {
      try {
        await this.registry.delete(row.usage.id, { evenIfPinned: true });
        removed.push(row.usage.id);
      } catch (error) {
        failed.push(`"${row.label}": ${errorMessage(error)}`);
      }
    }
    if (failed.length > 0) void this.messages.error(`FD Refs could not remove ${failed.join('; ')}`);
    return removed;
  }
}

/** What clearing a group would keep, as its row says it ("2 pinned, 1 open: kept when cleared"), or ''. */
function staying(group: UsageGroup): string {
  const pinned = group.sessions.filter((s) => s.pinned).length;
  const open = group.sessions.filter((s) => s.open && !s.pinned).length;
  const parts = [pinned > 0 ? `${pinned} pinned` : undefined, open > 0 ? `${open} open` : undefined];
  const kept = parts.filter((p) => p !== undefined);
  return kept.length === 0 ? '' : `${kept.join(', ')}: kept when cleared`;
}
