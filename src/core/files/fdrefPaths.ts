import {
  descriptorIdBody,
  descriptorKindOf,
  isDescriptorId,
  isEntityId,
  parseDescriptorId,
  prefixedDescriptorId,
} from '../ids';
import { languageInfo } from './languages';

/**
 * The layout of the `fdref:` file system, as plain path strings:
 *
 *     /<session name> (<session id>)/refs/<ref id>.<ext>       latest version of a ref
 *     /<session name> (<session id>)/refs/<ref id>@<n>.<ext>   an earlier version
 *     /<session name> (<session id>)/fds/fd-<N>.txt            a descriptor
 *     /entities/<entity id>.json                                 a Structs entity with its references
 *
 * A session folder is found by the id in its name, so a document stays open across a rename.
 */
export type FdrefPath =
  | { readonly kind: 'root' }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'area'; readonly sessionId: string; readonly area: FdrefArea }
  | { readonly kind: 'file'; readonly sessionId: string; readonly area: FdrefArea; readonly fileName: string }
  | { readonly kind: 'entity'; readonly entityId: string };

/** The folder of entity documents; no session folder can have this name, as theirs end with `(<id>)`. */
export const ENTITIES_FOLDER = 'entities';

export type FdrefArea = 'refs' | 'fds';

export const FDREF_AREAS: readonly FdrefArea[] = ['refs', 'fds'];

/** Session ids are short lowercase hex or word characters; they name files on disk, so nothing else is allowed. */
export const SESSION_ID = /^[a-z0-9][a-z0-9_-]{0,63}$/;

const FOLDER = /^(?:.*) \(([a-z0-9][a-z0-9_-]{0,63})\)$|^\(([a-z0-9][a-z0-9_-]{0,63})\)$/s;
const MAX_NAME = 60;

/** A readable folder name for a session: its name (made safe for any file system) and its id in parentheses. */
export function sessionFolderName(name: string, id: string): string {
  const safe = name
    .replace(/[\u0000-\u001f\u007f/\\:*?"<>|]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, MAX_NAME)
    .trim();
  return safe === '' ? `(${id})` : `${safe} (${id})`;
}

/** The session id a folder name carries, or undefined when it is not a session folder name. */
export function sessionIdOfFolder(folder: string): string | undefined {
  const match = FOLDER.exec(folder);
  return match?.[1] ?? match?.[2];
}

/**
 * The file name of a descriptor: `x.py` for `ref:x` (extension from its language), `x@2.py` for
 * `ref:x@2`, `fd-3.txt` for `fd:3`. Undefined for anything that is not a descriptor id.
 */
export function descriptorFileName(descriptorId: string, language: string | undefined): string | undefined {
  const parts = parseDescriptorId(descriptorId);
  if (parts === undefined) return undefined;
  // The id's own text after the prefix, not the parsed numbers, so the name maps back exactly.
  if (parts.kind === 'fd') return `fd-${descriptorIdBody(descriptorId)}.txt`;
  return `${descriptorIdBody(descriptorId)}.${languageInfo(language).extension}`;
}

/** The area (`refs/` or `fds/`) a descriptor's file lives in. */
export function areaOf(descriptorId: string): FdrefArea {
  return descriptorKindOf(descriptorId) === 'fd' ? 'fds' : 'refs';
}

/**
 * The descriptor id a file name stands for, without checking that it exists: `x@2.py` -> `ref:x@2`,
 * `fd-3.txt` -> `fd:3`. Callers compare `descriptorFileName` of the found descriptor with the name,
 * so a wrong extension is not found.
 */
export function descriptorIdOfFileName(area: FdrefArea, fileName: string): string | undefined {
  let id: string;
  if (area === 'fds') {
    if (!fileName.startsWith('fd-') || !fileName.endsWith('.txt')) return undefined;
    id = prefixedDescriptorId('fd', fileName.slice('fd-'.length, -'.txt'.length));
  } else {
    const dot = fileName.lastIndexOf('.');
    if (dot <= 0) return undefined;
    id = prefixedDescriptorId('ref', fileName.slice(0, dot));
  }
  return isDescriptorId(id) ? id : undefined;
}

/** Builds the path of a location; the session's name is needed for its folder. */
export function formatFdrefPath(location: FdrefPath, sessionName: string): string {
  if (location.kind === 'root') return '/';
  if (location.kind === 'entity') return `/${ENTITIES_FOLDER}/${location.entityId}.json`;
  const folder = `/${sessionFolderName(sessionName, location.sessionId)}`;
  if (location.kind === 'session') return folder;
  if (location.kind === 'area') return `${folder}/${location.area}`;
  return `${folder}/${location.area}/${location.fileName}`;
}

/** Parses a path of the `fdref:` file system; undefined when it cannot name anything there. */
export function parseFdrefPath(path: string): FdrefPath | undefined {
  const parts = path.split('/').filter((part) => part !== '');
  if (parts.length === 0) return { kind: 'root' };
  if (parts[0] === ENTITIES_FOLDER) {
    const name = parts.length === 2 ? (parts[1] as string) : '';
    const entityId = name.endsWith('.json') ? name.slice(0, -'.json'.length) : '';
    return isEntityId(entityId) ? { kind: 'entity', entityId } : undefined;
  }
  const sessionId = sessionIdOfFolder(parts[0] as string);
  if (sessionId === undefined || parts.length > 3) return undefined;
  if (parts.length === 1) return { kind: 'session', sessionId };
  const area = parts[1] as string;
  if (area !== 'refs' && area !== 'fds') return undefined;
  if (parts.length === 2) return { kind: 'area', sessionId, area };
  return { kind: 'file', sessionId, area, fileName: parts[2] as string };
}

/** A file name to suggest when exporting a ref: `parse_config.py` for ref `parse_config` in Python. */
export function suggestedFileName(refId: string, language: string | undefined): string {
  const bare = refId.replace(/^ref:/, '').replace(/@[0-9]+$/, '');
  const extension = languageInfo(language).extension;
  const known = bare.toLowerCase().endsWith(`.${extension}`);
  return known ? bare : `${bare}.${extension}`;
}
