/**
 * How an agent starts fdref's MCP server: the command line every client configuration holds. The server is run
 * from a launcher kept in the extension's global storage (see `launcher.ts`), by a Node found on the `PATH` when
 * one is recent enough, else by VS Code's own runtime (its Electron binary, told to act as Node).
 */
import * as path from 'node:path';

/** A command line with its environment, as the clients' `mcpServers` entries hold it. */
export interface ServerLaunch {
  readonly command: string;
  readonly args: readonly string[];
  /** Variables the client adds to the server's environment; empty for a plain Node. */
  readonly env: Readonly<Record<string, string>>;
}

/** What runs the launcher: a Node binary, or VS Code's runtime (which needs `ELECTRON_RUN_AS_NODE=1`). */
export type ServerRuntime =
  { readonly kind: 'node'; readonly path: string } | { readonly kind: 'vscode'; readonly path: string };

export interface ServerLaunchRequest {
  readonly runtime: ServerRuntime;
  /** Absolute path of the launcher script. */
  readonly launcher: string;
  /** The store folder the extension uses for this workspace. */
  readonly store: string;
  /** The workspace folders `fd_to_file` and `run_command` may use, absolute. */
  readonly workspaces: readonly string[];
}

/** The oldest Node the server runs on (package.json `engines.node`). */
export const MINIMUM_NODE_VERSION: readonly [number, number] = [20, 9];

/** The command line of the server: `<runtime> <launcher> --store <store> --workspace <folder> ...`. */
export function serverLaunch(request: ServerLaunchRequest): ServerLaunch {
  return {
    command: request.runtime.path,
    args: [
      request.launcher,
      '--store',
      request.store,
      ...request.workspaces.flatMap((folder) => ['--workspace', folder]),
    ],
    env: request.runtime.kind === 'vscode' ? { ELECTRON_RUN_AS_NODE: '1' } : {},
  };
}

/** `launch` with the server's `--result-chars` (`clientBudgets.ts`) for one client; `launch` itself without one. */
export function withResultChars(launch: ServerLaunch, resultChars: number | undefined): ServerLaunch {
  return resultChars === undefined
    ? launch
    : { ...launch, args: [...launch.args, '--result-chars', String(resultChars)] };
}

/** Whether `node --version` printed a version at least {@link MINIMUM_NODE_VERSION} (`v20.9.0`, `v24.1.0`). */
export function isSupportedNodeVersion(versionOutput: string): boolean {
  const match = /^v?(\d+)\.(\d+)\.\d+/.exec(versionOutput.trim());
  if (match === null) return false;
  const [major, minor] = [Number(match[1]), Number(match[2])];
  const [wantMajor, wantMinor] = MINIMUM_NODE_VERSION;
  return major > wantMajor || (major === wantMajor && minor >= wantMinor);
}

/** Where to look for a program, as the shell would: each `PATH` entry in order, with Windows' `PATHEXT` extensions. */
export interface PathSearch {
  /** The `PATH` variable's value. */
  readonly pathVariable: string | undefined;
  /** `process.platform`. */
  readonly platform: string;
  /** The `PATHEXT` variable's value (Windows only). */
  readonly pathExtensions?: string | undefined;
  /** Whether a file at this absolute path exists and may be run. */
  readonly isExecutable: (candidate: string) => Promise<boolean>;
}

/**
 * The absolute path of the first `name` on the `PATH` that can be run, or undefined. Relative `PATH` entries are
 * skipped: the configuration is read by another program, in another folder.
 */
export async function findOnPath(name: string, search: PathSearch): Promise<string | undefined> {
  const windows = search.platform === 'win32';
  const paths = windows ? path.win32 : path.posix;
  const extensions = windows
    ? (search.pathExtensions ?? '.COM;.EXE;.BAT;.CMD')
        .split(';')
        .filter((extension) => extension !== '')
        .map((extension) => extension.toLowerCase())
    : [''];
  for (const entry of (search.pathVariable ?? '').split(windows ? ';' : ':')) {
    const folder = windows ? entry.replace(/^"(.*)"$/, '$1') : entry;
    if (folder === '' || !paths.isAbsolute(folder)) continue;
    for (const extension of extensions) {
      const candidate = paths.join(folder, name + extension);
      if (await search.isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}
