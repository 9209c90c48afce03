/**
 * A session's journal: an append-only file of small JSON records, each framed as
 *
 *     <length: 8 hex digits> <checksum: 8 hex digits> <JSON payload>\n
 *
 * The length counts the payload's UTF-8 bytes and the checksum is the first 32 bits of its SHA-256, so a
 * record cut short by a crash (a torn tail) or damaged on disk is recognised and never read as data.
 * Readers stop at the first record that does not check out; the journal's one writer cuts it off there.
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { isNotFound } from '../errors';
import { readRange, type Durability } from './atomicFile';

const HEADER_BYTES = 18;
/** Far above any record the store writes (larger payloads go to content files), well below what memory allows. */
export const MAX_RECORD_BYTES = 1 << 20;

/** One record read back: its payload and where it lies in the file. */
export interface JournalRecord {
  readonly value: unknown;
  readonly offset: number;
  readonly end: number;
}

export interface JournalRead {
  readonly records: JournalRecord[];
  /** Where the valid records end; the writer appends here. */
  readonly validEnd: number;
  /** The file's size when read; more than `validEnd` when its tail does not check out. */
  readonly size: number;
  /** The file's identity (device and inode), which a replaced journal changes. */
  readonly fileId: string;
}

/** The bytes of one record holding `value`. */
export function encodeRecord(value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value), 'utf8');
  if (payload.length > MAX_RECORD_BYTES)
    throw new Error(`A journal record may hold at most ${MAX_RECORD_BYTES} bytes (this one has ${payload.length}).`);
  const header = `${hex8(payload.length)} ${checksum(payload)} `;
  return Buffer.concat([Buffer.from(header, 'latin1'), payload, Buffer.from('\n', 'latin1')]);
}

/** Parses the records in `bytes` (which start at file offset `base`) up to the first one that does not check out. */
export function decodeRecords(bytes: Buffer, base = 0): { records: JournalRecord[]; validEnd: number } {
  const records: JournalRecord[] = [];
  let at = 0;
  while (at + HEADER_BYTES <= bytes.length) {
    const header = bytes.toString('latin1', at, at + HEADER_BYTES);
    if (!/^[0-9a-f]{8} [0-9a-f]{8} $/.test(header)) break;
    const length = parseInt(header.slice(0, 8), 16);
    const end = at + HEADER_BYTES + length + 1;
    if (length > MAX_RECORD_BYTES || end > bytes.length || bytes[end - 1] !== 0x0a) break;
    const payload = bytes.subarray(at + HEADER_BYTES, end - 1);
    if (checksum(payload) !== header.slice(9, 17)) break;
    let value: unknown;
    try {
      value = JSON.parse(payload.toString('utf8'));
    } catch {
      break;
    }
    records.push({ value, offset: base + at, end: base + end });
    at = end;
  }
  return { records, validEnd: base + at };
}

/** Reads the records from `from` on (a record boundary an earlier read returned); a missing file reads as empty. */
export async function readJournal(file: string, from = 0): Promise<JournalRead> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, 'r');
  } catch (error) {
    if (isNotFound(error)) return { records: [], validEnd: 0, size: 0, fileId: '' };
    throw error;
  }
  try {
    const stat = await handle.stat({ bigint: true });
    const size = Number(stat.size);
    const fileId = `${stat.dev}:${stat.ino}`;
    if (from >= size) return { records: [], validEnd: Math.min(from, size), size, fileId };
    const { records, validEnd } = decodeRecords(await readRange(handle, from, size), from);
    return { records, validEnd, size, fileId };
  } finally {
    await handle.close();
  }
}

/**
 * The one writer of a journal. Appends are written in call order at the end of the valid records, each as
 * one positional write, and (with `fsync` durability) flushed before the append resolves.
 */
export class JournalAppender {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  private constructor(
    private readonly handle: fs.FileHandle,
    private end: number,
    private readonly durability: Durability,
  ) {}

  /**
   * Opens a journal for appending, cutting off a tail that does not check out (a record a crash left half
   * written). A damaged stretch longer than one record is not a torn tail: the file is copied aside first.
   */
  static async open(
    file: string,
    durability: Durability,
  ): Promise<{ appender: JournalAppender; read: JournalRead; cutBytes: number }> {
    const read = await readJournal(file);
    const handle = await fs.open(file, 'r+');
    try {
      const cutBytes = read.size - read.validEnd;
      if (cutBytes > 0) {
        if (cutBytes > MAX_RECORD_BYTES + HEADER_BYTES + 1) await fs.copyFile(file, `${file}.damaged-${Date.now()}`);
        await handle.truncate(read.validEnd);
        if (durability === 'fsync') await handle.datasync();
      }
      return { appender: new JournalAppender(handle, read.validEnd, durability), read, cutBytes };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** Creates a new journal holding `first` (it fails when the file exists). */
  static async create(file: string, first: readonly unknown[], durability: Durability): Promise<JournalAppender> {
    const handle = await fs.open(file, 'wx');
    const appender = new JournalAppender(handle, 0, durability);
    try {
      await appender.append(first);
    } catch (error) {
      await handle.close();
      throw error;
    }
    return appender;
  }

  /** Bytes of valid records written so far. */
  get size(): number {
    return this.end;
  }

  /** Appends `values` as consecutive records in one write; resolves once they are written (and flushed). */
  append(values: readonly unknown[]): Promise<void> {
    const bytes = Buffer.concat(values.map(encodeRecord));
    const run = this.queue.then(() => this.write(bytes));
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** Waits for pending appends, then closes the file. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.queue;
    await this.handle.close();
  }

  private async write(bytes: Buffer): Promise<void> {
    if (this.closed) throw new Error('The journal is closed.');
    const start = this.end;
    try {
      let written = 0;
      while (written < bytes.length) {
        const { bytesWritten } = await this.handle.write(bytes, written, bytes.length - written, start + written);
        written += bytesWritten;
      }
      if (this.durability === 'fsync') await this.handle.datasync();
      this.end = start + bytes.length;
    } catch (error) {
      // A part written stays past `end`: readers see a tail that does not check out, the next append overwrites it.
      await this.handle.truncate(start).catch(() => undefined);
      throw error;
    }
  }
}

function checksum(payload: Uint8Array): string {
  return createHash('sha256').update(payload).digest('hex').slice(0, 8);
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
