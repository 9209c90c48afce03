import { promises as nodeFs } from 'node:fs';
import * as vscode from 'vscode';
import { SESSION_ID } from '../core/files/fdrefPaths';
import { sessionRecordFromJSON, sessionRecordToJSON } from '../core/session/sessionRecord';
import { errorMessage } from '../common/errors';
import type { SessionEntry } from './sessionEntry';

const encoder = new TextEncoder();

/**
 * Moves `temp` over `target` in one step. For `file:` storage that is Node's rename: `workspace.fs.rename`
 * with `overwrite` deletes the target first, so a crash in between would lose the session.
 */
async function replace(temp: vscode.Uri, target: vscode.Uri): Promise<void> {
  if (temp.scheme === 'file') await nodeFs.rename(temp.fsPath, target.fsPath);
  else await vscode.workspace.fs.rename(temp, target, { overwrite: true });
}
const decoder = new TextDecoder();

/** A session file that could not be read and was renamed aside. */
export interface SetAsideFile {
  readonly original: vscode.Uri;
  readonly renamedTo: vscode.Uri | undefined;
  readonly reason: string;
}

/**
 * Session files on disk: `<folder>/<id>.json`, one per session, each written to a temporary file and
 * renamed over the old one. A file that cannot be read is renamed to `<id>.json.corrupt-<time>` and
 * never overwritten.
 */
export class SessionStore {
  constructor(readonly folder: vscode.Uri) {}

  fileOf(id: string): vscode.Uri {
    return vscode.Uri.joinPath(this.folder, `${id}.json`);
  }

  async loadAll(): Promise<{ entries: SessionEntry[]; setAside: SetAsideFile[] }> {
    const entries: SessionEntry[] = [];
    const setAside: SetAsideFile[] = [];
    for (const name of await this.sessionFileNames()) {
      const uri = vscode.Uri.joinPath(this.folder, name);
      let bytes: Uint8Array;
      try {
        bytes = await vscode.workspace.fs.readFile(uri);
      } catch (error) {
        // Unreadable for now (permissions, a busy disk): left in place, not set aside as corrupt.
        setAside.push({ original: uri, renamedTo: undefined, reason: errorMessage(error) });
        continue;
      }
      try {
        const { metadata, session, chat } = sessionRecordFromJSON(JSON.parse(decoder.decode(bytes)));
        if (`${metadata.id}.json` !== name) throw new Error(`the file holds session ${metadata.id}, not ${name.slice(0, -5)}`);
        entries.push(chat === undefined ? { metadata, session } : { metadata, session, chat });
      } catch (error) {
        setAside.push({ original: uri, renamedTo: await this.setAside(uri), reason: errorMessage(error) });
      }
    }
    return { entries, setAside };
  }

  async save(entry: SessionEntry): Promise<void> {
    const target = this.fileOf(entry.metadata.id);
    const temp = vscode.Uri.joinPath(this.folder, `.${entry.metadata.id}.json.${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.tmp`);
    const bytes = encoder.encode(JSON.stringify(sessionRecordToJSON(entry.metadata, entry.session, entry.chat)));
    await vscode.workspace.fs.createDirectory(this.folder);
    try {
      await vscode.workspace.fs.writeFile(temp, bytes);
      await replace(temp, target);
    } catch (error) {
      await vscode.workspace.fs.delete(temp).then(undefined, () => undefined);
      throw error;
    }
  }

  async remove(id: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.fileOf(id), { useTrash: false });
    } catch (error) {
      if (!(error instanceof vscode.FileSystemError && error.code === 'FileNotFound')) throw error;
    }
  }

  private async sessionFileNames(): Promise<string[]> {
    // Created up front (it is the extension's own storage) rather than reading a folder that may be missing.
    await vscode.workspace.fs.createDirectory(this.folder);
    return (await vscode.workspace.fs.readDirectory(this.folder))
      .filter(([name, type]) => type & vscode.FileType.File && name.endsWith('.json') && SESSION_ID.test(name.slice(0, -5)))
      .map(([name]) => name)
      .sort();
  }

  private async setAside(uri: vscode.Uri): Promise<vscode.Uri | undefined> {
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const renamedTo = uri.with({ path: `${uri.path}.corrupt-${stamp}` });
    try {
      await vscode.workspace.fs.rename(uri, renamedTo, { overwrite: false });
      return renamedTo;
    } catch {
      return undefined;
    }
  }
}
