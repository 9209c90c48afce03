/**
 * The session this server process writes: created in the store when the client has initialized, named after the
 * client and the time, its lease held until the process ends. Other sessions are opened read-only on demand.
 */
import type { Store } from '../core/store';
import { StoreToolSession } from '../core/store/storeToolSession';
import { SESSION_ID } from '../core/files/fdrefPaths';
import { clipInput, quoteInput } from '../core/quoteInput';
import { errorMessage } from '../core/errors';
import { ToolError } from '../core/toolError';
import { resolveSessionArgument } from '../core/tools/sessionArgument';
import type { SessionWriter } from '../core/store/sessionWriter';
import { CommandJobs } from '../core/tools/commandJobs';

export class ProcessSessions {
  private own: Promise<{ writer: SessionWriter; session: StoreToolSession }> | undefined;
  private readonly others = new Map<string, Promise<StoreToolSession | undefined>>();
  private closed = false;

  constructor(
    readonly store: Store,
    private readonly now: () => Date = () => new Date(),
    /** The commands that went on after their call answered; ended before the session closes. */
    readonly jobs = new CommandJobs(),
  ) {}

  /** Creates this process's session (once), named after `client` (cleaned, see `clientName`); later calls keep the first. */
  start(client: string): Promise<StoreToolSession> {
    this.own ??= this.create(clientName(client));
    return this.own.then((own) => own.session);
  }

  /** This process's session (created now, for an unnamed client, if the client never initialized). */
  async current(): Promise<StoreToolSession> {
    const session = await this.start('an MCP client');
    await session.refresh();
    return session;
  }

  /** The id of this process's session, once it exists. */
  async currentId(): Promise<string | undefined> {
    return this.own === undefined ? undefined : (await this.own).session.id;
  }

  /**
   * The session a tool reads: this process's own when `wanted` is undefined or names it, else another session of
   * the store by id or exact name (case-insensitive), read-only and refreshed so it shows what its owner wrote
   * since. A `ToolError` when there is none, or when several have that name.
   */
  async forReading(wanted: string | undefined): Promise<StoreToolSession> {
    const own = await this.current();
    const key = wanted?.trim();
    if (key === undefined || key === '' || key === own.id) return own;
    // An id opens its session directly; only a name lists the store (its metadata, never contents).
    let session = SESSION_ID.test(key) ? await this.open(key) : undefined;
    if (session === undefined) {
      const { sessions } = await this.store.list(); // newest first
      const meta = resolveSessionArgument(key, sessions, 'list_sessions lists every session of the store.');
      if (meta.id === own.id) return own;
      session = await this.open(meta.id);
      if (session === undefined) {
        throw new ToolError(
          'not_found',
          `Session ${quoteInput(meta.name)} (${meta.id}) was just deleted. list_sessions lists the sessions there are.`,
        );
      }
    }
    await session.refresh();
    return session;
  }

  /** Another session of the store, opened once and kept; undefined when there is none with that id. */
  private open(id: string): Promise<StoreToolSession | undefined> {
    let opening = this.others.get(id);
    if (opening === undefined) {
      opening = this.store.read(id).then(
        (reader) => reader && new StoreToolSession(reader, undefined, this.now),
        (error: unknown) => {
          // Its metadata or journal is damaged: say which session, not "failed unexpectedly".
          throw new ToolError(
            'read_error',
            `Session ${id} cannot be read: ${clipInput(errorMessage(error), 300).replace(/\.?$/, '.')} ` +
              'list_sessions lists it as unreadable.',
          );
        },
      );
      this.others.set(id, opening);
      opening.then(
        (found) => found ?? this.others.delete(id),
        () => this.others.delete(id),
      );
    }
    return opening;
  }

  /**
   * Ends the commands still running (their descriptors then record how they ended) and gives up this process's
   * lease (pending writes finish first).
   */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.jobs.stopAll();
    const own = await this.own?.catch(() => undefined);
    await own?.writer.close();
    await this.store.close();
  }

  private async create(client: string): Promise<{ writer: SessionWriter; session: StoreToolSession }> {
    if (this.closed) throw new Error('The server is stopping.');
    const name = `${client} ${localTime(this.now())}`;
    const writer = await this.store.create({ name, origin: { kind: 'mcp', client } });
    const reader = await this.store.read(writer.id);
    if (reader === undefined) throw new Error(`Session ${writer.id} was created but cannot be read.`);
    return { writer, session: new StoreToolSession(reader, writer, this.now) };
  }
}

/** The most characters of a client's name kept in its session's name and metadata. */
export const CLIENT_NAME_CHARS = 80;

/**
 * The name a client gave (`clientInfo.name`, any string) as a session is named after it: control and bidirectional
 * formatting characters as spaces, spaces collapsed, at most `CLIENT_NAME_CHARS` characters (then `…`).
 */
export function clientName(raw: string): string {
  // Only a bounded prefix is cleaned: a client may send megabytes.
  const prefix = raw.slice(0, 4 * CLIENT_NAME_CHARS);
  const cleaned = prefix
    .replace(/[\p{Cc}\u200e\u200f\u202a-\u202e\u2066-\u2069]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  if (cleaned === '') return 'an MCP client';
  return prefix.length < raw.length && cleaned.length <= CLIENT_NAME_CHARS
    ? `${cleaned}…`
    : clipInput(cleaned, CLIENT_NAME_CHARS);
}

/** `2026-01-31 14:05`, in local time. */
function localTime(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
