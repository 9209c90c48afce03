/**
 * How much the store holds and what it lets go: sizes per session and in all, removal of the sessions
 * unchanged longest once they pass an age or the store a size (never a pinned one, nor one a live process
 * has open), and removal of files a crash left behind.
 */
import type { Dirent } from 'node:fs';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { TEMP_SUFFIX } from './atomicFile';
import { journalOf } from './layout';
import { leaseStatus } from './lease';
import { META_FILE } from './meta';
import type { SessionOrigin } from '../session/sessionRecord';
import type { Store } from './store';
import { inBatches } from './store';

export interface SessionUsage {
  readonly id: string;
  readonly name: string;
  /** Where it came from (a chat, a terminal, an agent's shell, an MCP server): Show Store Usage groups by it. */
  readonly origin: SessionOrigin;
  /** Bytes of every file in the session's folder (a content shared with a fork counts in both). */
  readonly bytes: number;
  /** When the session last changed (its journal or metadata), in ms since 1970. */
  readonly lastChangedMs: number;
  readonly pinned: boolean;
  /** Whether a live process holds its lease (it is open for writing somewhere). */
  readonly open: boolean;
}

export interface StoreUsage {
  /** Bytes on disk, each file counted once however many sessions share it. */
  readonly totalBytes: number;
  readonly sessions: SessionUsage[];
}

interface FileFacts {
  readonly key: string;
  readonly size: number;
}

/** The size of the store and of each session. */
export async function storeUsage(store: Store): Promise<StoreUsage> {
  return (await survey(store)).usage;
}

export interface RetentionPolicy {
  /** Sessions unchanged for more days than this are removed. */
  readonly maxDays?: number;
  /** While the store holds more bytes than this, the session unchanged longest is removed. */
  readonly maxBytes?: number;
  /** Sessions the caller has open (a chat panel shows it): never removed, like pinned ones. */
  readonly keep?: (id: string) => boolean;
  readonly now?: Date;
}

/** Applies the policy; resolves to the sessions removed (oldest first) and the bytes the store holds after. */
export async function applyRetention(
  store: Store,
  policy: RetentionPolicy,
): Promise<{ removed: string[]; totalBytes: number }> {
  const { usage, files } = await survey(store);
  const now = (policy.now ?? new Date()).getTime();
  const links = new Map<string, { size: number; count: number }>();
  for (const list of files.values())
    for (const f of list) links.set(f.key, { size: f.size, count: (links.get(f.key)?.count ?? 0) + 1 });
  let total = usage.totalBytes;
  const removed: string[] = [];
  const candidates = usage.sessions
    .filter((s) => !s.pinned && !s.open && !(policy.keep?.(s.id) ?? false))
    .sort((a, b) => a.lastChangedMs - b.lastChangedMs);
  for (const session of candidates) {
    const tooOld = policy.maxDays !== undefined && now - session.lastChangedMs > policy.maxDays * 86_400_000;
    const tooBig = policy.maxBytes !== undefined && total > policy.maxBytes;
    if (!tooOld && !tooBig) continue;
    // Pinned or taken by a writer since the survey: kept.
    if ((await store.deleteIfIdle(session.id)) !== 'removed') continue;
    removed.push(session.id);
    for (const f of files.get(session.id) ?? []) {
      const link = links.get(f.key);
      if (link !== undefined && --link.count === 0) total -= link.size;
    }
  }
  return { removed, totalBytes: total };
}

/** Why clearing kept a session. */
export type KeptReason = 'pinned' | 'open here' | 'open elsewhere';

export interface ClearResult {
  readonly removed: readonly SessionUsage[];
  readonly kept: readonly { readonly session: SessionUsage; readonly reason: KeptReason }[];
}

/**
 * Removes the given sessions at a person's request (one origin's, from Show Store Usage), keeping as retention
 * does every pinned one, every one `keep` says the caller has open, and every one a writer holds; says which it
 * kept and why. A session gone meanwhile is in neither list.
 */
export async function clearSessions(
  store: Store,
  sessions: readonly SessionUsage[],
  keep: (id: string) => boolean = () => false,
): Promise<ClearResult> {
  const removed: SessionUsage[] = [];
  const kept: { session: SessionUsage; reason: KeptReason }[] = [];
  for (const session of sessions) {
    if (keep(session.id)) {
      kept.push({ session, reason: 'open here' });
      continue;
    }
    const outcome = await store.deleteIfIdle(session.id);
    if (outcome === 'removed') removed.push(session);
    else if (outcome === 'pinned') kept.push({ session, reason: 'pinned' });
    else if (outcome === 'busy') kept.push({ session, reason: 'open elsewhere' });
  }
  return { removed, kept };
}

/**
 * Removes what crashes left: temporary files and sessions never finished being created (older than
 * `olderThanMs`, so nothing still being written is touched) and deleted sessions not yet removed.
 */
export async function cleanTemporaryFiles(
  store: Store,
  options: { olderThanMs?: number; now?: Date } = {},
): Promise<string[]> {
  const cutoff = (options.now ?? new Date()).getTime() - (options.olderThanMs ?? 3_600_000);
  const removed: string[] = [];
  const removeIfOld = async (file: string, recursive: boolean): Promise<void> => {
    const stat = await fs.lstat(file).catch(() => undefined);
    if (stat === undefined || stat.mtimeMs > cutoff) return;
    await fs.rm(file, { recursive, force: true });
    removed.push(file);
  };
  for (const name of await fs.readdir(store.trashFolder).catch(() => [] as string[])) {
    await fs.rm(path.join(store.trashFolder, name), { recursive: true, force: true });
    removed.push(path.join(store.trashFolder, name));
  }
  for (const entry of await fs.readdir(store.sessionsFolder, { withFileTypes: true })) {
    const folder = path.join(store.sessionsFolder, entry.name);
    if (entry.name.endsWith(TEMP_SUFFIX)) await removeIfOld(folder, true);
    else if (entry.isDirectory()) {
      for (const file of await filesUnder(folder)) if (file.endsWith(TEMP_SUFFIX)) await removeIfOld(file, false);
    }
  }
  return removed;
}

async function survey(store: Store): Promise<{ usage: StoreUsage; files: Map<string, FileFacts[]> }> {
  const sessions: SessionUsage[] = [];
  const files = new Map<string, FileFacts[]>();
  const unique = new Map<string, number>();
  const listed = (await store.list()).sessions;
  await inBatches(listed, 16, async (meta) => {
    const folder = store.sessionFolder(meta.id);
    const facts: FileFacts[] = [];
    let lastChangedMs = 0;
    for (const file of await filesUnder(folder)) {
      const stat = await fs.stat(file, { bigint: true }).catch(() => undefined);
      if (stat === undefined) continue;
      const key = `${stat.dev}:${stat.ino}`;
      facts.push({ key, size: Number(stat.size) });
      unique.set(key, Number(stat.size));
      if (file === journalOf(folder) || file === path.join(folder, META_FILE))
        lastChangedMs = Math.max(lastChangedMs, Number(stat.mtimeMs));
    }
    files.set(meta.id, facts);
    const lease = await leaseStatus(folder);
    sessions.push({
      id: meta.id,
      name: meta.name,
      origin: meta.origin,
      bytes: facts.reduce((sum, f) => sum + f.size, 0),
      lastChangedMs,
      pinned: meta.pinned,
      open: lease?.live === true,
    });
  });
  let totalBytes = 0;
  for (const size of unique.values()) totalBytes += size;
  sessions.sort((a, b) => a.id.localeCompare(b.id));
  return { usage: { totalBytes, sessions }, files };
}

/** Every file under `folder` (its subfolders included). */
async function filesUnder(folder: string): Promise<string[]> {
  const out: string[] = [];
  const entries: Dirent[] = await fs.readdir(folder, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) out.push(...(await filesUnder(full)));
    else out.push(full);
  }
  return out;
}
