/**
 * The session this server process writes: created in the store when the client has initialized, named after the
 * client and the time, its lease held until the process ends. Other sessions are opened read-only on demand.
 */
import type { Store } from '../core/store';
import { StoreToolSession } from '../core/store/storeToolSession';
import { SESSION_ID } from '../core/files/fdrefPaths';
import { quoteInput } from '../core/quoteInput';
import { ToolError } from '../core/toolError';
import type { SessionWriter } from '../core/store/sessionWriter';

export class ProcessSessions {
  private own: Promise<{ writer: SessionWriter; session: StoreToolSession }> | undefined;
  private readonly others = new Map<string, Promise<StoreToolSession | undefined>>();
  private closed = false;

  constructor(
    readonly store: Store,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Creates this process's session (once), named after `client`; later calls keep the first. */
  start(client: string): Promise<StoreToolSession> {
    this.own ??= this.create(client);
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
   * The session a tool reads: this process's own when `id` is undefined or names it, else another session of
   * the store, read-only and refreshed so it shows what its owner wrote since. A `ToolError` when there is none.
   */
  async forReading(id: string | undefined): Promise<StoreToolSession> {
    const own = await this.current();
    const wanted = id?.trim();
    if (wanted === undefined || wanted === '' || wanted === own.id) return own;
    if (!SESSION_ID.test(wanted)) {
      throw new ToolError(
        'invalid_argument',
        `session: ${quoteInput(wanted)} is not a session id. list_sessions lists the sessions of the store.`,
      );
    }
    let opening = this.others.get(wanted);
    if (opening === undefined) {
      opening = this.store.read(wanted).then((reader) => reader && new StoreToolSession(reader, undefined, this.now));
      this.others.set(wanted, opening);
      opening.then(
        (found) => found ?? this.others.delete(wanted),
        () => this.others.delete(wanted),
      );
    }
    const session = await opening;
    if (session === undefined) {
      throw new ToolError(
        'not_found',
        `There is no session ${quoteInput(wanted)} in the store. list_sessions lists the sessions there are.`,
      );
    }
    await session.refresh();
    return session;
  }

  /** Gives up this process's lease (pending writes finish first). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
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

/** `2026-01-31 14:05`, in local time. */
function localTime(date: Date): string {
  const two = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${two(date.getMonth() + 1)}-${two(date.getDate())} ${two(date.getHours())}:${two(date.getMinutes())}`;
}
