import { promises as nodeFs } from 'node:fs';
import * as vscode from 'vscode';
import type { FileSystemPort } from '../core';

/** The core's file system port over `vscode.workspace.fs` for `file:` paths; realpath comes from Node. */
export const workspaceFileSystemPort: FileSystemPort = {
  async stat(path) {
    try {
      const stat = await vscode.workspace.fs.stat(vscode.Uri.file(path));
      const type = stat.type & vscode.FileType.Directory ? 'directory' : stat.type & vscode.FileType.File ? 'file' : 'other';
      return { type, size: stat.size };
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  },
  realpath: (path) => nodeFs.realpath(path),
  readFile: (path) => Promise.resolve(vscode.workspace.fs.readFile(vscode.Uri.file(path))),
  writeFile: (path, data) => Promise.resolve(vscode.workspace.fs.writeFile(vscode.Uri.file(path), data)),
  // Node's rename, not workspace.fs: with `overwrite` VS Code deletes the target before renaming, so a crash in
  // between would leave no file at all. A POSIX rename replaces the target in one step.
  rename: (from, to) => nodeFs.rename(from, to),
  copyMode: async (from, to) => {
    await nodeFs.chmod(to, (await nodeFs.stat(from)).mode & 0o7777);
  },
  mkdir: (path) => Promise.resolve(vscode.workspace.fs.createDirectory(vscode.Uri.file(path))),
  async remove(path) {
    try {
      await vscode.workspace.fs.delete(vscode.Uri.file(path), { useTrash: false });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  },
};

function isNotFound(error: unknown): boolean {
  return error instanceof vscode.FileSystemError && (error.code === 'FileNotFound' || error.code === 'EntryNotFound');
}
