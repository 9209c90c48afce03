import { nodeFileSystem, type FileSystemPort } from '../core';

/**
 * The port the extension writes workspace files through: Node's `fs`, as the core's own. `vscode.workspace.fs`
 * cannot hold a folder open, create a file exclusively or refuse to follow a link, which the write needs so that
 * a folder swapped for a link meanwhile cannot redirect it, and a lock file beside the target is honoured by
 * every process. `file:` workspace folders are on the disk the extension host's Node sees, remote hosts included.
 */
export const workspaceFileSystemPort: FileSystemPort = nodeFileSystem;
