/**
 * The owner lease of a session: the one process that may append to its journal. A lease is a small file in
 * the session's folder naming its process (pid, host, the process's start time where the system tells it, and
 * a random token). It is published whole (a temporary file hard-linked to its name, which fails when a lease is
 * there) and taken over only when its process is gone. Nothing is locked per write or across a model call.
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import * as path from 'node:path';
import { errorCode } from '../errors';
import { isAlive } from '../process/processAlive';
import { readFileIfExists, tempNameFor } from './atomicFile';

export const LEASE_FILE = 'lease.json';
/** A lease file that does not parse (its writer died between creating and filling it, where links are unsupported) is stale after this. */
const UNREADABLE_STALE_MS = 10_000;
/** A takeover marker older than this was left by a process that died while taking over. */
const TAKEOVER_STALE_MS = 5_000;

export interface LeaseHolder {
  readonly pid: number;
  readonly host: string;
  /** The process's start time as the system reports it (Linux: /proc/<pid>/stat), '' where unknown; tells a reused pid apart. */
  readonly started: string;
  readonly token: string;
  /** ISO time the lease was taken. */
  readonly since: string;
}

/** Another live process holds the session's lease. */
export class SessionBusyError extends Error {
  constructor(
    readonly sessionId: string,
    readonly holder: LeaseHolder | undefined,
  ) {
    const who = holder ? `process ${holder.pid} on ${holder.host}` : 'another process';
    super(`Session ${sessionId} is being written by ${who}; it can be read here but not changed.`);
  }
}

const host = hostname();
/** Tokens of the leases this process holds, shared by every copy of this module loaded in it. */
const heldTokens = ((globalThis as { [key: symbol]: unknown })[Symbol.for('fdref.storeLeases')] ??=
  new Set<string>()) as Set<string>;
let ownStart: Promise<string> | undefined;

/** A lease this process holds. */
export interface Lease {
  readonly holder: LeaseHolder;
  /** Gives the session up (only when the lease is still this one). */
  release(): Promise<void>;
  /** The session's folder was renamed (a new session is published so): the lease file moved with it. */
  moveTo(folder: string): void;
}

/**
 * Takes the lease of the session in `folder`, taking over one whose process is gone. Rejects with
 * `SessionBusyError` while another live process holds it.
 */
export async function acquireLease(folder: string, sessionId: string): Promise<Lease> {
  const file = path.join(folder, LEASE_FILE);
  const holder: LeaseHolder = {
    pid: process.pid,
    host,
    started: await processStart(process.pid),
    token: randomBytes(9).toString('base64url'),
    since: new Date().toISOString(),
  };
  heldTokens.add(holder.token);
  try {
    for (let attempt = 0; attempt < 20; attempt++) {
      if (await publish(folder, file, holder)) {
        let where = file;
        return {
          holder,
          release: () => releaseLease(where, holder.token),
          moveTo: (to) => void (where = path.join(to, LEASE_FILE)),
        };
      }
      const current = await readHolder(file);
      if (current === 'missing') continue;
      if (!(await isStale(current, file)))
        throw new SessionBusyError(sessionId, current === 'unreadable' ? undefined : current);
      await takeOver(file, current);
    }
    throw new SessionBusyError(sessionId, undefined);
  } catch (error) {
    heldTokens.delete(holder.token);
    throw error;
  }
}

/** Who holds the lease of the session in `folder`, and whether that process is alive; undefined when nobody does. */
export async function leaseStatus(
  folder: string,
): Promise<{ holder: LeaseHolder | undefined; live: boolean } | undefined> {
  const file = path.join(folder, LEASE_FILE);
  const current = await readHolder(file);
  if (current === 'missing') return undefined;
  return { holder: current === 'unreadable' ? undefined : current, live: !(await isStale(current, file)) };
}

async function publish(folder: string, file: string, holder: LeaseHolder): Promise<boolean> {
  const temp = path.join(folder, tempNameFor(LEASE_FILE));
  await fs.writeFile(temp, JSON.stringify(holder), { flag: 'wx' });
  try {
    await fs.link(temp, file);
    return true;
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    // No hard links here (some network and FAT file systems): create it exclusively instead.
    try {
      await fs.writeFile(file, JSON.stringify(holder), { flag: 'wx' });
      return true;
    } catch (fallbackError) {
      if (errorCode(fallbackError) === 'EEXIST') return false;
      throw fallbackError;
    }
  } finally {
    await fs.rm(temp, { force: true });
  }
}

async function readHolder(file: string): Promise<LeaseHolder | 'unreadable' | 'missing'> {
  const bytes = await readFileIfExists(file);
  if (bytes === undefined) return 'missing';
  try {
    const value = JSON.parse(bytes.toString('utf8')) as Partial<LeaseHolder>;
    if (
      typeof value.pid === 'number' &&
      typeof value.host === 'string' &&
      typeof value.token === 'string' &&
      typeof value.started === 'string'
    ) {
      return {
        pid: value.pid,
        host: value.host,
        started: value.started,
        token: value.token,
        since: String(value.since),
      };
    }
  } catch {
    // judged by its age below
  }
  return 'unreadable';
}

/** Whether the lease's process is gone. A lease from another host is never judged stale: its process cannot be asked. */
async function isStale(current: LeaseHolder | 'unreadable', file: string): Promise<boolean> {
  if (current === 'unreadable') {
    const stat = await fs.stat(file).catch(() => undefined);
    return stat === undefined || Date.now() - stat.mtimeMs > UNREADABLE_STALE_MS;
  }
  if (current.host !== host) return false;
  if (current.pid === process.pid) return !heldTokens.has(current.token);
  if (!isAlive(current.pid)) return true;
  return current.started !== '' && (await processStart(current.pid)) !== current.started;
}

/** Removes a stale lease, one taker at a time, checking under the marker that it is still the stale one. */
async function takeOver(file: string, stale: LeaseHolder | 'unreadable'): Promise<void> {
  const marker = `${file}.takeover`;
  try {
    await fs.writeFile(marker, String(process.pid), { flag: 'wx' });
  } catch (error) {
    if (errorCode(error) !== 'EEXIST') throw error;
    const stat = await fs.stat(marker).catch(() => undefined);
    if (stat !== undefined && Date.now() - stat.mtimeMs > TAKEOVER_STALE_MS) await fs.rm(marker, { force: true });
    await new Promise((resolve) => setTimeout(resolve, 2 + Math.random() * 5));
    return;
  }
  try {
    const now = await readHolder(file);
    const same =
      now === 'unreadable'
        ? stale === 'unreadable'
        : now !== 'missing' && stale !== 'unreadable' && now.token === stale.token;
    if (same) await fs.rm(file, { force: true });
  } finally {
    await fs.rm(marker, { force: true });
  }
}

async function releaseLease(file: string, token: string): Promise<void> {
  try {
    const current = await readHolder(file);
    if (current !== 'missing' && current !== 'unreadable' && current.token === token)
      await fs.rm(file, { force: true });
  } finally {
    heldTokens.delete(token);
  }
}

/** A process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), '' where there is no /proc. */
async function processStart(pid: number): Promise<string> {
  if (pid === process.pid && ownStart) return ownStart;
  const read = fs.readFile(`/proc/${pid}/stat`, 'utf8').then(
    (stat) => stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '',
    () => '',
  );
  if (pid === process.pid) ownStart = read;
  return read;
}
