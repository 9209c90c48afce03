import { createHash, randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { errorCode } from '../errors';
import { isAlive } from '../process/processAlive';
import { ToolError } from '../toolError';
import type { EntryStat, FileSystemPort } from './fileSystemPort';

/** How long a write waits for another writer of the same file before it gives up. */
export const LOCK_WAIT_MS = 10_000;
/** A lock older than this is taken over even when its process seems alive (its pid may be reused): writes hold one for milliseconds. */
export const LOCK_STALE_MS = 60_000;
/** Taking over a stale lock takes microseconds; a takeover marker older than this was left by a crash. */
const TAKEOVER_STALE_MS = 5_000;

const encoder = new TextEncoder();
const host = hostname();
/**
 * Shared by every copy of this module in the process (the extension's bundle and `dist/core.js` may both be
 * loaded): the writes queued per file, and the tokens of the locks held, so that a lock file naming this
 * process but none of them is known to be stale.
 */
const shared = ((globalThis as { [key: symbol]: unknown })[Symbol.for('fdref.writeLocks')] ??= {
  queues: new Map<string, Promise<void>>(),
  heldTokens: new Set<string>(),
}) as { readonly queues: Map<string, Promise<void>>; readonly heldTokens: Set<string> };
const { queues, heldTokens } = shared;

/** The lock file's name for the file `name` beside it: short and of fixed length, so that any valid name can be locked. */
export function lockNameFor(name: string): string {
  return `.fdref-${createHash('sha256').update(name).digest('hex').slice(0, 16)}.lock`;
}

/** Runs `task` once every task queued earlier under the same `key` in this process has settled. */
export function serialised<T>(key: string, task: () => Promise<T>): Promise<T> {
  const run = (queues.get(key) ?? Promise.resolve()).then(task);
  const settled = run.then(
    () => undefined,
    () => undefined,
  );
  queues.set(key, settled);
  void settled.then(() => {
    if (queues.get(key) === settled) queues.delete(key);
  });
  return run;
}

export interface WriteLockRequest {
  readonly fileSystem: FileSystemPort;
  /** The folder holding the file, as `OpenFolder.path` names it. */
  readonly folder: string;
  /** The file's real path, for messages. */
  readonly target: string;
  readonly waitMs: number;
  readonly label: string;
}

/**
 * Takes the lock that one writer of `target` holds at a time, across processes: a lock file beside it,
 * created exclusively and naming its process. Waits while another live writer holds it, takes over a lock
 * whose process is gone (or that is older than `LOCK_STALE_MS`), and throws `ToolError('write_error')` after
 * `waitMs`; rejects with the file system's error when the lock file cannot be made. Call `release()` when done.
 */
export async function acquireWriteLock(request: WriteLockRequest): Promise<{ release(): Promise<void> }> {
  const { fileSystem: fs, target, label } = request;
  const lockName = lockNameFor(path.basename(target));
  const lockPath = path.join(request.folder, lockName);
  const owner: LockOwner = { pid: process.pid, host, token: randomBytes(9).toString('base64url') };
  const deadline = Date.now() + request.waitMs;
  heldTokens.add(owner.token);
  try {
    for (let round = 0; ; round++) {
      try {
        const id = await fs.createFile(lockPath, encoder.encode(JSON.stringify(owner)));
        return { release: () => release(fs, lockPath, id, owner.token) };
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
      const holder = await readLock(fs, lockPath);
      if (holder === undefined) continue; // released meanwhile
      if (isStale(holder)) {
        await takeOver(fs, lockPath, holder, owner);
        continue;
      }
      if (Date.now() >= deadline) {
        const who = holder.owner ? ` (process ${holder.owner.pid} on ${holder.owner.host})` : '';
        throw new ToolError(
          'write_error',
          `${target} is being written by another writer${who}; waited ${request.waitMs / 1000} s and wrote nothing. ` +
            `Try again; if nothing else is writing it, delete ${path.join(path.dirname(target), lockName)}.`,
          label,
        );
      }
      await sleep(Math.min(50, 1 + round) * (0.5 + Math.random()));
    }
  } catch (error) {
    heldTokens.delete(owner.token);
    throw error;
  }
}

interface LockOwner {
  readonly pid: number;
  readonly host: string;
  readonly token: string;
}

interface LockHolder {
  readonly entry: EntryStat;
  /** Missing while the holder is still writing its lock file, or when the file is not ours. */
  readonly owner: LockOwner | undefined;
}

async function readLock(fs: FileSystemPort, lockPath: string): Promise<LockHolder | undefined> {
  const entry = await fs.lstat(lockPath);
  if (entry === undefined) return undefined;
  const text = await fs.readFile(lockPath).then(
    (bytes) => new TextDecoder().decode(bytes),
    () => '',
  );
  return { entry, owner: parseOwner(text) };
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    const { pid, host: on, token } = value;
    if (
      typeof pid === 'number' &&
      Number.isInteger(pid) &&
      pid > 0 &&
      typeof on === 'string' &&
      typeof token === 'string'
    ) {
      return { pid, host: on, token };
    }
  } catch {
    // Half-written or not ours: judged by its age alone.
  }
  return undefined;
}

function isStale(holder: LockHolder): boolean {
  if (Date.now() - holder.entry.mtimeMs > LOCK_STALE_MS) return true;
  const owner = holder.owner;
  if (owner === undefined || owner.host !== host) return false;
  if (owner.pid === process.pid) return !heldTokens.has(owner.token);
  return !isAlive(owner.pid);
}

/**
 * Removes a stale lock, making sure it is still the one judged stale: one taker at a time (a second marker
 * file, created exclusively), and the lock file checked again under it, so that a fresh lock taken by another
 * writer meanwhile is never removed.
 */
async function takeOver(fs: FileSystemPort, lockPath: string, stale: LockHolder, owner: LockOwner): Promise<void> {
  const markerPath = `${lockPath}.takeover`;
  try {
    await fs.createFile(markerPath, encoder.encode(JSON.stringify(owner)));
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    const marker = await fs.lstat(markerPath);
    if (marker !== undefined && Date.now() - marker.mtimeMs > TAKEOVER_STALE_MS) await fs.remove(markerPath);
    await sleep(1);
    return;
  }
  try {
    const now = await readLock(fs, lockPath);
    if (now !== undefined && now.entry.id === stale.entry.id && now.owner?.token === stale.owner?.token)
      await fs.remove(lockPath);
  } finally {
    await fs.remove(markerPath);
  }
}

async function release(fs: FileSystemPort, lockPath: string, id: string, token: string): Promise<void> {
  try {
    const now = await readLock(fs, lockPath);
    if (now !== undefined && now.entry.id === id && now.owner?.token === token) await fs.remove(lockPath);
  } catch {
    // Left behind, the lock names this process and a token it no longer holds, so the next writer takes it over.
  } finally {
    heldTokens.delete(token);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
