import * as vscode from 'vscode';
import type { Descriptor } from '../core';
import { areaOf, descriptorFileName, formatFdrefPath, parseFdrefPath, type FdrefPath } from '../core/files/fdrefPaths';
import type { SessionMetadata } from '../core/session/sessionRecord';

/** The one scheme of fdref's virtual files; URIs of it are built and read only in this file. */
export const FDREF_SCHEME = 'fdref';

/** `fdref:/`, the folder holding every session. */
export const FDREF_ROOT = vscode.Uri.from({ scheme: FDREF_SCHEME, path: '/' });

/** The URI of a location; its session's name (when it has one) makes the folder name readable. */
export function toFdrefUri(location: FdrefPath, session?: Pick<SessionMetadata, 'name'>): vscode.Uri {
  return vscode.Uri.from({ scheme: FDREF_SCHEME, path: formatFdrefPath(location, session?.name ?? '') });
}

/** The URI of a descriptor's file: `fdref:/<session>/refs/x.py`, `fdref:/<session>/fds/fd-3.txt`. */
export function descriptorUri(
  session: Pick<SessionMetadata, 'id' | 'name'>,
  descriptor: Pick<Descriptor, 'id' | 'language'>,
): vscode.Uri {
  const fileName = descriptorFileName(descriptor.id, descriptor.language) as string;
  return toFdrefUri({ kind: 'file', sessionId: session.id, area: areaOf(descriptor.id), fileName }, session);
}

/** `fdref:/entities/<id>.json`: the entity as the API returns it, with its `references` section. */
export function entityUri(id: string): vscode.Uri {
  return toFdrefUri({ kind: 'entity', entityId: id });
}

/** What an `fdref:` URI points at; undefined for other schemes and for paths that cannot exist. */
export function fromFdrefUri(uri: vscode.Uri): FdrefPath | undefined {
  return uri.scheme === FDREF_SCHEME ? parseFdrefPath(uri.path) : undefined;
}
