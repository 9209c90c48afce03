/**
 * The session an agent's own shell output is kept in (fdref's command wrapper, `dist/cli.js run`): one per agent
 * conversation, or one per agent and local day when the agent gives no conversation id. Its id is derived from
 * that key (a hash), so the wrapper finds it with one read of its metadata however many sessions the store holds,
 * and two wrappers of one conversation agree on it without asking each other.
 *
 * A wrapper must not hold the session's lease while its command runs: the parallel commands of one conversation
 * would wait for each other's whole run. So the output is written to a spool folder of its own in the store
 * (`spool/`, see layout.ts), and the lease is taken only when the command has ended, for the moment of moving the
 * sealed content in by rename and appending one journal record.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import type { CommandRun } from '../descriptors/descriptorDetails';
import { errorCode } from '../errors';
import { isAlive } from '../process/processAlive';
import { pidOfTempName, tempNameFor } from './atomicFile';
import { ContentSink } from './contentSink';
import { SPOOL_FOLDER } from './layout';
import { SessionBusyError } from './lease';
import type { StoredSessionMeta } from './meta';
import type { ContentRef } from './records';
import type { SessionWriter } from './sessionWriter';
import type { Store } from './store';
import type { StoreLocation } from './storeFolder';

/** Whose session: the agent (its wrapper id and product name) and its conversation, or the day. */
export interface AgentSessionKey {
  /** The wrapper's `--agent` id, e.g. `claude-code`. */
  readonly agent: string;
  /** What the session is named after, e.g. `Claude Code`. */
  readonly productName: string;
  /** The agent's conversation id, when its hook tells it. */
  readonly conversation?: string | undefined;
}

/** How long a wrapper waits for another to finish its short turn with the session's lease. */
export const LEASE_WAIT_MS = 30_000;

/**
 * The ids the session of `key` may have, in order: 8 hex characters of a hash (as long as a random id), then longer
 * ones for the rare case that a session of another key (or a random one) already has the shorter.
 */
export function agentSessionIds(key: AgentSessionKey, day: string): string[] {
  const hash = createHash('sha256')
    .update(JSON.stringify([key.agent, key.conversation ?? null, key.conversation === undefined ? day : null]))
    .digest('hex');
  return [8, 16, 32, 64].map((length) => hash.slice(0, length));
}

/** The origin recorded for the session of `key`. */
function originOf(key: AgentSessionKey, day: string): StoredSessionMeta['origin'] {
  return key.conversation === undefined
    ? { kind: 'agentShell', agent: key.agent, day }
    : { kind: 'agentShell', agent: key.agent, conversation: key.conversation };
}

function sameOrigin(a: StoredSessionMeta['origin'], b: StoredSessionMeta['origin']): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The session of `key` in `store`, if it has been created. */
export async function findAgentSession(
  store: Store,
  key: AgentSessionKey,
  now: Date = new Date(),
): Promise<StoredSessionMeta | undefined> {
  const day = localDay(now);
  const origin = originOf(key, day);
  for (const id of agentSessionIds(key, day)) {
    const meta = await store.meta(id).catch(() => undefined);
    if (meta === undefined) return undefined;
    if (sameOrigin(meta.origin, origin)) return meta;
  }
  return undefined;
}

/** A descriptor kept in an agent's session. */
export interface KeptInSession {
  readonly session: StoredSessionMeta;
  /** `fd:N`. */
  readonly fd: string;
}

/** What the new descriptor is: a command's output (`tool_output` of the shell tool), or text piped in (`user_input`). */
export type KeptDetails =
  | { readonly source: 'tool_output'; readonly toolName: string; readonly command: CommandRun }
  | { readonly source: 'user_input' };

/**
 * Records the content sealed in `spoolFolder` as a new descriptor of the session of `key` (created when missing),
 * holding the session's lease only for that moment; waits (up to `waitMs`) while another process has it.
 */
export async function keepInAgentSession(
  store: Store,
  key: AgentSessionKey,
  spoolFolder: string,
  ref: ContentRef,
  details: KeptDetails,
  options: { readonly now?: Date; readonly waitMs?: number } = {},
): Promise<KeptInSession> {
  const now = options.now ?? new Date();
  const deadline = Date.now() + (options.waitMs ?? LEASE_WAIT_MS);
  const { writer, meta } = await agentSessionWriter(store, key, now, deadline);
  try {
    const content = await writer.adoptContent(spoolFolder, ref);
    const fd = await writer.addDescriptor({ ...details, createdAt: now.toISOString() }, content);
    return { session: meta, fd };
  } finally {
    await writer.close();
  }
}

async function agentSessionWriter(
  store: Store,
  key: AgentSessionKey,
  now: Date,
  deadline: number,
): Promise<{ writer: SessionWriter; meta: StoredSessionMeta }> {
  const day = localDay(now);
  const origin = originOf(key, day);
  const name = `${key.productName} ${key.conversation === undefined ? day : localMinute(now)}`;
  for (const id of agentSessionIds(key, day)) {
    for (;;) {
      // Metadata that cannot be read is another's (damaged) session: not to be written into.
      const meta = await store.meta(id).catch(() => 'other' as const);
      if (meta === 'other' || (meta !== undefined && !sameOrigin(meta.origin, origin))) break; // another's: a longer id
      try {
        if (meta !== undefined) return { writer: await store.openWriter(id), meta };
        const writer = await store.create({ id, name, origin, createdAt: now.toISOString() });
        return { writer, meta: { id, name, origin, createdAt: now.toISOString(), pinned: false, chat: false } };
      } catch (error) {
        if (error instanceof SessionBusyError) {
          if (Date.now() > deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
          continue;
        }
        // Another wrapper created it meanwhile: open it instead.
        if (meta === undefined && createdMeanwhile(error)) continue;
        // Removed meanwhile (retention, or a person clearing it): made anew.
        if (meta !== undefined && (await store.meta(id).catch(() => 'other' as const)) === undefined) continue;
        throw error;
      }
    }
  }
  throw new Error(`Every id for the session of ${key.agent} is taken by another session.`);
}

function createdMeanwhile(error: unknown): boolean {
  const code = errorCode(error);
  return code === 'ENOTEMPTY' || code === 'EEXIST' || (error instanceof Error && /already exists/.test(error.message));
}

/**
 * A folder of its own in the store's `spool/` for one command's output: a `ContentSink` there is sealed under its
 * hash and moved into the session by `keepInAgentSession`. Spools of processes that died are removed on the way.
 */
export class OutputSpool {
  private constructor(readonly folder: string) {}

  static async create(store: StoreLocation): Promise<OutputSpool> {
    const spools = path.join(store.root, SPOOL_FOLDER);
    await fs.mkdir(spools, { recursive: true });
    const names = await fs.readdir(spools);
    await Promise.all(
      names
        .filter((name) => {
          const pid = pidOfTempName(name);
          return pid !== undefined && pid !== process.pid && !isAlive(pid);
        })
        .map((name) => fs.rm(path.join(spools, name), { recursive: true, force: true })),
    );
    const folder = path.join(spools, tempNameFor('spool'));
    await fs.mkdir(folder);
    return new OutputSpool(folder);
  }

  /** A content written as it arrives, sealed into this folder. */
  sink(store: StoreLocation): ContentSink {
    return new ContentSink({ folder: this.folder, durability: store.durability, loneSurrogates: 'replace' });
  }

  async remove(): Promise<void> {
    await fs.rm(this.folder, { recursive: true, force: true });
  }
}

const two = (n: number): string => String(n).padStart(2, '0');

/** `2026-01-31`, local time. */
export function localDay(date: Date): string {
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())}`;
}

/** `2026-01-31 14:05`, local time. */
function localMinute(date: Date): string {
  return `${localDay(date)} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
