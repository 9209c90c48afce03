import * as vscode from 'vscode';
import { UserError, errorMessage } from '../common/errors';
import type { UserMessages } from '../common/userMessages';
import { byteSize } from '../core/quantities';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import type { Command } from './command';

/** What a test passes instead of picking and confirming. */
interface UsageArguments {
  readonly sessionIds?: readonly string[];
  readonly confirmed?: boolean;
}

/**
 * Shows what takes the store's space: every session by size (pinned and open ones marked), and removes the
 * ones the user picks after a confirmation. `{ sessionIds, confirmed: true }` skips both questions. Resolves to
 * the ids removed.
 */
export class ShowStoreUsageCommand implements Command {
  readonly id = 'fdref.showStoreUsage';

  constructor(
    private readonly registry: SessionRegistry,
    private readonly messages: UserMessages,
  ) {}

  async execute(arg?: unknown): Promise<string[]> {
    const args: UsageArguments = typeof arg === 'object' && arg !== null ? arg : {};
    const [usage, sessions] = await Promise.all([this.registry.usage(), this.registry.list()]);
    const names = new Map(sessions.map((s) => [s.id, s]));
    const rows = usage.sessions
      .filter((s) => names.has(s.id))
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
      const chosen = await vscode.window.showQuickPick(rows, {
        title: `FD Refs store: ${byteSize(usage.totalBytes)} in ${rows.length} sessions`,
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
        await this.registry.delete(row.usage.id);
        removed.push(row.usage.id);
      } catch (error) {
        failed.push(`"${row.label}": ${errorMessage(error)}`);
      }
    }
    if (failed.length > 0) void this.messages.error(`FD Refs could not remove ${failed.join('; ')}`);
    return removed;
  }
}
