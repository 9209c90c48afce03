import { constants, existsSync, promises as fs, type BigIntStats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { errorCode, isNotFound } from '../errors';

/** Facts about one entry, taken without following it when it is a symbolic link. */
export interface EntryStat {
  readonly type: 'file' | 'directory' | 'symlink' | 'other';
  readonly size: number;
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
  readonly mtimeMs: number;
  /** Device and inode: two entries with the same id are the same file. */
  readonly id: string;
}

/** A folder held open while a file in it is written. */
export interface OpenFolder {
  /**
   * A path naming this folder while it is open; its entries are `path.join(folder.path, name)`. Where the
   * platform allows it (Linux: the open descriptor's `/proc/self/fd/N`) it follows the folder itself, so
   * neither a move nor a symbolic link swapped in on the way can redirect what is written below it.
   * Elsewhere it is the folder's path, and comparing `where()` before and after is how a change shows.
   */
  readonly path: string;
  /** The folder's real path now. */
  where(): Promise<string>;
  close(): Promise<void>;
}

/** What workspace writes need from a file system. Paths are absolute. */
export interface FileSystemPort {
  /** `undefined` when nothing exists at `path`. Follows symbolic links. */
  stat(path: string): Promise<{ type: 'file' | 'directory' | 'other'; size: number } | undefined>;
  /** `undefined` when nothing exists at `path`; a symbolic link there is reported as one. */
  lstat(path: string): Promise<EntryStat | undefined>;
  /** The path with every symbolic link resolved; rejects when it does not exist. */
  realpath(path: string): Promise<string>;
  /** Reads a file; rejects when `path` itself is a symbolic link. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Creates a new file holding `data`, with permission bits `mode` when given; rejects (`EEXIST`) when anything,
   * a symbolic link included, is at `path`. Resolves to the new file's id (see `EntryStat.id`).
   */
  createFile(path: string, data: Uint8Array, mode?: number): Promise<string>;
  /** Replaces `to` if it exists. */
  rename(from: string, to: string): Promise<void>;
  /** Creates one folder inside an existing one; quiet when something is already at `path` (the caller looks). */
  mkdir(path: string): Promise<void>;
  /** Removes a file or a symbolic link (never what it leads to); quiet when it is already gone. */
  remove(path: string): Promise<void>;
  /**
   * Whether this process may change the file at `path` as its permissions say. Root, whom the system lets
   * write anything, is held to the permission bits too: a file with no write bit at all is read-only for root.
   */
  canWrite(path: string): Promise<boolean>;
  /** Opens the folder at `path`; rejects when `path` is a symbolic link or not a folder. */
  openFolder(path: string): Promise<OpenFolder>;
}

const O_NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const O_DIRECTORY = constants.O_DIRECTORY ?? 0;

/**
 * Node's `fs` as a port. `anchoredFolders` (default: wherever `/proc/self/fd` works, i.e. Linux) makes
 * `openFolder` hold a descriptor and name the folder through it. Without it (macOS, Windows: Node has no
 * `openat`) folders are named by path and the caller's checks catch a folder swapped for a link; a swap that
 * is undone again between two steps can then leave a lock or temporary file where the link led.
 */
export function nodeFileSystemPort(options: { anchoredFolders?: boolean } = {}): FileSystemPort {
  const anchored = options.anchoredFolders ?? (process.platform === 'linux' && existsSync('/proc/self/fd'));
  // Checked once, on the first folder opened: some systems (WSL 1, some sandboxes) have `/proc` without it.
  let anchorsWork: Promise<boolean> | undefined;
  return {
    async stat(path) {
      try {
        const s = await fs.stat(path);
        return { type: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    async lstat(path) {
      try {
        return entryStat(await fs.lstat(path, { bigint: true }));
      } catch (error) {
        if (isNotFound(error)) return undefined;
        throw error;
      }
    },
    realpath: (path) => fs.realpath(path),
    readFile: (path) => fs.readFile(path, { flag: constants.O_RDONLY | O_NOFOLLOW }),
    async createFile(path, data, mode) {
      const handle = await fs.open(
        path,
        constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | O_NOFOLLOW,
        mode ?? 0o666,
      );
      try {
        await handle.writeFile(data);
        if (mode !== undefined) await handle.chmod(mode); // exact bits, not narrowed by the umask
        return entryStat(await handle.stat({ bigint: true })).id;
      } finally {
        await handle.close();
      }
    },
    rename: (from, to) => fs.rename(from, to),
    async mkdir(path) {
      try {
        await fs.mkdir(path);
      } catch (error) {
        if (errorCode(error) !== 'EEXIST') throw error;
      }
    },
    async remove(path) {
      try {
        await fs.unlink(path);
      } catch (error) {
        if (!isNotFound(error)) throw error;
      }
    },
    async canWrite(path) {
      try {
        await fs.access(path, constants.W_OK);
      } catch (error) {
        if (['EACCES', 'EPERM', 'EROFS'].includes(errorCode(error) ?? '')) return false;
        throw error;
      }
      return process.getuid?.() !== 0 || ((await fs.stat(path)).mode & 0o222) !== 0;
    },
    async openFolder(path) {
      if (anchored) {
        const handle = await fs.open(path, constants.O_RDONLY | O_DIRECTORY | O_NOFOLLOW);
        const anchor = `/proc/self/fd/${handle.fd}`;
        anchorsWork ??= namesHeldFolder(anchor, handle);
        if (await anchorsWork) return { path: anchor, where: () => fs.readlink(anchor), close: () => handle.close() };
        await handle.close();
      }
      const s = await fs.lstat(path);
      if (!s.isDirectory())
        throw Object.assign(new Error(`ENOTDIR: not a folder, open '${path}'`), { code: 'ENOTDIR' });
      return { path, where: () => fs.realpath(path), close: async () => undefined };
    },
  };
}

/** The default port: Node's `fs`. Where it may write is decided by the session's workspace roots. */
export const nodeFileSystem: FileSystemPort = nodeFileSystemPort();

/** Whether a path through `anchor` reaches the folder held by `handle`. */
async function namesHeldFolder(anchor: string, handle: FileHandle): Promise<boolean> {
  try {
    const [held, through] = await Promise.all([
      handle.stat({ bigint: true }),
      fs.stat(`${anchor}/.`, { bigint: true }),
    ]);
    return held.dev === through.dev && held.ino === through.ino;
  } catch {
    return false;
  }
}

function entryStat(s: BigIntStats): EntryStat {
  const type = s.isSymbolicLink() ? 'symlink' : s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
  return {
    type,
    size: Number(s.size),
    mode: Number(s.mode & 0o7777n),
    mtimeMs: Number(s.mtimeMs),
    id: `${s.dev}:${s.ino}`,
  };
}
