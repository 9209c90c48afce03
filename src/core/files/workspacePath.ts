import * as path from 'node:path';
import { errorCode } from '../errors';
import { ToolError } from '../toolError';
import { displayPath, foldersNamedByPath, type NamedFolder } from './displayPath';
import type { FileSystemPort } from './fileSystemPort';
import { isInside } from './pathInside';

export { isInside } from './pathInside';

/** Where a write goes, proven inside a workspace root. All three are real paths (no symbolic links). */
export interface WorkspaceTarget {
  /** The file to write (through any links, so a linked file is updated rather than replaced). */
  readonly target: string;
  /** The workspace root it lies in. */
  readonly root: string;
  /** The nearest of `target` and its folders that existed when resolved; folders below it are to be created. */
  readonly existing: string;
  /** `target` as messages name it: relative to its workspace folder (see `displayPath`). */
  readonly shown: string;
  /** The workspace folders as messages name them, and the one (as given, before links) that holds the target. */
  readonly folders: readonly NamedFolder[];
  readonly lexicalRoot: string;
}

/**
 * Resolves a path a model or a user asked to write to, and proves it lies inside a workspace root,
 * also after following symbolic links (of the target and of its nearest existing folder).
 * Returns the real path to write; throws `ToolError('outside_workspace')` otherwise.
 */
export async function resolveWorkspacePath(
  requested: string,
  roots: readonly string[],
  fileSystem: FileSystemPort,
): Promise<string> {
  return (await resolveWorkspaceTarget(requested, roots, fileSystem)).target;
}

/**
 * `resolveWorkspacePath`, also saying which root holds the target, how much of its path exists and how messages
 * name it (`rootNames`: the folders' names as the editor shows them, by default the last segment of each root).
 */
export async function resolveWorkspaceTarget(
  requested: string,
  roots: readonly string[],
  fileSystem: FileSystemPort,
  rootNames?: readonly string[],
): Promise<WorkspaceTarget> {
  const first = roots[0];
  if (first === undefined) {
    throw new ToolError(
      'outside_workspace',
      'No workspace folder is open, so there is nowhere to write. Open a folder first.',
    );
  }
  if (requested.includes('\0')) throw new ToolError('invalid_argument', 'file_path contains a NUL character.');
  const target = path.resolve(first, requested);
  const lexicalRoot = roots.find((root) => isInside(target, path.resolve(root)));
  if (lexicalRoot === undefined) {
    throw new ToolError(
      'outside_workspace',
      `${requested} resolves to ${target}, which is outside the workspace (${roots.join(', ')}). Use a path inside it.`,
    );
  }
  const realRoot = await fileSystem.realpath(lexicalRoot).catch(() => path.resolve(lexicalRoot));
  const nearest = await realPathOfNearest(target, fileSystem);
  if (!isInside(nearest.real, realRoot)) {
    throw new ToolError(
      'outside_workspace',
      `${requested} leads through a symbolic link to ${nearest.real}, which is outside the workspace. Use a path inside it.`,
    );
  }
  const folders = foldersNamedByPath(roots, rootNames);
  const located = { root: realRoot, folders, lexicalRoot };
  // Replaced like a link that leads nowhere, it would be lost: the user made it, and may mean to fix it.
  if (nearest.loop !== undefined) throw linkLoop(shownInWorkspace(located, nearest.loop));
  return {
    ...located,
    target: nearest.real,
    existing: nearest.existing,
    shown: shownInWorkspace(located, nearest.real),
  };
}

/** The error for a symbolic link that cannot be followed (`shown`, as messages name it): it is never replaced. */
export function linkLoop(shown: string, label?: string): ToolError {
  return new ToolError(
    'write_error',
    `${shown} is a symbolic link that leads round in a loop (or through too many links to follow), so it was left as it was. Remove the link, or point it at a file or folder.`,
    label,
  );
}

/**
 * A real path inside the resolved root as messages name it: relative to the workspace folder as the user gave
 * it (so a folder reached through a link is still named by its own name), absolute when it is not inside.
 */
export function shownInWorkspace(
  resolved: Pick<WorkspaceTarget, 'root' | 'folders' | 'lexicalRoot'>,
  realPath: string,
): string {
  if (!isInside(realPath, resolved.root)) return realPath;
  return displayPath(
    path.join(path.resolve(resolved.lexicalRoot), path.relative(resolved.root, realPath)),
    resolved.folders,
  );
}

/**
 * Where an existing file lies in the workspace, for opening a file a tool call wrote: `file` (absolute; `..` is
 * resolved first) with every symbolic link followed must lie inside the real path of one of `roots`, so a folder
 * opened through a link still holds the real paths the writes report, and neither `..` nor a link leads out.
 * Returns the file under the root as it was opened (`path`) and its real path; undefined when it lies outside every
 * root. Rejects (ENOENT) when nothing is at `file`.
 */
export async function locateInWorkspace(
  file: string,
  roots: readonly string[],
  fileSystem: FileSystemPort,
): Promise<{ path: string; real: string } | undefined> {
  if (file.includes('\0') || !path.isAbsolute(file)) return undefined;
  const real = await fileSystem.realpath(path.resolve(file));
  for (const root of roots) {
    const realRoot = await fileSystem.realpath(root).catch(() => path.resolve(root));
    if (isInside(real, realRoot)) return { path: path.join(path.resolve(root), path.relative(realRoot, real)), real };
  }
  return undefined;
}

/**
 * The real path of `target`, or of its nearest existing ancestor (`existing`) joined with the missing rest; `loop`:
 * the real path of the first link on the way that cannot be followed (a loop, or too many links), if there is one.
 */
async function realPathOfNearest(
  target: string,
  fileSystem: FileSystemPort,
): Promise<{ real: string; existing: string; loop?: string }> {
  let existing = target;
  const missing: string[] = [];
  let loopAt: number | undefined; // how many names were missing when the looping one was reached
  for (;;) {
    try {
      const real = await fileSystem.realpath(existing);
      const rest = [...missing].reverse();
      return {
        real: path.join(real, ...rest),
        existing: real,
        ...(loopAt === undefined ? {} : { loop: path.join(real, ...rest.slice(0, missing.length - loopAt)) }),
      };
    } catch (error) {
      const parent = path.dirname(existing);
      if (parent === existing) return { real: target, existing: parent };
      if (errorCode(error) === 'ELOOP') loopAt = missing.length;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}
