/**
 * A session's journal: an append-only file of small JSON records, each framed as
 *
 *     <length: 8 hex digits> <checksum: 8 hex digits> <JSON payload>\n
 *
 * The length counts the payload's UTF-8 bytes and the checksum is the first 32 bits of its SHA-256, so a
 * record cut short by a crash (a torn tail) or damaged on disk is recognised and never read as data.
 * Readers skip a line that does not check out and read on; the journal's one writer repairs it (see `open`).
 */
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { errorCode, isNotFound } from '../errors';
import { readRange, writeFileAtomic, type Durability } from './atomicFile';
import { openStoreFile } from './storeFile';

const HEADER_BYTES = 18;
/** Far above any record the store writes (larger payloads go to content files), well below what memory allows. */
export const MAX_RECORD_BYTES = 1 << 20;

/** One record read back: its payload and where it lies in the file. */
export interface JournalRecord {
  readonly value: unknown;
  readonly offset: number;
  readonly end: number;
  /** Whether a damaged stretch of this read comes before it: records may be missing before this one. */
  readonly afterDamage: boolean;
}

/** Bytes `[offset, end)` of a journal that are not records that check out. */
export interface DamagedStretch {
  readonly offset: number;
  readonly end: number;
}

export interface JournalRead {
  readonly records: JournalRecord[];
  /** Where the last record that checks out ends; the writer appends here. */
  readonly validEnd: number;
  /** Whole lines before `validEnd` that do not check out (damage: readers skip them, the writer repairs). */
  readonly damaged: DamagedStretch[];
  /** The file's size when read; more than `validEnd` when its tail does not check out. */
  readonly size: number;
  /** The file's identity (device and inode), which a replaced journal changes. */
  readonly fileId: string;
}

/** What the writer found damaged in a journal and did about it (see `JournalAppender.open`). */
export interface JournalRepair {
  /** Records read back, the ones after the damage included. */
  readonly keptRecords: number;
  /** Of them, records that came after a damaged stretch (the ones a reader stopping there would lose). */
  readonly recoveredRecords: number;
  /** Damaged lines (records, as far as their framing tells) cut from the journal. */
  readonly cutLines: number;
  readonly cutBytes: number;
  /** The journal as it was, kept whole beside it. */
  readonly copy: string;
}

/** The bytes of one record holding `value`. */
export function encodeRecord(value: unknown): Buffer {
  const payload = Buffer.from(JSON.stringify(value), 'utf8');
  if (payload.length > MAX_RECORD_BYTES)
    throw new Error(`A journal record may hold at most ${MAX_RECORD_BYTES} bytes (this one has ${payload.length}).`);
  const header = `${hex8(payload.length)} ${checksum(payload)} `;
  return Buffer.concat([Buffer.from(header, 'latin1'), payload, Buffer.from('\n', 'latin1')]);
}

/**
 * Parses the records in `bytes` (which start at file offset `base`). A record is one line (JSON holds no raw
 * newline), so a line that does not check out is skipped as damaged and the records after it are still read:
 * one flipped bit loses one record, not the rest of the session. A line ending in CRLF (a journal converted by
 * an editor or a checkout) counts as ending in LF. What follows the last newline is an unfinished record (an
 * append in progress, or a torn tail a crash left) and is not read.
 */
export function decodeRecords(
  bytes: Buffer,
  base = 0,
): { records: JournalRecord[]; validEnd: number; damaged: DamagedStretch[] } {
  const records: JournalRecord[] = [];
  const damaged: DamagedStretch[] = [];
  let validEnd = 0;
  let at = 0;
  const skip = (end: number): void => {
    const last = damaged[damaged.length - 1];
    if (last !== undefined && last.end === base + at)
      damaged[damaged.length - 1] = { offset: last.offset, end: base + end };
    else damaged.push({ offset: base + at, end: base + end });
    at = end;
  };
  while (at < bytes.length) {
    const newline = bytes.indexOf(0x0a, at);
    if (newline === -1) break;
    const lineEnd = newline + 1;
    const record = recordAt(bytes, at, lineEnd);
    if (record === undefined) {
      skip(lineEnd);
      continue;
    }
    records.push({ value: record.value, offset: base + at, end: base + record.end, afterDamage: damaged.length > 0 });
    at = record.end;
    validEnd = at;
    // Its own newline was damaged: the record is whole, the byte is damage the writer repairs.
    if (bytes[at - 1] !== 0x0a) damaged.push({ offset: base + at - 1, end: base + at });
  }
  // Damage after the last record that checks out is not skipped: the writer's repair deals with it.
  const last = damaged[damaged.length - 1];
  if (last !== undefined && last.end > base + validEnd) damaged.pop();
  return { records, validEnd: base + validEnd, damaged };
}

/**
 * The record starting at `at` in the line ending at `lineEnd` (just past its newline), or undefined when it does
 * not check out. When only the record's own newline was damaged (it then runs into the next line), the length
 * and checksum still find it, and it ends before `lineEnd`.
 */
function recordAt(bytes: Buffer, at: number, lineEnd: number): { value: unknown; end: number } | undefined {
  if (at + HEADER_BYTES > lineEnd) return undefined;
  const header = bytes.toString('latin1', at, at + HEADER_BYTES);
  if (!/^[0-9a-f]{8} [0-9a-f]{8} $/.test(header)) return undefined;
  const length = parseInt(header.slice(0, 8), 16);
  const payloadEnd = at + HEADER_BYTES + length;
  if (length > MAX_RECORD_BYTES || payloadEnd >= lineEnd) return undefined;
  let end: number;
  if (payloadEnd === lineEnd - 1) end = lineEnd;
  else if (payloadEnd === lineEnd - 2 && bytes[payloadEnd] === 0x0d) end = lineEnd;
  else end = payloadEnd + 1; // its newline was damaged: the checksum decides, and the next record starts after it
  const payload = bytes.subarray(at + HEADER_BYTES, payloadEnd);
  if (checksum(payload) !== header.slice(9, 17)) return undefined;
  try {
    return { value: JSON.parse(payload.toString('utf8')), end };
  } catch {
    return undefined;
  }
}

/** Reads the records from `from` on (a record boundary an earlier read returned); a missing file reads as empty. */
export async function readJournal(file: string, from = 0): Promise<JournalRead> {
  let handle: fs.FileHandle;
  try {
    handle = await openStoreFile(file);
  } catch (error) {
    if (isNotFound(error)) return { records: [], validEnd: 0, damaged: [], size: 0, fileId: '' };
    throw error;
  }
  try {
    return (await readOpen(handle, from)).read;
  } finally {
    await handle.close();
  }
}

async function readOpen(handle: fs.FileHandle, from: number): Promise<{ read: JournalRead; bytes: Buffer }> {
  const stat = await handle.stat({ bigint: true });
  const size = Number(stat.size);
  const fileId = `${stat.dev}:${stat.ino}`;
  if (from >= size)
    return { read: { records: [], validEnd: Math.min(from, size), damaged: [], size, fileId }, bytes: Buffer.alloc(0) };
  const bytes = await readRange(handle, from, size);
  return { read: { ...decodeRecords(bytes, from), size, fileId }, bytes };
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
   * Opens a journal for appending. A tail that does not check out and holds no newline (a record a crash left
   * half written) is cut off. Any other damage (a line that does not check out, wherever it is) is repaired: the
   * journal as it was is kept beside it (`journal.log.damaged-<time>`), and a journal of the records that check
   * out, as `replay` gives them back, replaces it; `repair` says what was done. `replay` sees the records before
   * anything is changed (the writer builds its state with it); throwing there leaves the journal as it was.
   */
  static async open(
    file: string,
    durability: Durability,
    replay: (records: readonly JournalRecord[]) => readonly unknown[] = (records) => records.map((r) => r.value),
  ): Promise<{ appender: JournalAppender; read: JournalRead; cutBytes: number; repair?: JournalRepair }> {
    let handle = await openStoreFile(file, 'write');
    try {
      const { read, bytes } = await readOpen(handle, 0);
      const values = replay(read.records);
      const cutBytes = read.size - read.validEnd;
      const tail = bytes.subarray(read.validEnd);
      // A torn tail is the start of one record: no newline, and no longer than a record can be.
      const torn = !tail.includes(0x0a) && cutBytes <= HEADER_BYTES + MAX_RECORD_BYTES + 2;
      if (read.damaged.length === 0 && torn) {
        if (cutBytes > 0) {
          await handle.truncate(read.validEnd);
          if (durability === 'fsync') await handle.datasync();
        }
        return { appender: new JournalAppender(handle, read.validEnd, durability), read, cutBytes };
      }
      const stretches = [...read.damaged, ...(cutBytes > 0 ? [{ offset: read.validEnd, end: read.size }] : [])];
      const copy = await keepCopy(file, bytes, durability);
      const kept = Buffer.concat(values.map(encodeRecord));
      await handle.close();
      await writeFileAtomic(file, kept, durability);
      handle = await openStoreFile(file, 'write');
      const firstDamage = stretches[0]?.offset ?? read.size;
      const repair: JournalRepair = {
        keptRecords: read.records.length,
        recoveredRecords: read.records.filter((r) => r.offset > firstDamage).length,
        cutLines: stretches.reduce((n, s) => n + countLines(bytes.subarray(s.offset, s.end)), 0),
        cutBytes: stretches.reduce((n, s) => n + s.end - s.offset, 0),
        copy,
      };
      return { appender: new JournalAppender(handle, kept.length, durability), read, cutBytes, repair };
    } catch (error) {
      await handle.close().catch(() => undefined);
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

/** Writes `bytes` (a journal as read) to a new file `<journal>.damaged-<time>` beside it; returns its path. */
async function keepCopy(file: string, bytes: Buffer, durability: Durability): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const copy = `${file}.damaged-${Date.now()}${attempt === 0 ? '' : `-${attempt}`}`;
    try {
      // 'wx' creates a new file and fails on anything there, a planted link included.
      const handle = await fs.open(copy, 'wx');
      try {
        await handle.writeFile(bytes);
        if (durability === 'fsync') await handle.datasync();
      } finally {
        await handle.close();
      }
      return copy;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST' || attempt >= 100) throw error;
    }
  }
}

/** Lines in `bytes`, a last one without its newline included. */
function countLines(bytes: Buffer): number {
  let lines = 0;
  for (let at = bytes.indexOf(0x0a); at !== -1; at = bytes.indexOf(0x0a, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 0x0a ? lines + 1 : lines;
}

function checksum(payload: Uint8Array): string {
  return createHash('sha256').update(payload).digest('hex').slice(0, 8);
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}
