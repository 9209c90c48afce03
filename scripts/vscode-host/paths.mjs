import { homedir } from 'node:os';
import * as path from 'node:path';

/** Installs live outside the clone, keyed by version, so every clone and CI run reuses them. */
export function cacheRoot() {
  const base =
    process.env.FDREF_VSCODE_CACHE ||
    path.join(process.env.XDG_CACHE_HOME || path.join(homedir(), '.cache'), 'fdref-vscode');
  return path.resolve(base);
}
