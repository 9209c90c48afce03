/**
 * How the store opens its own files: never through a symbolic link, and only regular files. A session folder is
 * ordinary user data that anything may change; a link planted there (to a folder, to another file, to
 * `/dev/zero`) or a FIFO must not make the store delete, truncate, serve or block on what lies elsewhere.
 */
import { createHash } from 'node:crypto';
import { constants, promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { errorCode, isNotFound } from '../errors';
import { SESSIONS_FOLDER } from './layout';
import type { ContentRef } from './records';

// Where the platform has no O_NOFOLLOW (Windows) the flag is 0, and the type check after opening still holds.
const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
// A FIFO opened without O_NONBLOCK blocks a thread of libuv's pool until a writer comes; with it, open returns
// at once and fstat refuses it. It changes nothing for a regular file.
const O_NONBLOCK = constants.O_NONBLOCK ?? 0;

/** Thrown for a store file or folder that is a link or not a regular file (folder): the store leaves it alone. */
export class UnsafeStoreFileError extends Error {}

/**
 * Opens a file of the store for reading (or reading and writing), refusing a symbolic link and anything but a
 * regular file with an `UnsafeStoreFileError` naming the session. A missing file rejects as `fs.open` does.
 */
export async function openStoreFile(
  file: string,
  mode: 'read' | 'write' = 'read',
  /** Further checks of the file opened (its size); throwing closes it and rejects with that error. */
  check?: (stat: Stats) => void,
): Promise<fs.FileHandle> {
  const access = mode === 'read' ? constants.O_RDONLY : constants.O_RDWR;
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(file, access | O_NOFOLLOW | O_NONBLOCK);
  } catch (error) {
    const code = errorCode(error);
    // ELOOP: the last part of the path is a link (O_NOFOLLOW); EISDIR: a folder opened for writing; ENXIO: a socket.
    if (code === 'ELOOP') throw unsafe(file, 'is a symbolic link');
    if (code === 'EISDIR' || code === 'ENXIO') throw unsafe(file, 'is not a regular file');
    throw error;
  }
  try {
    const stat = await handle.stat();
    if (!stat.isFile()) throw unsafe(file, 'is not a regular file');
    check?.(stat);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Checks that `folder` is a folder itself, not a link to one; false when it does not exist. Node has no
 * `openat`, so a folder is checked by path just before it is used.
 */
export async function checkStoreFolder(folder: string): Promise<boolean> {
  let stat;
  try {
    stat = await fs.lstat(folder);
  } catch (error) {
    if (isNotFound(error)) return false;
    throw error;
  }
  if (stat.isSymbolicLink()) throw unsafe(folder, 'is a symbolic link');
  if (!stat.isDirectory()) throw unsafe(folder, 'is not a folder');
  return true;
}

/** Refuses (`UnsafeStoreFileError`) a path that is there and is not a regular file, a link included. */
export async function checkRegularFile(file: string): Promise<void> {
  const stat = await fs.lstat(file).catch(() => undefined);
  if (stat === undefined || stat.isFile()) return;
  throw unsafe(file, stat.isSymbolicLink() ? 'is a symbolic link' : 'is not a regular file');
}

/** The name a content gets from its bytes: the first 128 bits of their SHA-256, in hex. */
export function contentHash(hash: ReturnType<typeof createHash>): string {
  return hash.digest('hex').slice(0, 32);
}

/**
 * Whether `file` is a regular file holding exactly the bytes `ref` names (its size and hash): what a new write of
 * the same text may be deduplicated onto. It reads the file once, in blocks.
 */
export async function holdsContent(file: string, ref: Pick<ContentRef, 'h' | 'bytes'>): Promise<boolean> {
  let handle: fs.FileHandle;
  try {
    handle = await openStoreFile(file, 'read', (stat) => {
      if (stat.size !== ref.bytes) throw new Error('another size');
    });
  } catch {
    return false; // missing, not a regular file, or another size: it is replaced
  }
  try {
    const hash = createHash('sha256');
    const buffer = Buffer.alloc(Math.min(Math.max(ref.bytes, 16), 1 << 20));
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, null);
      if (bytesRead === 0) break;
      hash.update(buffer.subarray(0, bytesRead));
      total += bytesRead;
    }
    return total === ref.bytes && contentHash(hash) === ref.h;
  } finally {
    await handle.close();
  }
}

/** `Session <id>: <file in its folder>`, from a path inside `sessions/<id>/` (the path itself otherwise). */
export function describeStorePath(file: string): string {
  const parts = path.resolve(file).split(path.sep);
  const at = parts.lastIndexOf(SESSIONS_FOLDER);
  if (at === -1 || at + 1 >= parts.length) return file;
  const inside = parts.slice(at + 2).join('/');
  return `Session ${parts[at + 1] ?? ''}${inside === '' ? ' (its folder)' : `: ${inside}`}`;
}

function unsafe(file: string, what: string): UnsafeStoreFileError {
  return new UnsafeStoreFileError(
    `${describeStorePath(file)} ${what}; fdref opens only its own regular files and folders in the session store, and left it alone.`,
  );
}
