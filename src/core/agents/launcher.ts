/**
 * The launchers agents run: copies of the extension's server bundle (`dist/mcp.js`, as `fdref-mcp.js`) and of its
 * command-line tool (`dist/cli.js`, as `fdref-cli.js`, which agents' hooks run commands through) in the extension's
 * global storage, side by side. Agents' configurations outlive extension versions, and an update removes the old version's folder, so
 * they cannot point into the extension itself; the copy stays where it is and is refreshed, by one atomic rename,
 * whenever the extension's bundle differs from it (at each activation and each connect). A server already running
 * keeps the code it loaded; the next one an agent starts gets the new version.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorMessage, isNotFound } from '../errors';
import { replaceThroughTemporary } from '../files/replaceFile';

/** The launcher's file name in its folder: `fdref-` and the bundle's own name, so its module kind (`.js`, `.mjs`) is kept. */
export function launcherPath(folder: string, bundle: string): string {
  return path.join(folder, `fdref-${path.basename(bundle)}`);
}

/** What each bundle is, for a message about it. */
const BUNDLE_NAMES: Readonly<Record<string, string>> = { 'mcp.js': 'MCP server', 'cli.js': 'command-line tool' };

/**
 * Files a bundle loads from beside itself, copied with it as `fdref-<name>`: the worker threads the MCP server runs
 * query_fd's jq, diff_fd's diff and the store's search on (src/core/workers/workerRun.ts looks for them under both
 * names).
 */
const COMPANIONS: Readonly<Record<string, readonly string[]>> = {
  'mcp.js': ['jqWorker.js', 'diffWorker.js', 'searchWorker.js'],
};
/** The folder of native binaries beside the bundles (libsql's, for the search worker), copied as it is named. */
const NATIVE_FOLDER = 'native';

/** What {@link refreshLauncher} did. */
export type LauncherRefresh = 'created' | 'updated' | 'unchanged';

/**
 * Makes the launcher in `folder` a copy of `bundle` (see the file comment); resolves to its path and what changed.
 * Rejects with a message naming the bundle when it is missing (an extension built without its server).
 */
export async function refreshLauncher(
  bundle: string,
  folder: string,
): Promise<{ path: string; refresh: LauncherRefresh }> {
  const companions = COMPANIONS[path.basename(bundle)] ?? [];
  if (companions.length > 0) await refreshNative(path.join(path.dirname(bundle), NATIVE_FOLDER), folder);
  for (const companion of companions) {
    const file = path.join(path.dirname(bundle), companion);
    // A build without it (an older one) still gets its server; query_fd or diff_fd then fails with the reason.
    if (
      await fs.access(file).then(
        () => true,
        () => false,
      )
    )
      await refreshLauncher(file, folder);
  }
  return copyWhenChanged(bundle, launcherPath(folder, bundle), folder);
}

/** The native binaries of `source` (a folder beside the bundles), copied into `<folder>/native/` where they differ. */
async function refreshNative(source: string, folder: string): Promise<void> {
  let names: string[];
  try {
    names = (await fs.readdir(source)).filter((name) => name.endsWith('.node'));
  } catch (error) {
    if (isNotFound(error)) return; // a build without them: the search then says why it cannot run
    throw error;
  }
  const target = path.join(folder, NATIVE_FOLDER);
  for (const name of names) {
    const from = path.join(source, name);
    const to = path.join(target, name);
    const [a, b] = await Promise.all([fs.stat(from), fs.stat(to).catch(() => undefined)]);
    // Copied by us, so the same size and a later time mean the same file; anything else is copied again.
    if (b !== undefined && a.size === b.size && b.mtimeMs >= a.mtimeMs) continue;
    await copyWhenChanged(from, to, target);
  }
}

async function copyWhenChanged(
  bundle: string,
  target: string,
  folder: string,
): Promise<{ path: string; refresh: LauncherRefresh }> {
  let source: Buffer;
  try {
    source = await fs.readFile(bundle);
  } catch (error) {
    throw new Error(
      `fdref's ${BUNDLE_NAMES[path.basename(bundle)] ?? 'launcher'} bundle ${bundle} cannot be read (${errorMessage(error)}): reinstall the extension`,
      { cause: error },
    );
  }
  const current = await fs.readFile(target).catch((error: unknown) => {
    if (isNotFound(error)) return undefined;
    throw error;
  });
  if (current?.equals(source) === true) return { path: target, refresh: 'unchanged' };
  await fs.mkdir(folder, { recursive: true });
  await replaceThroughTemporary({
    write: (temp) => fs.writeFile(path.join(folder, temp), source, { flag: 'wx', mode: 0o644 }),
    rename: (temp) => fs.rename(path.join(folder, temp), target),
    removeTemporary: (temp) => fs.rm(path.join(folder, temp), { force: true }).catch(() => undefined),
  });
  return { path: target, refresh: current === undefined ? 'created' : 'updated' };
}

/** At activation: refreshes the launcher only when an agent was connected before (it exists); otherwise does nothing. */
export async function refreshExistingLauncher(bundle: string, folder: string): Promise<LauncherRefresh | undefined> {
  try {
    await fs.access(launcherPath(folder, bundle));
  } catch {
    return undefined;
  }
  return (await refreshLauncher(bundle, folder)).refresh;
}
