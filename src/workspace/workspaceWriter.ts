import * as vscode from 'vscode';
import { resolveWorkspacePath } from '../core/files/workspacePath';
import { writeWorkspaceFile, type WriteMode, type WorkspaceWriteResult } from '../core/files/workspaceWrite';
import { UserError } from '../common/errors';
import { workspaceFileSystemPort } from './workspaceFileSystemPort';

export interface WriteRequest {
  /** Absolute, or relative to the first workspace folder. */
  readonly path: string;
  readonly text: string;
  readonly mode: WriteMode;
  readonly line?: number | undefined;
  /** False refuses to touch an existing file. */
  readonly existOk?: boolean | undefined;
  /** False refuses to create a missing file. */
  readonly create?: boolean | undefined;
  /** What is written, for messages: `ref:x`. */
  readonly label: string;
}

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
    const result = await writeWorkspaceFile({
      filePath: request.path,
      text: request.text,
      mode: request.mode,
      line: request.line,
      existOk: request.existOk,
      create: request.create,
      roots: this.roots(),
      fileSystem: this.fileSystem,
      label: request.label,
    });
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
