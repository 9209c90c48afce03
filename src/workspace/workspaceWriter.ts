import * as vscode from 'vscode';
import { resolveWorkspacePath } from '../core/files/workspacePath';
import { writeWorkspaceFile, type WorkspaceWriteRequest, type WorkspaceWriteResult } from '../core/files/workspaceWrite';
import { UserError } from '../common/errors';
import { workspaceFileSystemPort } from './workspaceFileSystemPort';

/** A write as the commands ask for it: the core's request, less what this writer supplies (roots, file system). */
export type WriteRequest = Omit<WorkspaceWriteRequest, 'roots' | 'fileSystem'>;

/**
 * The only place the extension writes workspace files. Same rules as the model's `fd_to_file` (it runs
 * the same core function): inside a workspace folder also after following symbolic links, parent
 * folders created, written atomically; and nothing at all in an untrusted workspace.
 */
export class WorkspaceWriter {
  private readonly fileSystem = workspaceFileSystemPort;

  /** Absolute paths of the `file:` workspace folders. */
  roots(): string[] {
    return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  }

  /** Where a path would be written, and whether a file is there; refuses paths outside the workspace. */
  async resolve(path: string): Promise<{ uri: vscode.Uri; exists: boolean }> {
    this.requireTrust();
    const target = await resolveWorkspacePath(path, this.roots(), this.fileSystem);
    const stat = await this.fileSystem.stat(target);
    return { uri: vscode.Uri.file(target), exists: stat !== undefined };
  }

  async write(request: WriteRequest): Promise<WorkspaceWriteResult & { uri: vscode.Uri }> {
    this.requireTrust();
    const result = await writeWorkspaceFile({ ...request, roots: this.roots(), fileSystem: this.fileSystem });
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
