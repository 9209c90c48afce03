import * as vscode from 'vscode';
import { descriptorFileName, FDREF_AREAS, sessionFolderName } from '../core/files/fdrefPaths';
import { descriptorIdBody, refDescriptorId } from '../core/ids';
import { MissingContentError, type SessionReader } from '../core/store';
import { Disposable } from '../common/lifecycle';
import { entityDocument } from '../entities/entityDocuments';
import type { EntityService } from '../entities/entityService';
import type { SessionChange } from '../sessions/sessionEntry';
import type { SessionRegistry } from '../sessions/sessionRegistry';
import { utf8Size } from '../sessions/storedText';
import { descriptorAtUri } from './fdrefLookup';
import { descriptorUri, FDREF_ROOT, fromFdrefUri, toFdrefUri } from './fdrefUri';

const encoder = new TextEncoder();
const BATCH_DELAY_MS = 5;

/**
 * The sessions as read-only files: `fdref:/<session>/refs/<id>.<ext>` (earlier versions `<id>@<n>.<ext>`)
 * and `fdref:/<session>/fds/fd-<N>.txt`, and Structs entities as `fdref:/entities/<id>.json` (fetched when read).
 * Changes in the registry become batched `onDidChangeFile` events.
 */
export class FdrefFileSystem extends Disposable implements vscode.FileSystemProvider {
  private readonly changeEmitter = this._register(new vscode.EventEmitter<vscode.FileChangeEvent[]>());
  readonly onDidChangeFile = this.changeEmitter.event;
  private pending: vscode.FileChangeEvent[] = [];
  private flushTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly registry: SessionRegistry,
    private readonly entities: EntityService,
  ) {
    super();
    this._register(registry.onDidChange((change) => void this.eventsFor(change).then((events) => this.queue(events))));
    this._register({ dispose: () => clearTimeout(this.flushTimer) });
  }

  watch(): vscode.Disposable {
    // Every change is announced anyway; there is nothing to start per watcher.
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    const location = fromFdrefUri(uri);
    if (location?.kind === 'root') return directory(0);
    if (location?.kind === 'entity') {
      // The size is only known once fetched; editors read the whole file anyway.
      return {
        type: vscode.FileType.File,
        ctime: 0,
        mtime: Date.now(),
        size: 0,
        permissions: vscode.FilePermission.Readonly,
      };
    }
    if (location?.kind === 'session' || location?.kind === 'area') {
      const meta = await this.registry.meta(location.sessionId);
      if (meta) return directory(Date.parse(meta.createdAt));
    }
    if (location?.kind === 'file') {
      const found = await descriptorAtUri(this.registry, uri);
      if (found) {
        const time = Date.parse(found.descriptor.createdAt);
        return {
          type: vscode.FileType.File,
          ctime: time,
          mtime: time,
          size: await utf8Size(found.descriptor.content),
          permissions: vscode.FilePermission.Readonly,
        };
      }
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  async readDirectory(uri: vscode.Uri): Promise<[string, vscode.FileType][]> {
    const location = fromFdrefUri(uri);
    if (location?.kind === 'root') {
      return (await this.registry.list()).map((meta) => [
        sessionFolderName(meta.name, meta.id),
        vscode.FileType.Directory,
      ]);
    }
    if (location?.kind === 'session' || location?.kind === 'area') {
      const reader = await this.registry.reader(location.sessionId);
      if (reader && location.kind === 'session') return FDREF_AREAS.map((area) => [area, vscode.FileType.Directory]);
      if (reader && location.kind === 'area')
        return fileNames(reader, location.area).map((name) => [name, vscode.FileType.File]);
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    const location = fromFdrefUri(uri);
    if (location?.kind === 'entity') return entityDocument(this.entities, location.entityId);
    const found = await descriptorAtUri(this.registry, uri);
    if (!found) throw vscode.FileSystemError.FileNotFound(uri);
    try {
      return encoder.encode(await found.descriptor.content.text());
    } catch (error) {
      // Its session was deleted (by another window, or retention) between the lookup and the read.
      if (error instanceof MissingContentError) throw vscode.FileSystemError.FileNotFound(uri);
      throw error;
    }
  }

  createDirectory(uri: vscode.Uri): never {
    throw readOnly(uri);
  }

  writeFile(uri: vscode.Uri): never {
    throw readOnly(uri);
  }

  delete(uri: vscode.Uri): never {
    throw readOnly(uri);
  }

  rename(oldUri: vscode.Uri): never {
    throw readOnly(oldUri);
  }

  /**
   * Announces every session folder as created. The Explorer of a window that opens with `fdref:/` as a folder asks
   * for the root before fdref has started, gets an error, and shows the root expanded but empty; the events make it
   * read the root again (it ignores those for folders it already shows).
   */
  async announceSessions(): Promise<void> {
    const sessions = await this.registry.list();
    this.queue([
      { type: vscode.FileChangeType.Changed, uri: FDREF_ROOT },
      ...sessions.map((meta) => ({
        type: vscode.FileChangeType.Created,
        uri: toFdrefUri({ kind: 'session', sessionId: meta.id }, meta),
      })),
    ]);
  }

  /** Announces that an entity document has new content (after a refresh). */
  entityChanged(uri: vscode.Uri): void {
    this.queue([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  private async eventsFor(change: SessionChange): Promise<vscode.FileChangeEvent[]> {
    const changed = (uri: vscode.Uri) => ({ type: vscode.FileChangeType.Changed, uri });
    const created = (uri: vscode.Uri) => ({ type: vscode.FileChangeType.Created, uri });
    const deleted = (uri: vscode.Uri) => ({ type: vscode.FileChangeType.Deleted, uri });
    if (change.kind === 'reloaded') return [changed(FDREF_ROOT)];
    const folder = (name: string) => toFdrefUri({ kind: 'session', sessionId: change.sessionId }, { name });
    if (change.kind === 'removed') return [changed(FDREF_ROOT), deleted(folder(change.name))];
    const metadata = await this.registry.meta(change.sessionId);
    if (!metadata) return [changed(FDREF_ROOT)];
    switch (change.kind) {
      case 'pinned':
        return [];
      case 'added':
        return [changed(FDREF_ROOT), created(folder(metadata.name))];
      case 'renamed':
        return [changed(FDREF_ROOT), deleted(folder(change.previousName)), created(folder(metadata.name))];
      case 'descriptorsChanged':
        return [changed(toFdrefUri({ kind: 'area', sessionId: metadata.id, area: 'fds' }, metadata))];
      case 'refsChanged': {
        const events = [changed(toFdrefUri({ kind: 'area', sessionId: metadata.id, area: 'refs' }, metadata))];
        const reader = await this.registry.reader(metadata.id);
        for (const refId of reader ? change.refIds : []) {
          const latest = reader?.refs().find((r) => r.descriptor.id === refDescriptorId(refId));
          if (!latest) continue;
          events.push(changed(descriptorUri(metadata, latest.descriptor)));
          const previous = reader?.lookup(refDescriptorId(refId, latest.versions - 1));
          if (latest.versions > 1 && previous) events.push(created(descriptorUri(metadata, previous)));
        }
        return events;
      }
    }
  }

  private queue(events: vscode.FileChangeEvent[]): void {
    this.pending.push(...events);
    this.scheduleFlush();
  }

  private scheduleFlush(): void {
    if (this.flushTimer !== undefined || this.isDisposed) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = undefined;
      const events = this.pending;
      this.pending = [];
      if (events.length > 0) this.changeEmitter.fire(events);
    }, BATCH_DELAY_MS);
  }
}

function directory(time: number): vscode.FileStat {
  return { type: vscode.FileType.Directory, ctime: time, mtime: time, size: 0 };
}

function readOnly(uri: vscode.Uri): vscode.FileSystemError {
  return vscode.FileSystemError.NoPermissions(
    `${uri.toString()} is read-only: FD Refs files show stored refs and descriptors.`,
  );
}

/** The files of one area of a session, in a stable order: refs as created, each followed by its earlier versions. */
function fileNames(session: SessionReader, area: 'refs' | 'fds'): string[] {
  if (area === 'fds') return session.descriptors().map((d) => descriptorFileName(d.id, undefined) as string);
  const names: string[] = [];
  for (const { descriptor, versions } of session.refs()) {
    names.push(descriptorFileName(descriptor.id, descriptor.language) as string);
    for (let version = 1; version < versions; version++) {
      const earlier = session.lookup(refDescriptorId(descriptorIdBody(descriptor.id), version));
      if (earlier) names.push(descriptorFileName(earlier.id, earlier.language) as string);
    }
  }
  return names;
}
