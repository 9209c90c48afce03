import * as path from 'node:path';
import { ToolError } from '../toolError';
import type { FileSystemPort, OpenFolder } from './fileSystemPort';
import { replaceThroughTemporary } from './replaceFile';
import { isInside, shownInWorkspace, type WorkspaceTarget } from './workspacePath';
import { errorCode, errorMessage } from '../errors';

// How a write stays inside the workspace when folders change under it: the target's folder is opened one level
// at a time without following links, and checked again before and after the rename that puts the file in place.

/**
 * Opens the target's folder from the root down, one level at a time and never through a symbolic link,
 * creating the folders that were missing when the path was resolved (after `beforeCreating`, which throws
 * to refuse). A folder that existed then and is gone, or has become a link, means the path changed.
 */
export async function openTargetFolder(
  fs: FileSystemPort,
  resolved: WorkspaceTarget,
  label: string,
  beforeCreating: () => void,
): Promise<OpenFolder> {
  const { target, root, existing, shown } = resolved;
  let folder = await fs.openFolder(root).catch((error: unknown) => {
    throw new ToolError(
      'write_error',
      `Could not write ${shown}: ${reason(error)}. The file was left as it was.`,
      label,
    );
  });
  let at = root;
  try {
    for (const part of path.relative(root, path.dirname(target)).split(path.sep).filter(Boolean)) {
      const parent = at;
      at = path.join(at, part);
      const inside = path.join(folder.path, part);
      try {
        let entry = await fs.lstat(inside);
        if (entry === undefined) {
          if (isInside(existing, at)) throw changedOnTheWay(target, label);
          beforeCreating();
          await fs.mkdir(inside);
          entry = await fs.lstat(inside);
        }
        if (entry?.type === 'file' || entry?.type === 'other') {
          throw fileOnTheWay(resolved, at, label);
        }
        if (entry?.type !== 'directory') throw changedOnTheWay(target, label);
        const child = await fs.openFolder(inside).catch(() => {
          throw changedOnTheWay(target, label);
        });
        await folder.close();
        folder = child;
      } catch (error) {
        if (error instanceof ToolError) throw error;
        throw new ToolError(
          'write_error',
          `Could not write ${shown}: ${reason(error, folder, parent)}. The file was left as it was.`,
          label,
        );
      }
    }
    return folder;
  } catch (error) {
    await folder.close();
    throw error;
  }
}

/** Throws unless the open folder is still at `expected` (it was moved, or a link took its place on the way). */
export async function expectFolderAt(
  folder: OpenFolder,
  expected: string,
  target: string,
  label: string,
): Promise<void> {
  const where = await folder.where().catch(() => undefined);
  if (where !== expected) throw changedOnTheWay(target, label);
}

/**
 * Writes `bytes` to a temporary file in the open folder and renames it over the target, checking before the
 * rename that the folder and the temporary file are where they should be, and after it that the file is
 * inside the workspace. Whatever it wrote is removed again when a check fails. Resolves to where the file is.
 */
export async function replaceInFolder(
  fs: FileSystemPort,
  folder: OpenFolder,
  resolved: WorkspaceTarget,
  bytes: Uint8Array,
  mode: number | undefined,
  existed: boolean,
  label: string,
): Promise<string> {
  const { target, root } = resolved;
  const folderPath = path.dirname(target);
  const name = path.basename(target);
  const inFolder = (entry: string): string => path.join(folder.path, entry);
  const tempId = await replaceThroughTemporary({
    write: (temp) => fs.createFile(inFolder(temp), bytes, mode),
    async beforeRename(temp, id) {
      await expectFolderAt(folder, folderPath, target, label);
      if ((await fs.lstat(inFolder(temp)))?.id !== id) throw changedOnTheWay(target, label);
    },
    rename: (temp) => fs.rename(inFolder(temp), inFolder(name)),
    async removeTemporary(temp, id, error) {
      if (errorCode(error) === 'EEXIST') return;
      const where = await folder.where().catch(() => folderPath);
      await removeIfWritten(fs, id, [inFolder(temp), path.join(where, temp)]);
    },
  });
  // The file is in place now: from here on a failure must not be reported as "nothing was written".
  const where = await folder.where().catch(() => undefined);
  const placed = await fs.lstat(path.join(folder.path, name)).catch(() => undefined);
  if (placed?.id === tempId && where !== undefined && isInside(where, root)) return path.join(where, name);
  if (placed?.id === tempId && where !== undefined) {
    // The folder ended up outside the workspace while the file was renamed into it.
    if (existed) {
      throw new ToolError(
        'write_error',
        `While ${target} was written its folder was moved to ${where}, outside the workspace; the file there holds what was written. Check it.`,
        label,
      );
    }
    await fs.remove(path.join(folder.path, name)).catch(() => undefined);
    throw new ToolError(
      'write_error',
      `While ${target} was written its folder was moved to ${where}, outside the workspace, so the new file was removed again.`,
      label,
    );
  }
  throw new ToolError(
    'write_error',
    `${resolved.shown} changed while it was written (another program replaced it, or a folder on the way was swapped); check it and try again.`,
    label,
  );
}

/** Removes the first of `candidates` that is the file with `id` (any file at the first when `id` is unknown). */
async function removeIfWritten(
  fs: FileSystemPort,
  id: string | undefined,
  candidates: readonly string[],
): Promise<void> {
  for (const candidate of id === undefined ? candidates.slice(0, 1) : new Set(candidates)) {
    const entry = await fs.lstat(candidate).catch(() => undefined);
    if (entry !== undefined && (id === undefined || entry.id === id)) {
      await fs.remove(candidate).catch(() => undefined);
      return;
    }
  }
}

/** The error for a file where the path to the target needs a folder (`at`). */
export function fileOnTheWay(resolved: WorkspaceTarget, at: string, label: string): ToolError {
  return new ToolError(
    'write_error',
    `${shownInWorkspace(resolved, at)} is a file, not a folder, so ${resolved.shown} cannot be written.`,
    label,
  );
}

export function changedOnTheWay(target: string, label: string): ToolError {
  return new ToolError(
    'write_error',
    `A folder on the way to ${target} was moved or replaced by a symbolic link while writing, so nothing was written. Try again.`,
    label,
  );
}

/** The error's message, naming an open folder by its real path `folderPath` rather than by the port's name for it. */
export function reason(error: unknown, folder?: OpenFolder, folderPath?: string): string {
  const message = errorMessage(error);
  return folder === undefined || folderPath === undefined ? message : message.split(folder.path).join(folderPath);
}
