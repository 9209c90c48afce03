import * as path from 'node:path';
import { isInside } from './pathInside';

/** A workspace folder as messages name it. */
export interface NamedFolder {
  /** Its absolute path. */
  readonly path: string;
  /** Its name as the editor shows it (by default the last segment of its path). */
  readonly name: string;
}

/**
 * How a message names a file for a person: relative to the workspace folder that holds it, with `/` between
 * segments, and prefixed with that folder's name when there are several (`api/src/a.ts`); absolute when no
 * folder holds it. The deepest folder wins when folders are nested; the folder itself is its name (or `.`).
 */
export function displayPath(absolute: string, folders: readonly NamedFolder[]): string {
  let holder: NamedFolder | undefined;
  for (const folder of folders) {
    if (
      isInside(absolute, path.resolve(folder.path)) &&
      (holder === undefined || folder.path.length > holder.path.length)
    )
      holder = folder;
  }
  if (holder === undefined) return absolute;
  const relative = path.relative(path.resolve(holder.path), absolute).split(path.sep).join('/');
  if (folders.length > 1) return relative === '' ? holder.name : `${holder.name}/${relative}`;
  return relative === '' ? '.' : relative;
}

/** The folders named as the editor names them by default: by the last segment of their path. */
export function foldersNamedByPath(roots: readonly string[], names?: readonly string[]): NamedFolder[] {
  return roots.map((root, i) => ({ path: root, name: names?.[i] ?? (path.basename(path.resolve(root)) || root) }));
}
