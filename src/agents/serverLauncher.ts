/**
 * How every connected agent starts fdref's MCP server (and VS Code's own MCP client, `registerMcpServerProvider.ts`):
 * the launcher copied into the extension's global storage, run by Node from the PATH or VS Code's runtime.
 */
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import * as vscode from 'vscode';
import { refreshLauncher } from '../core/agents/launcher';
import {
  findOnPath,
  isSupportedNodeVersion,
  type ServerLaunch,
  serverLaunch,
  type ServerRuntime,
} from '../core/agents/serverLaunch';
import { UserError } from '../common/errors';

export const run = promisify(execFile);

/**
 * The MCP server's command line as every connected agent runs it (also VS Code's own MCP client): the launcher in
 * the extension's global storage (brought up to date), run by Node from `searchPath` or VS Code's runtime, on `store`
 * and the workspace's `file:` folders. A `UserError` when no folder is open.
 */
export async function agentServerLaunch(
  context: vscode.ExtensionContext,
  store: string,
  searchPath: string | undefined,
): Promise<ServerLaunch> {
  const launcher = await refreshLauncher(serverBundle(context), launcherFolder(context));
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((folder) => folder.uri.scheme === 'file');
  if (folders.length === 0) {
    throw new UserError('Open a folder first: the server an agent starts works in the workspace’s folders.');
  }
  return serverLaunch({
    runtime: await serverRuntime(searchPath),
    launcher: launcher.path,
    store,
    workspaces: folders.map((folder) => folder.uri.fsPath),
  });
}

/** The MCP server's bundle in the extension. */
export function serverBundle(context: vscode.ExtensionContext): string {
  return context.asAbsolutePath(path.join('dist', 'mcp.js'));
}

/** Where the launcher agents run is kept (it outlives updates of the extension). */
export function launcherFolder(context: vscode.ExtensionContext): string {
  return path.join(context.globalStorageUri.fsPath, 'mcp');
}

/** Node from the PATH when it runs the server (Node 20.9 or later), else VS Code's own runtime. */
async function serverRuntime(searchPath: string | undefined): Promise<ServerRuntime> {
  const node = await findOnPath('node', pathSearch(searchPath));
  if (node !== undefined) {
    try {
      const { stdout } = await run(node, ['--version'], { timeout: 10_000, windowsHide: true });
      if (isSupportedNodeVersion(stdout)) return { kind: 'node', path: node };
    } catch {
      // A node that does not run is passed over, as one too old is.
    }
  }
  return { kind: 'vscode', path: process.execPath };
}

export function pathSearch(searchPath: string | undefined) {
  return {
    pathVariable: searchPath,
    platform: process.platform,
    pathExtensions: process.env['PATHEXT'],
    isExecutable: async (candidate: string): Promise<boolean> => {
      try {
        await fs.access(candidate, constants.X_OK);
        return (await fs.stat(candidate)).isFile();
      } catch {
        return false;
      }
    },
  };
}
