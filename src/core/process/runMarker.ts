/**
 * Finds and ends the processes one command started that left its process group. A daemon (`setsid`, a double
 * fork) is no longer in the group, and once its parent exits its parent is init or a subreaper, so neither the
 * group nor the parent chain finds it. What it keeps is its environment: each run sets a variable of its own
 * (`FDREF_RUN_<random>=1`) that every descendant inherits, and on Linux `/proc/<pid>/environ` shows it for every
 * process of this user. A process that clears its environment (`env -i`) is not found; a system without `/proc`
 * finds none (`findMarked` answers `undefined`, so callers can say the processes outside the group are unknown).
 */
import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { isAlive } from './processAlive';

const PROC = '/proc';
/** Between checks whether signalled processes have ended. */
const POLL_MS = 25;

/** The environment variable that marks one run's processes. */
export interface RunMarker {
  readonly name: string;
  /** `NAME=1`, as it appears in `/proc/<pid>/environ`. */
  readonly entry: Buffer;
}

export function newRunMarker(): RunMarker {
  const name = `FDREF_RUN_${randomBytes(8).toString('hex')}`;
  return { name, entry: Buffer.from(`${name}=1`, 'latin1') };
}

/**
 * Running processes carrying `marker` outside process group `group` (zombies are not running); `undefined` where
 * processes cannot be listed (no `/proc`).
 */
export async function findMarked(marker: RunMarker, group: number): Promise<number[] | undefined> {
  let names: string[];
  try {
    names = await fs.readdir(PROC);
  } catch {
    return undefined;
  }
  const found: number[] = [];
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(name);
      if (!/^\d+$/.test(name) || pid === process.pid) return;
      const environ = await fs.readFile(`${PROC}/${name}/environ`).catch(() => undefined);
      if (environ === undefined || !hasEntry(environ, marker.entry)) return;
      const stat = await procStat(pid);
      if (stat !== undefined && stat.state !== 'Z' && stat.pgid !== group) found.push(pid);
    }),
  );
  return found.sort((a, b) => a - b);
}

/** Sends `signal` to each pid (one that is gone already is skipped). */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // gone already, or not ours to signal: `endMarked` reports what still runs
    }
  }
}

/** What ending the processes that left the group did. */
export interface MarkedEnding {
  /** Processes found outside the group and ended. */
  readonly ended: readonly number[];
  /** Processes found outside the group that still run after SIGKILL (e.g. a set-uid program). */
  readonly escaped: readonly number[];
}

/**
 * Ends every running process carrying `marker` outside `group`: SIGTERM, SIGKILL to those left after `graceMs`,
 * then a last look. `signalled` are such processes signalled earlier (they count as ended once gone).
 * `undefined` where processes cannot be listed.
 */
export async function endMarked(
  marker: RunMarker,
  group: number,
  graceMs: number,
  signalled: ReadonlySet<number> = new Set(),
): Promise<MarkedEnding | undefined> {
  const running = await findMarked(marker, group);
  if (running === undefined) return undefined;
  // Only pids found marked now are signalled: a signalled one that is gone may have been reused already.
  const found = [...new Set([...signalled, ...running])];
  signalAll(running, 'SIGTERM');
  let left = await waitGone(running, graceMs);
  if (left.length > 0) {
    signalAll(left, 'SIGKILL');
    left = await waitGone(left, graceMs);
  }
  // A process may have started another meanwhile (a daemon respawning its worker): one more round, at once.
  const late = ((await findMarked(marker, group)) ?? []).filter((pid) => !found.includes(pid));
  if (late.length > 0) {
    signalAll(late, 'SIGKILL');
    left = [...left, ...(await waitGone(late, graceMs))];
  }
  const escaped = new Set(left);
  const ended = [...found, ...late].filter((pid) => !escaped.has(pid));
  return { ended: ended.sort((a, b) => a - b), escaped: [...escaped].sort((a, b) => a - b) };
}

/** The pids of `pids` still running after at most `ms`. */
async function waitGone(pids: readonly number[], ms: number): Promise<number[]> {
  const until = Date.now() + ms;
  for (;;) {
    const running = (await Promise.all(pids.map(async (pid) => ((await isRunning(pid)) ? pid : -1)))).filter(
      (pid) => pid >= 0,
    );
    if (running.length === 0 || Date.now() >= until) return running;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/** Whether `pid` runs: a zombie has ended (its parent has not reaped it yet). */
async function isRunning(pid: number): Promise<boolean> {
  if (!isAlive(pid)) return false;
  const stat = await procStat(pid);
  return stat === undefined || stat.state !== 'Z';
}

/** State and process group from `/proc/<pid>/stat` (the name in parentheses may hold spaces and parentheses). */
async function procStat(pid: number): Promise<{ state: string; pgid: number } | undefined> {
  const stat = await fs.readFile(`${PROC}/${pid}/stat`, 'latin1').catch(() => undefined);
  if (stat === undefined) return undefined;
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { state: fields[0] ?? '', pgid: Number(fields[2]) };
}

/** Whether the NUL-separated `environ` holds `entry` as a whole entry. */
function hasEntry(environ: Buffer, entry: Buffer): boolean {
  for (let at = environ.indexOf(entry); at !== -1; at = environ.indexOf(entry, at + 1)) {
    const end = at + entry.length;
    if ((at === 0 || environ[at - 1] === 0) && (end === environ.length || environ[end] === 0)) return true;
  }
  return false;
}
