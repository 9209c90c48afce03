/**
 * The store's retention limits applied from this window (`fdref.sessions.maxDays`, `maxBytes`): never a pinned
 * session, one this window holds or shows, or one another process has open; one run at a time.
 */
import * as vscode from 'vscode';
import { applyRetention, clearSessions, type ClearResult, type SessionUsage, type Store } from '../core/store';
import type { UserMessages } from '../common/userMessages';

/** The retention limits to apply (undefined: no limit). */
export interface RetentionLimits {
  readonly maxDays?: number;
  readonly maxBytes?: number;
}

/** What retention needs of the registry. */
export interface RetentionHost {
  ready(): Promise<Store>;
  limits(): RetentionLimits;
  /** Whether the registry keeps `id` whatever the limits (held, being opened, asked for). */
  keeps(id: string): boolean;
  /** Says a session was removed. */
  removed(id: string): void;
  readonly messages: UserMessages;
}

export class Retention {
  private readonly keepers: ((id: string) => boolean)[] = [];
  private running: Promise<string[]> | undefined;

  constructor(private readonly host: RetentionHost) {}

  /** Keeps the sessions `keep` says yes to from retention (the open chat panels). */
  keepSessions(keep: (id: string) => boolean): vscode.Disposable {
    this.keepers.push(keep);
    return new vscode.Disposable(() => this.keepers.splice(this.keepers.indexOf(keep), 1));
  }

  /** Removes the given sessions (a person cleared their group), keeping what retention keeps, and says why. */
  async clear(sessions: readonly SessionUsage[]): Promise<ClearResult> {
    const result = await clearSessions(await this.host.ready(), sessions, (id) => this.keeps(id));
    for (const session of result.removed) this.host.removed(session.id);
    return result;
  }

  /** Removes the sessions past the limits, unchanged longest first; resolves to the ids removed. */
  apply(): Promise<string[]> {
    const run = async (): Promise<string[]> => {
      const store = await this.host.ready();
      const { maxDays, maxBytes } = this.host.limits();
      if (maxDays === undefined && maxBytes === undefined) return [];
      const { removed } = await applyRetention(store, {
        ...(maxDays === undefined ? {} : { maxDays }),
        ...(maxBytes === undefined ? {} : { maxBytes }),
        keep: (id) => this.keeps(id),
      });
      for (const id of removed) this.host.removed(id);
      if (removed.length > 0)
        this.host.messages.log.info(`Removed ${removed.length} session(s) past the fdref.sessions retention limits.`);
      return removed;
    };
    const next = (this.running ?? Promise.resolve([])).then(run, run);
    this.running = next.catch(() => []);
    return next;
  }

  /** Whether the registry or an open chat panel keeps `id` whatever the limits. */
  private keeps(id: string): boolean {
    return this.host.keeps(id) || this.keepers.some((keep) => keep(id));
  }
}
