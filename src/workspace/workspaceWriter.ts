import * as vscode from 'vscode';
import { nodeFileSystem, type FileSystemPort } from '../core';
import {
  checkWorkspaceWrite,
  writeWorkspaceFile,
  type WriteCheck,
  type WorkspaceWriteRequest,
  type WorkspaceWriteResult,
} from '../core/files/workspaceWrite';
import { UserError } from '../common/errors';
import { namedWorkspaceFolders } from '../common/workspacePaths';

/** A write as the commands ask for it: the core's request, less what this writer supplies (roots, file system). */
export type WriteRequest = Omit<WorkspaceWriteRequest, 'roots' | 'rootNames' | 'fileSystem'>;

/**
 * The only place the extension writes workspace files. Same rules as the model's `fd_to_file` (it runs
 * the same core function): inside a workspace folder also after following symbolic links, parent
 * folders created, written atomically; and nothing at all in an untrusted workspace.
 */
export class WorkspaceWriter {
  /**
   * What the commands and the chat write through: Node's `fs`, as the core's own port. `vscode.workspace.fs`
   * cannot hold a folder open, create a file exclusively or refuse to follow a link, which a write needs so that
   * a folder swapped for a link meanwhile cannot redirect it, and a lock file beside the target is honoured by
   * every process. `file:` workspace folders are on the disk the extension host's Node sees, remote hosts included.
   */
  readonly fileSystem: FileSystemPort = nodeFileSystem;

  /** Absolute paths of the `file:` workspace folders. */
  roots(): string[] {
    return namedWorkspaceFolders().map((folder) => folder.path);
  }

  /** Whether the workspace is trusted (not Restricted Mode): the language model tools read its files only then. */
  trusted(): boolean {
    return vscode.workspace.isTrusted;
  }

  /**
   * Where a path would be written and whether a file is there, refusing what the write would refuse before
   * reading the file (outside the workspace, a folder, `create`/`existOk`): the check an input box runs as the
   * user types. Throws `ToolError`.
   */
  async check(
    request: Pick<WriteRequest, 'filePath' | 'create' | 'existOk' | 'label'>,
  ): Promise<WriteCheck & { uri: vscode.Uri }> {
    this.requireTrust();
    const checked = await checkWorkspaceWrite({ ...request, ...this.workspace() });
    return { ...checked, uri: vscode.Uri.file(checked.target) };
  }

  /** What the core's check and write take from this writer: the folders, their names, the file system. */
  private workspace(): Pick<WorkspaceWriteRequest, 'roots' | 'rootNames' | 'fileSystem'> {
    const folders = namedWorkspaceFolders();
    return {
      roots: folders.map((folder) => folder.path),
      rootNames: folders.map((folder) => folder.name),
      fileSystem: this.fileSystem,
    };
  }

  async write(request: WriteRequest): Promise<WorkspaceWriteResult & { uri: vscode.Uri }> {
    this.requireTrust();
    const result = await writeWorkspaceFile({ ...request, ...this.workspace() });
    return { ...result, uri: vscode.Uri.file(result.target) };
  }

  private requireTrust(): void {
    if (!vscode.workspace.isTrusted) {
      throw new UserError(
        'FD Refs does not write files in Restricted Mode: this workspace is not trusted, and a ref holds text a model wrote. ' +
          'Trust the workspace (Manage Workspace Trust) to export, append or insert refs.',
      );
    }
  }
}
