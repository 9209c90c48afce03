import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorCode, isNotFound } from '../errors';
import { replaceThroughTemporary } from '../files/replaceFile';
import { describeStorePath, openStoreFile } from './storeFile';

/**
 * How hard the store works to keep a completed change: `fsync` survives a power cut (content, records and
 * renames are flushed before a change counts as done); `process` survives a killed process only (the
 * operating system's cache holds what was written), at a fraction of the time.
 */
export type Durability = 'fsync' | 'process';

/** Temporary files end with this; `cleanTemporaryFiles` recognises them by it. */
export const TEMP_SUFFIX = '.tmp';

/**
 * A temporary name beside `finalName` in the same folder, so the rename that publishes it is atomic. It names
 * this process (`.<final>.<pid>-<random>.tmp`): a leftover whose process is gone can be removed safely.
 */
export function tempNameFor(finalName: string): string {
  return `.${finalName}.${process.pid}-${randomBytes(6).toString('hex')}${TEMP_SUFFIX}`;
}

/** The process id a `tempNameFor` name carries, or undefined for any other name. */
export function pidOfTempName(name: string): number | undefined {
  const match = /\.(\d+)-[0-9a-f]{12}\.tmp$/.exec(name);
  return match ? Number(match[1]) : undefined;
}

/** Flushes a folder's entries (a rename in it) to disk; quiet where folders cannot be opened (Windows). */
export async function syncFolder(folder: string, durability: Durability): Promise<void> {
  if (durability !== 'fsync') return;
  let handle: fs.FileHandle | undefined;
  try {
    handle = await fs.open(folder, 'r');
    await handle.sync();
  } catch (error) {
    if (!['EISDIR', 'EPERM', 'EACCES', 'EINVAL', 'EBADF'].includes(errorCode(error) ?? '')) throw error;
  } finally {
    await handle?.close();
  }
}

/**
 * Writes `data` to `target` so that a reader (or a process started after a crash) sees the old file or the
 * new one whole, never a part: a temporary file beside it, flushed, then renamed over it.
 */
export async function writeFileAtomic(
  target: string,
  data: Uint8Array | string,
  durability: Durability,
): Promise<void> {
  const folder = path.dirname(target);
  await replaceThroughTemporary({
    write: async (temp) => {
      const handle = await fs.open(path.join(folder, temp), 'wx');
      try {
        await handle.writeFile(data);
        if (durability === 'fsync') await handle.datasync();
      } finally {
        await handle.close();
      }
    },
    rename: (temp) => renameReplacing(path.join(folder, temp), target),
    removeTemporary: (temp) => fs.rm(path.join(folder, temp), { force: true }).catch(() => undefined),
  });
  await syncFolder(folder, durability);
}

/**
 * `rename`, retried for a moment where another process holding the target open makes it fail (Windows
 * answers EPERM, EBUSY or EACCES while a reader has the file open).
 */
export async function renameReplacing(from: string, to: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.rename(from, to);
      return;
    } catch (error) {
      if (
        attempt >= 20 ||
        !['EPERM', 'EBUSY', 'EACCES'].includes(errorCode(error) ?? '') ||
        process.platform !== 'win32'
      )
        throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * (attempt + 1)));
    }
  }
}

/**
 * A store file's bytes, or undefined when it does not exist. It is read only when it is a regular file (not a
 * link, a FIFO or a device: see `openStoreFile`) of at most `maxBytes`.
 */
export async function readFileIfExists(file: string, maxBytes = Infinity): Promise<Buffer | undefined> {
  let handle: fs.FileHandle;
  try {
    handle = await openStoreFile(file);
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
  try {
    const { size } = await handle.stat();
    if (size > maxBytes)
      throw new Error(`${describeStorePath(file)} has ${size} bytes, more than the ${maxBytes} such a file may have.`);
    return await readRange(handle, 0, size);
  } finally {
    await handle.close();
  }
}

/** Reads bytes `start` to `end` of an open file, fewer when the file ends first (a short read is retried). */
export async function readRange(handle: fs.FileHandle, start: number, end: number): Promise<Buffer> {
  const bytes = Buffer.alloc(Math.max(0, end - start));
  let read = 0;
  while (read < bytes.length) {
    const { bytesRead } = await handle.read(bytes, read, bytes.length - read, start + read);
    if (bytesRead === 0) break;
    read += bytesRead;
  }
  return bytes.subarray(0, read);
}
