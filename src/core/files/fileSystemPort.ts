import { promises as fs } from 'node:fs';

/** What `fd_to_file` needs from a file system. Paths are absolute. */
export interface FileSystemPort {
  /** `undefined` when nothing exists at `path`. Follows symbolic links. */
  stat(path: string): Promise<{ type: 'file' | 'directory' | 'other'; size: number } | undefined>;
  /** The path with every symbolic link resolved; rejects when it does not exist. */
  realpath(path: string): Promise<string>;
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  /** Replaces `to` if it exists. */
  rename(from: string, to: string): Promise<void>;
  /** Creates the folder and any missing parents. */
  mkdir(path: string): Promise<void>;
  /** Removes a file; quiet when it is already gone. */
  remove(path: string): Promise<void>;
  /** Gives `to` the permission bits of `from` (so a replaced file keeps, say, its execute bit); optional. */
  copyMode?(from: string, to: string): Promise<void>;
}

/** The default port: Node's `fs`. Where it may write is decided by the session's workspace roots. */
export const nodeFileSystem: FileSystemPort = {
  async stat(path) {
    try {
      const s = await fs.stat(path);
      return { type: s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other', size: s.size };
    } catch (error) {
      if (isMissing(error)) return undefined;
      throw error;
    }
  },
  realpath: (path) => fs.realpath(path),
  readFile: (path) => fs.readFile(path),
  writeFile: (path, data) => fs.writeFile(path, data),
  rename: (from, to) => fs.rename(from, to),
  mkdir: async (path) => {
    await fs.mkdir(path, { recursive: true });
  },
  remove: (path) => fs.rm(path, { force: true }),
  copyMode: async (from, to) => {
    await fs.chmod(to, (await fs.stat(from)).mode & 0o7777);
  },
};

function isMissing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
