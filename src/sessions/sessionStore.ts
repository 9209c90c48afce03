import { promises as nodeFs } from 'node:fs';
import * as vscode from 'vscode';
import { isNotFound } from '../core/errors';
import { SESSION_ID } from '../core/files/fdrefPaths';
import { replaceThroughTemporary } from '../core/files/replaceFile';
import { sessionRecordFromJSON, sessionRecordToJSON } from '../core/session/sessionRecord';
import { errorMessage } from '../common/errors';
import type { SessionEntry } from './sessionEntry';

const encoder = new TextEncoder();

/**
 * Moves `temp` over `target` in one step. For `file:` storage that is Node's rename: `workspace.fs.rename`
 * with `overwrite` deletes the target first, so a crash in between would lose the session.
 */
async function rename(temp: vscode.Uri, target: vscode.Uri): Promise<void> {
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
 * Session files on disk: `<folder>/<id>.json`, one per session, each replaced through a temporary file
 * (`replaceThroughTemporary`). A file that cannot be read is renamed to `<id>.json.corrupt-<time>` and
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
        if (`${metadata.id}.json` !== name)
          throw new Error(`the file holds session ${metadata.id}, not ${name.slice(0, -5)}`);
        entries.push(chat === undefined ? { metadata, session } : { metadata, session, chat });
      } catch (error) {
        setAside.push({ original: uri, renamedTo: await this.setAside(uri), reason: errorMessage(error) });
      }
    }
    return { entries, setAside };
  }

  async save(entry: SessionEntry): Promise<void> {
    const target = this.fileOf(entry.metadata.id);
    const inFolder = (name: string): vscode.Uri => vscode.Uri.joinPath(this.folder, name);
    const bytes = encoder.encode(JSON.stringify(sessionRecordToJSON(entry.metadata, entry.session, entry.chat)));
    await vscode.workspace.fs.createDirectory(this.folder);
    await replaceThroughTemporary({
      write: (temp) => Promise.resolve(vscode.workspace.fs.writeFile(inFolder(temp), bytes)),
      rename: (temp) => rename(inFolder(temp), target),
      removeTemporary: (temp) =>
        Promise.resolve(vscode.workspace.fs.delete(inFolder(temp))).then(undefined, () => undefined),
    });
  }

  async remove(id: string): Promise<void> {
    try {
      await vscode.workspace.fs.delete(this.fileOf(id), { useTrash: false });
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  private async sessionFileNames(): Promise<string[]> {
    // Created up front (it is the extension's own storage) rather than reading a folder that may be missing.
    await vscode.workspace.fs.createDirectory(this.folder);
    return (await vscode.workspace.fs.readDirectory(this.folder))
      .filter(
        ([name, type]) => type & vscode.FileType.File && name.endsWith('.json') && SESSION_ID.test(name.slice(0, -5)),
      )
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
