/**
 * The store's full-text index (`<store>/index/search.db`): SQLite FTS5 over blocks of about 16 KB of whole lines
 * of every kept content, shared by every process on the store. The index never holds the text (a contentless FTS5
 * table): a hit names its block, whose bytes are read back from the content file to find the matching lines.
 *
 * It is kept by catching up: each session's journal is read from where the index last stopped (new descriptors and
 * refs, a growing output's new size), and each content's bytes from where its indexing stopped, one step (at most
 * `STEP_BYTES`) per transaction, the resume point committed with the rows. Nothing is read twice; a process that
 * dies mid-step leaves the index as of its last commit, and whoever runs next goes on from there.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage, isNotFound } from '../errors';
import { SESSION_ID } from '../files/fdrefPaths';
import { formatDescriptorId, refDescriptorId } from '../ids';
import { contentFileName } from '../store/contentSink';
import { readJournal } from '../store/journal';
import { journalOf, contentFolderOf, SESSIONS_FOLDER } from '../store/layout';
import { META_FILE, readMeta } from '../store/meta';
import { journalRecord, type JournalEntry } from '../store/records';
import { originGroup } from '../store/usageGroups';
import type { Database, Driver, Row, SqlValue, Statement } from './sqlite';

export const INDEX_FOLDER = 'index';
export const INDEX_FILE = 'search.db';
/** Bumped when the schema changes: an index of another version is set aside and rebuilt. */
const SCHEMA_VERSION = '1';
/** A block ends at the first line end after this many bytes. */
export const BLOCK_BYTES = 16 * 1024;
/** The most bytes of one content indexed in one transaction. */
export const STEP_BYTES = 1024 * 1024;

const SCHEMA = `
CREATE TABLE IF NOT EXISTS meta(k TEXT PRIMARY KEY, v TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS sessions(
  id TEXT PRIMARY KEY, name TEXT NOT NULL, origin TEXT NOT NULL, origin_label TEXT NOT NULL,
  meta_stamp TEXT NOT NULL DEFAULT '', journal_id TEXT NOT NULL DEFAULT '', journal_offset INTEGER NOT NULL DEFAULT 0);
CREATE TABLE IF NOT EXISTS contents(
  id INTEGER PRIMARY KEY, session TEXT NOT NULL, file TEXT NOT NULL, enc TEXT NOT NULL,
  bytes INTEGER NOT NULL, complete INTEGER NOT NULL,
  indexed_bytes INTEGER NOT NULL DEFAULT 0, indexed_lines INTEGER NOT NULL DEFAULT 0,
  handle TEXT NOT NULL, fd_n INTEGER, tool TEXT, cmd TEXT, created_ms INTEGER NOT NULL,
  UNIQUE(session, file));
CREATE INDEX IF NOT EXISTS contents_todo ON contents(id) WHERE indexed_bytes < bytes;
CREATE INDEX IF NOT EXISTS contents_session ON contents(session, fd_n);
CREATE TABLE IF NOT EXISTS blocks(
  id INTEGER PRIMARY KEY, content_id INTEGER NOT NULL, first_line INTEGER NOT NULL,
  byte_off INTEGER NOT NULL, byte_len INTEGER NOT NULL);
CREATE INDEX IF NOT EXISTS blocks_content ON blocks(content_id, byte_off);
CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
  body, content='', contentless_delete=1, tokenize="unicode61 remove_diacritics 2");
`;

/** What the index knows about one content, as the search reads it. */
export interface ContentRow {
  readonly id: number;
  readonly session: string;
  readonly file: string;
  readonly enc: BufferEncoding;
  readonly bytes: number;
  readonly complete: boolean;
  readonly indexedBytes: number;
  readonly indexedLines: number;
  readonly handle: string;
  readonly tool: string | undefined;
  readonly command: string | undefined;
  readonly createdMs: number;
  readonly sessionName: string;
  readonly origin: string;
  readonly originLabel: string;
}

/** The index's size on disk and how far it has caught up. */
export interface IndexStats {
  readonly driver: Driver['name'];
  /** The database and its WAL, in bytes. */
  readonly diskBytes: number;
  readonly contents: number;
  readonly indexedBytes: number;
  /** Bytes kept but not indexed yet. */
  readonly pendingBytes: number;
}

export class SearchIndex {
  private readonly statements = new Map<string, Statement>();
  private readonly contentFolders = new Map<string, string>();
  /** Contents that had nothing whole to index, with their size then. */
  private readonly waiting = new Map<number, string>();

  private constructor(
    private readonly db: Database,
    readonly root: string,
    readonly file: string,
    readonly driver: Driver['name'],
    private readonly opener: Driver['open'],
  ) {}

  /**
   * Opens (or creates) the index of the store at `root`. One that cannot be read (damaged, another schema) is
   * set aside as `search.db.broken-<time>` and a new one begun: it fills again from the store.
   */
  static open(root: string, driver: Driver): SearchIndex {
    const folder = path.join(root, INDEX_FOLDER);
    fs.mkdirSync(folder, { recursive: true });
    const file = path.join(folder, INDEX_FILE);
    try {
      return SearchIndex.openFile(root, file, driver);
    } catch (error) {
      setAside(file, error);
      return SearchIndex.openFile(root, file, driver);
    }
  }

  private static openFile(root: string, file: string, driver: Driver): SearchIndex {
    const db = driver.open(file);
    try {
      db.exec('PRAGMA busy_timeout = 10000');
      db.exec('PRAGMA auto_vacuum = INCREMENTAL');
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = NORMAL');
      db.exec('PRAGMA journal_size_limit = 67108864');
      db.exec('BEGIN IMMEDIATE');
      try {
        db.exec(SCHEMA);
        const version = db.prepare('SELECT v FROM meta WHERE k = ?').get('schema');
        if (version === undefined) db.prepare('INSERT INTO meta(k, v) VALUES (?, ?)').run('schema', SCHEMA_VERSION);
        else if (version['v'] !== SCHEMA_VERSION)
          throw new Error(`the index has schema ${String(version['v'])}, this fdref reads ${SCHEMA_VERSION}`);
        db.exec('COMMIT');
      } catch (error) {
        db.exec('ROLLBACK');
        throw error;
      }
      return new SearchIndex(db, root, file, driver.name, driver.open);
    } catch (error) {
      db.close();
      throw error;
    }
  }

  close(): void {
    this.db.close();
  }

  /** Sets aside the index `broken` (found damaged by `why`, and closed) and opens a new one. */
  static reopenFresh(root: string, broken: SearchIndex, why: unknown): SearchIndex {
    setAside(broken.file, why);
    return SearchIndex.open(root, { name: broken.driver, open: broken.opener });
  }

  private sql(text: string): Statement {
    let statement = this.statements.get(text);
    if (statement === undefined) {
      statement = this.db.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** Runs `task` in a write transaction (one writer at a time across processes; the others wait). */
  private write<T>(task: () => T): T {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = task();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /**
   * Reads what each session's journal added since the last catch-up (new descriptors and refs, grown outputs,
   * renamed sessions) and forgets sessions that are gone. Costs a `stat` per session when nothing changed.
   */
  async catchUpJournals(): Promise<void> {
    const folder = path.join(this.root, SESSIONS_FOLDER);
    let names: string[];
    try {
      names = (await fs.promises.readdir(folder)).filter((name) => SESSION_ID.test(name));
    } catch (error) {
      if (isNotFound(error)) names = [];
      else throw error;
    }
    const present = new Set(names);
    for (const row of this.sql('SELECT id FROM sessions').all()) {
      const id = String(row['id']);
      if (!present.has(id)) this.write(() => this.forgetSession(id));
    }
    for (const id of names) await this.catchUpSession(id);
  }

  private async catchUpSession(id: string): Promise<void> {
    const sessionFolder = path.join(this.root, SESSIONS_FOLDER, id);
    const journal = journalOf(sessionFolder);
    const [journalStat, metaStat] = await Promise.all([statOf(journal), statOf(path.join(sessionFolder, META_FILE))]);
    if (metaStat === undefined) return; // being created or removed
    const known = this.sql('SELECT meta_stamp, journal_id, journal_offset FROM sessions WHERE id = ?').get(id);
    const metaStamp = `${metaStat.mtimeMs}:${metaStat.size}`;
    const journalId = journalStat === undefined ? '' : `${journalStat.dev}:${journalStat.ino}`;
    const size = journalStat?.size ?? 0;
    const replaced = known !== undefined && known['journal_id'] !== journalId;
    const from = known === undefined || replaced ? 0 : Number(known['journal_offset']);
    if (known !== undefined && known['meta_stamp'] === metaStamp && !replaced && from >= size) return;

    let meta: { name: string; origin: string; label: string };
    try {
      const read = await readMeta(sessionFolder);
      if (read === undefined) return;
      const group = originGroup(read.origin);
      meta = { name: read.name, origin: group.key, label: group.label };
    } catch {
      meta = { name: id, origin: 'unknown', label: 'Unreadable session' };
    }
    const read = from < size ? await readJournal(journal, from) : undefined;
    this.write(() => {
      this.sql(
        `INSERT INTO sessions(id, name, origin, origin_label, meta_stamp) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT(id) DO UPDATE SET name = excluded.name, origin = excluded.origin,
           origin_label = excluded.origin_label, meta_stamp = excluded.meta_stamp`,
      ).run(id, meta.name, meta.origin, meta.label, metaStamp);
      if (read === undefined) return;
      for (const record of read.records) {
        const parsed = journalRecord.safeParse(record.value);
        if (parsed.success) this.addRecord(id, parsed.data);
      }
      this.sql('UPDATE sessions SET journal_id = ?, journal_offset = ? WHERE id = ?').run(journalId, read.validEnd, id);
    });
  }

  private addRecord(session: string, entry: JournalEntry): void {
    switch (entry.t) {
      case 'fd': {
        const file = contentFileName(entry.c);
        const growing = this.sql('SELECT id FROM contents WHERE session = ? AND fd_n = ? AND complete = 0').get(
          session,
          entry.n,
        );
        const taken = this.sql('SELECT id FROM contents WHERE session = ? AND file = ?').get(session, file);
        if (growing !== undefined && taken === undefined && entry.c.enc === 'utf8') {
          // The growing file was renamed to its hash: the bytes indexed so far are the same bytes.
          this.sql('UPDATE contents SET file = ?, bytes = ?, complete = 1 WHERE id = ?').run(
            file,
            entry.c.bytes,
            Number(growing['id']),
          );
          return;
        }
        if (growing !== undefined) this.forgetContent(Number(growing['id']));
        this.addContent(
          session,
          file,
          entry.c.enc,
          entry.c.bytes,
          true,
          formatDescriptorId({ kind: 'fd', number: entry.n }),
          entry.n,
          entry,
        );
        return;
      }
      case 'fdStart':
        this.addContent(
          session,
          entry.file,
          'utf8',
          0,
          false,
          formatDescriptorId({ kind: 'fd', number: entry.n }),
          entry.n,
          entry,
        );
        return;
      case 'grew':
        this.sql('UPDATE contents SET bytes = max(bytes, ?) WHERE session = ? AND fd_n = ? AND complete = 0').run(
          entry.bytes,
          session,
          entry.n,
        );
        return;
      case 'ref':
        this.addContent(
          session,
          contentFileName(entry.c),
          entry.c.enc,
          entry.c.bytes,
          true,
          refDescriptorId(entry.id, entry.v),
          null,
          { createdAt: entry.createdAt },
        );
        return;
      default:
        return;
    }
  }

  private addContent(
    session: string,
    file: string,
    enc: string,
    bytes: number,
    complete: boolean,
    handle: string,
    fdN: number | null,
    details: { createdAt: string; toolName?: string | undefined; command?: { commandLine?: string } | undefined },
  ): void {
    const created = Date.parse(details.createdAt);
    this.sql(
      `INSERT INTO contents(session, file, enc, bytes, complete, handle, fd_n, tool, cmd, created_ms)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(session, file) DO NOTHING`,
    ).run(
      session,
      file,
      enc,
      bytes,
      complete ? 1 : 0,
      handle,
      fdN,
      details.toolName ?? null,
      details.command?.commandLine ?? null,
      Number.isNaN(created) ? 0 : created,
    );
  }

  private forgetContent(id: number): void {
    this.sql('DELETE FROM fts WHERE rowid IN (SELECT id FROM blocks WHERE content_id = ?)').run(id);
    this.sql('DELETE FROM blocks WHERE content_id = ?').run(id);
    this.sql('DELETE FROM contents WHERE id = ?').run(id);
  }

  private forgetSession(id: string): void {
    for (const row of this.sql('SELECT id FROM contents WHERE session = ?').all(id))
      this.forgetContent(Number(row['id']));
    this.sql('DELETE FROM sessions WHERE id = ?').run(id);
  }

  /** Contents with bytes not indexed yet, oldest first. */
  private pending(limit: number): ContentRow[] {
    return this.sql(`${CONTENT_SELECT} WHERE c.indexed_bytes < c.bytes ORDER BY c.id LIMIT ?`)
      .all(limit)
      .map(contentRow);
  }

  /**
   * Indexes contents' new bytes until `deadline` (a `Date.now()` value) or until none are left; whether some are.
   * Each step is one transaction that first reads the content's resume point, so two processes never index the
   * same bytes twice.
   */
  async indexUntil(deadline: number): Promise<boolean> {
    for (;;) {
      // A growing output whose last line is still being written waits until it grew.
      const todo = this.pending(256).filter((c) => this.waiting.get(c.id) !== waitKey(c));
      if (todo.length === 0) return false;
      for (const content of todo.slice(0, 16)) {
        if (Date.now() >= deadline) return true;
        if (this.indexStep(content.id)) this.waiting.delete(content.id);
        else this.waiting.set(content.id, waitKey(content));
        await new Promise((resolve) => setImmediate(resolve));
      }
    }
  }

  /** Indexes the next step of one content; false when it had nothing to index now. */
  private indexStep(contentId: number): boolean {
    return this.write(() => {
      const row = this.sql(`${CONTENT_SELECT} WHERE c.id = ?`).get(contentId);
      if (row === undefined) return false;
      const content = contentRow(row);
      if (content.indexedBytes >= content.bytes) return false;
      const piece = this.readPiece(content);
      if (piece === undefined) return false;
      let line = content.indexedLines;
      let offset = content.indexedBytes;
      for (const block of cutBlocks(piece.text, content.enc)) {
        const id = Number(
          this.sql('INSERT INTO blocks(content_id, first_line, byte_off, byte_len) VALUES (?, ?, ?, ?)').run(
            content.id,
            line,
            offset,
            block.bytes,
          ).lastInsertRowid,
        );
        this.sql('INSERT INTO fts(rowid, body) VALUES (?, ?)').run(id, block.text);
        line += block.newlines;
        offset += block.bytes;
      }
      this.sql('UPDATE contents SET indexed_bytes = ?, indexed_lines = ? WHERE id = ?').run(offset, line, content.id);
      return true;
    });
  }

  /**
   * The next whole lines of `content` after its resume point (at most `STEP_BYTES`; a line longer than that is cut
   * at a character boundary); undefined when there is nothing whole to index yet. A file gone (its session removed,
   * a growing output renamed) is marked indexed to its end when complete, so it is not tried again.
   */
  private readPiece(content: ContentRow): { text: string } | undefined {
    const file = path.join(this.contentFolder(content.session), content.file);
    const end = Math.min(content.bytes, content.indexedBytes + STEP_BYTES);
    let bytes: Buffer;
    try {
      bytes = readBytes(file, content.indexedBytes, end);
    } catch (error) {
      if (!isNotFound(error)) throw error;
      if (content.complete) this.sql('UPDATE contents SET indexed_bytes = bytes WHERE id = ?').run(content.id);
      return undefined;
    }
    const atEnd = content.indexedBytes + bytes.length >= content.bytes;
    if (atEnd && content.complete) return { text: bytes.toString(content.enc) };
    const lastNewline = content.enc === 'utf16le' ? lastUtf16Newline(bytes) : bytes.lastIndexOf(0x0a);
    if (lastNewline !== -1) {
      const cut = lastNewline + (content.enc === 'utf16le' ? 2 : 1);
      return { text: bytes.subarray(0, cut).toString(content.enc) };
    }
    if (bytes.length < STEP_BYTES) return undefined; // a line still being written
    const cut = characterBoundary(bytes, content.enc);
    return { text: bytes.subarray(0, cut).toString(content.enc) };
  }

  contentFolder(session: string): string {
    let folder = this.contentFolders.get(session);
    if (folder === undefined) {
      folder = contentFolderOf(path.join(this.root, SESSIONS_FOLDER, session));
      this.contentFolders.set(session, folder);
    }
    return folder;
  }

  /** Runs a read-only statement of the search (see search.ts). */
  query(text: string, ...params: SqlValue[]): Row[] {
    return this.sql(text).all(...params);
  }

  stats(): IndexStats {
    const totals = this.sql(
      'SELECT count(*) AS n, coalesce(sum(indexed_bytes), 0) AS done, coalesce(sum(bytes - indexed_bytes), 0) AS left FROM contents',
    ).get();
    let diskBytes = 0;
    for (const suffix of ['', '-wal']) diskBytes += statOfSync(this.file + suffix)?.size ?? 0;
    return {
      driver: this.driver,
      diskBytes,
      contents: Number(totals?.['n'] ?? 0),
      indexedBytes: Number(totals?.['done'] ?? 0),
      pendingBytes: Number(totals?.['left'] ?? 0),
    };
  }

  /** Returns freed pages to the file system and folds the WAL back (run when idle). */
  tidy(): void {
    this.db.exec('PRAGMA incremental_vacuum');
    this.db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  }
}

function waitKey(content: ContentRow): string {
  return `${content.bytes}:${content.complete}`;
}

export const CONTENT_SELECT = `SELECT c.id, c.session, c.file, c.enc, c.bytes, c.complete, c.indexed_bytes,
  c.indexed_lines, c.handle, c.tool, c.cmd, c.created_ms, s.name, s.origin, s.origin_label
  FROM contents c JOIN sessions s ON s.id = c.session`;

export function contentRow(row: Row): ContentRow {
  return {
    id: Number(row['id']),
    session: String(row['session']),
    file: String(row['file']),
    enc: row['enc'] === 'utf16le' ? 'utf16le' : 'utf8',
    bytes: Number(row['bytes']),
    complete: Number(row['complete']) === 1,
    indexedBytes: Number(row['indexed_bytes']),
    indexedLines: Number(row['indexed_lines']),
    handle: String(row['handle']),
    tool: row['tool'] === null ? undefined : String(row['tool']),
    command: row['cmd'] === null ? undefined : String(row['cmd']),
    createdMs: Number(row['created_ms']),
    sessionName: String(row['name']),
    origin: String(row['origin']),
    originLabel: String(row['origin_label']),
  };
}

/** Blocks of whole lines of at least `BLOCK_BYTES` (the last may be shorter), with their byte and newline counts. */
function* cutBlocks(text: string, enc: BufferEncoding): Generator<{ text: string; bytes: number; newlines: number }> {
  const unit = enc === 'utf16le' ? 2 : 1;
  let start = 0;
  while (start < text.length) {
    // Characters are at least one byte (two in UTF-16): BLOCK_BYTES / unit characters are at least BLOCK_BYTES bytes.
    let end = text.indexOf('\n', start + Math.floor(BLOCK_BYTES / unit) - 1);
    end = end === -1 ? text.length : end + 1;
    const block = text.slice(start, end);
    let newlines = 0;
    for (let at = block.indexOf('\n'); at !== -1; at = block.indexOf('\n', at + 1)) newlines++;
    yield { text: block, bytes: Buffer.byteLength(block, enc), newlines };
    start = end;
  }
}

function lastUtf16Newline(bytes: Buffer): number {
  for (let at = (bytes.length & ~1) - 2; at >= 0; at -= 2) if (bytes[at] === 0x0a && bytes[at + 1] === 0) return at;
  return -1;
}

/** The length of `bytes` cut back to a whole character (UTF-8: not inside a sequence; UTF-16: even, no lone high half). */
export function characterBoundary(bytes: Buffer, enc: BufferEncoding): number {
  if (enc === 'utf16le') {
    let end = bytes.length & ~1;
    const last = end >= 2 ? bytes.readUInt16LE(end - 2) : 0;
    if (last >= 0xd800 && last <= 0xdbff) end -= 2;
    return end;
  }
  let end = bytes.length;
  let back = 0;
  while (back < 4 && end - back - 1 >= 0 && ((bytes[end - back - 1] ?? 0) & 0xc0) === 0x80) back++;
  const lead = bytes[end - back - 1] ?? 0;
  const need = lead >= 0xf0 ? 4 : lead >= 0xe0 ? 3 : lead >= 0xc0 ? 2 : 1;
  if (need > back + 1) end -= back + 1;
  return end;
}

/** Bytes `[start, end)` of `file` (fewer when the file is shorter). */
export function readBytes(file: string, start: number, end: number): Buffer {
  const handle = fs.openSync(file, 'r');
  try {
    const buffer = Buffer.alloc(Math.max(0, end - start));
    let done = 0;
    while (done < buffer.length) {
      const read = fs.readSync(handle, buffer, done, buffer.length - done, start + done);
      if (read === 0) break;
      done += read;
    }
    return buffer.subarray(0, done);
  } finally {
    fs.closeSync(handle);
  }
}

async function statOf(file: string): Promise<fs.Stats | undefined> {
  try {
    return await fs.promises.stat(file);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

function statOfSync(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch {
    return undefined;
  }
}

/** Whether `error` says the database file is damaged (SQLITE_CORRUPT, SQLITE_NOTADB). */
export function isDamage(error: unknown): boolean {
  const code = (error as { code?: unknown } | undefined)?.code;
  return /SQLITE_CORRUPT|SQLITE_NOTADB|malformed|not a database/i.test(
    `${typeof code === 'string' ? code : ''} ${errorMessage(error)}`,
  );
}

/** Moves an index that cannot be opened out of the way (with its WAL and shared memory), keeping it for a look. */
function setAside(file: string, why: unknown): void {
  const broken = `${file}.broken-${Date.now()}`;
  try {
    fs.renameSync(file, broken);
    fs.writeFileSync(`${broken}.why`, `${errorMessage(why)}\n`);
  } catch (error) {
    if (!isNotFound(error)) throw error;
  }
  for (const suffix of ['-wal', '-shm']) fs.rmSync(file + suffix, { force: true });
}
