/**
 * What another process's change of the store (`watchStore`) means for this window: a session added or removed, renamed
 * or (un)pinned, a journal grown; each said once to the registry's listeners.
 */
import type { SessionReader, Store, StoreChange, StoredSessionMeta } from '../core/store';
import type { HeldSessions } from './heldSessions';
import type { SessionChange } from './sessionEntry';

/** What following a change needs of the registry. */
export interface StoreChangeContext {
  readonly store: Store;
  readonly metas: Map<string, StoredSessionMeta>;
  readonly held: HeldSessions;
  fire(event: SessionChange): void;
  added(meta: StoredSessionMeta): void;
  removed(id: string): void;
  refreshReader(id: string): Promise<Awaited<ReturnType<SessionReader['refresh']>> | undefined>;
}

export async function followStoreChange(change: StoreChange, ctx: StoreChangeContext): Promise<void> {
  const id = change.sessionId;
  switch (change.kind) {
    case 'added': {
      if (ctx.metas.has(id)) return;
      const meta = await ctx.store.meta(id);
      if (meta) ctx.added(meta);
      return;
    }
    case 'removed':
      ctx.removed(id);
      return;
    case 'meta': {
      const before = ctx.metas.get(id);
      const after = await ctx.store.meta(id);
      if (!before || !after) return;
      ctx.metas.set(id, after);
      if (after.name !== before.name) {
        const live = ctx.held.held(id);
        if (live) live.entry = { ...live.entry, metadata: { ...live.entry.metadata, name: after.name } };
        ctx.fire({ kind: 'renamed', sessionId: id, previousName: before.name });
      }
      if (after.pinned !== before.pinned) ctx.fire({ kind: 'pinned', sessionId: id, pinned: after.pinned });
      return;
    }
    case 'journal': {
      if (ctx.held.held(id)?.writer) return; // this window writes it and announced its changes itself
      const changed = await ctx.refreshReader(id);
      if (!changed) return;
      if (changed.refIds.size > 0) ctx.fire({ kind: 'refsChanged', sessionId: id, refIds: [...changed.refIds] });
      if (changed.descriptors) ctx.fire({ kind: 'descriptorsChanged', sessionId: id });
      return;
    }
  }
}
