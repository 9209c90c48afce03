/**
 * Notices changes other processes make to the store: sessions added or removed, metadata replaced, journals
 * grown. `fs.watch` says when to look (where the platform delivers its events); a poll looks anyway every
 * `pollMs`, so a file system without events (a network share) is followed too, only later.
 */
import { watch as watchFolder, promises as fs, type FSWatcher } from 'node:fs';
import * as path from 'node:path';
import { journalOf } from './layout';
import { META_FILE } from './meta';
import type { Store } from './store';

export type StoreChange =
  | { readonly kind: 'added'; readonly sessionId: string }
  | { readonly kind: 'removed'; readonly sessionId: string }
  /** Its metadata was replaced (renamed, pinned). */
  | { readonly kind: 'meta'; readonly sessionId: string }
  /** Its journal grew or was replaced: `SessionReader.refresh()` reads what is new. */
  | { readonly kind: 'journal'; readonly sessionId: string };

export interface StoreWatcher {
  /** Looks now (a test, or a "Refresh" command); resolves once the changes seen were reported. */
  check(): Promise<void>;
  dispose(): void;
}

interface Seen {
  readonly meta: string;
  readonly journal: string;
}

/** Reports each change to `listener`. The first look only records what is there. */
export function watchStore(
  store: Store,
  listener: (change: StoreChange) => void,
  options: { pollMs?: number } = {},
): StoreWatcher {
  let seen: Map<string, Seen> | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let disposed = false;
  const look = async (): Promise<void> => {
    const now = new Map<string, Seen>();
    for (const id of await store.sessionIds()) {
      const folder = store.sessionFolder(id);
      const [meta, journal] = await Promise.all([
        fingerprint(path.join(folder, META_FILE)),
        fingerprint(journalOf(folder)),
      ]);
      if (meta !== '') now.set(id, { meta, journal });
    }
    const before = seen;
    seen = now;
    if (before === undefined || disposed) return;
    for (const [id, facts] of now) {
      const old = before.get(id);
      if (old === undefined) listener({ kind: 'added', sessionId: id });
      else {
        if (old.meta !== facts.meta) listener({ kind: 'meta', sessionId: id });
        if (old.journal !== facts.journal) listener({ kind: 'journal', sessionId: id });
      }
    }
    for (const id of before.keys()) if (!now.has(id)) listener({ kind: 'removed', sessionId: id });
  };
  const check = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    running = look()
      .catch(() => undefined)
      .finally(() => {
        running = undefined;
        if (again && !disposed) {
          again = false;
          void check();
        }
      });
    return running;
  };
  let timer: NodeJS.Timeout | undefined;
  const soon = (): void => {
    if (timer === undefined && !disposed) timer = setTimeout(() => ((timer = undefined), void check()), 30);
  };
  const watchers: FSWatcher[] = [];
  try {
    // Recursive where supported (Windows, macOS, Linux on recent Node); the poll covers the rest.
    watchers.push(watchFolder(store.sessionsFolder, { recursive: true, persistent: false }, soon));
  } catch {
    try {
      watchers.push(watchFolder(store.sessionsFolder, { persistent: false }, soon));
    } catch {
      // polling only
    }
  }
  for (const watcher of watchers) watcher.on('error', () => undefined);
  const poll = setInterval(() => void check(), options.pollMs ?? 2_000);
  poll.unref();
  void check();
  return {
    check,
    dispose: () => {
      disposed = true;
      clearInterval(poll);
      if (timer !== undefined) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}

/** Size, modification time and identity of a file; '' when it is missing. */
async function fingerprint(file: string): Promise<string> {
  const stat = await fs.stat(file, { bigint: true }).catch(() => undefined);
  return stat === undefined ? '' : `${stat.size}:${stat.mtimeNs}:${stat.ino}`;
}
