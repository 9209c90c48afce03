import { existsSync, lstatSync, readdirSync, renameSync, rmdirSync, symlinkSync, unlinkSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Swaps `folder` for a symbolic link to `outside` and back, as another process might while fdref writes:
 * the real folder waits at `folder + '.away'` meanwhile.
 */
export function swapFolderForLink(folder: string, outside: string): void {
  renameSync(folder, `${folder}.away`);
  symlinkSync(outside, folder);
}

/**
 * Puts the real folder back where `swapFolderForLink` took it from (whatever happened in between). A writer
 * may have created the folder anew while it was missing; what it holds is moved into the real one, and the
 * names moved are added to `moved`, even when it then fails (a writer busy in it loses track of its temporary
 * and lock files).
 */
export function restoreFolder(folder: string, moved: string[] = []): void {
  const away = `${folder}.away`;
  if (lstatSync(folder, { throwIfNoEntry: false })?.isSymbolicLink()) unlinkSync(folder);
  if (!existsSync(away)) return;
  if (existsSync(folder)) {
    for (const name of readdirSync(folder)) {
      if (existsSync(path.join(away, name))) throw new Error(`both folders hold ${name}`);
      renameSync(path.join(folder, name), path.join(away, name));
      moved.push(name);
    }
    rmdirSync(folder);
  }
  renameSync(away, folder);
}

/** Every file (not folder) under `root`, as paths relative to it; links are listed, not followed. */
export function filesUnder(root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    if (!entry.isDirectory()) found.push(path.relative(root, path.join(entry.parentPath, entry.name)));
  }
  return found.sort();
}
