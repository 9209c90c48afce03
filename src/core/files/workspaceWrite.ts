import * as path from 'node:path';
import { ToolError } from '../toolError';
import { expectFolderAt, fileOnTheWay, openTargetFolder, reason, replaceInFolder } from './confinedFolder';
import type { EntryStat, FileSystemPort, OpenFolder } from './fileSystemPort';
import { errorCode } from '../errors';
import { isInside, linkLoop, resolveWorkspaceTarget, shownInWorkspace, type WorkspaceTarget } from './workspacePath';
import { acquireWriteLock, LOCK_WAIT_MS, serialised } from './writeLock';
import { appendSeparator, concat, insertBeforeLine } from './textEdit';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export type WriteMode = 'write' | 'append' | 'insert';

/** One write of text into a workspace file, as `fd_to_file` and the extension's commands ask for it. */
export interface WorkspaceWriteRequest {
  /** Absolute, or relative to the first root. */
  readonly filePath: string;
  readonly text: string;
  readonly mode: WriteMode;
  /** 1-based line to insert before (mode `insert` only). */
  readonly line?: number | undefined;
  /** Whether a missing file may be created (default true). */
  readonly create?: boolean | undefined;
  /** Whether an existing file may be written to (default true). */
  readonly existOk?: boolean | undefined;
  readonly roots: readonly string[];
  /** The roots' names as the editor shows them, for messages (default: the last segment of each root). */
  readonly rootNames?: readonly string[] | undefined;
  readonly fileSystem: FileSystemPort;
  /** Names what is written in messages and errors, e.g. `ref:x`. */
  readonly label: string;
  /** How long to wait while another writer (another process) holds the file, in ms (default `LOCK_WAIT_MS`). */
  readonly lockWaitMs?: number | undefined;
}

export interface WorkspaceWriteResult {
  /** The absolute path written. */
  readonly target: string;
  readonly mode: WriteMode;
  /** Whether a file was there before. */
  readonly existed: boolean;
  /** UTF-8 bytes of the text written (not of the whole file). */
  readonly textBytes: number;
  /** The path written as messages name it: relative to its workspace folder (see `displayPath`). */
  readonly shown: string;
  /** A sentence saying what happened. */
  readonly message: string;
}

/**
 * Writes, appends or inserts `text` in a file inside the workspace roots (also after following symbolic
 * links). Every check happens before anything is written; the file is written to a temporary file beside
 * it and renamed over it, so a failure never leaves a half-written file. Writes to one file are serialised,
 * in this process and (through a lock file beside it) across processes, so that none undoes another. The
 * folders on the way are opened one level at a time without following links and checked again around the
 * rename, so a folder swapped for a link meanwhile cannot send anything outside the workspace. A file this
 * user may not write is refused. Throws `ToolError` otherwise.
 */
export async function writeWorkspaceFile(request: WorkspaceWriteRequest): Promise<WorkspaceWriteResult> {
  const { mode, label } = request;
  if (mode === 'insert' && request.line === undefined) {
    throw new ToolError('invalid_argument', 'mode "insert" needs `line`: the 1-based line to insert before.', label);
  }
  if (mode !== 'insert' && request.line !== undefined) {
    throw new ToolError('invalid_argument', '`line` is only used with mode "insert".', label);
  }
  checkFileName(request.filePath, label);
  const resolved = await resolveWorkspaceTarget(request.filePath, request.roots, request.fileSystem, request.rootNames);
  return serialised(resolved.target, () => writeResolved(request, resolved));
}

/** What `checkWorkspaceWrite` found: where the write would go, and whether a file is there. */
export interface WriteCheck {
  readonly target: string;
  readonly shown: string;
  readonly exists: boolean;
}

/**
 * Checks, without writing or creating anything, what `writeWorkspaceFile` would refuse before it reads the file:
 * the name, the workspace confinement (links followed), a folder, and what `create`/`existOk` forbid for what is
 * there. Throws the same `ToolError`s. A few file system calls, as many as the path has missing folders.
 */
export async function checkWorkspaceWrite(
  request: Pick<
    WorkspaceWriteRequest,
    'filePath' | 'roots' | 'rootNames' | 'fileSystem' | 'create' | 'existOk' | 'label'
  >,
): Promise<WriteCheck> {
  const { label } = request;
  checkFileName(request.filePath, label);
  const resolved = await resolveWorkspaceTarget(request.filePath, request.roots, request.fileSystem, request.rootNames);
  const { target, root, shown } = resolved;
  if (target === root) throw workspaceFolderItself(request.filePath, label);
  if (resolved.existing !== target && (await request.fileSystem.stat(resolved.existing))?.type !== 'directory')
    throw fileOnTheWay(resolved, resolved.existing, label);
  const entry = await request.fileSystem.lstat(target).catch(() => undefined);
  const existing = entry?.type === 'symlink' ? undefined : entry;
  checkTarget(request, shown, existing);
  if (existing !== undefined && !(await request.fileSystem.canWrite(target)))
    throw readOnly(shown, existing.mode, label);
  return { target, shown, exists: existing !== undefined };
}

function workspaceFolderItself(requested: string, label: string): ToolError {
  const what = requested.trim() === '' ? 'An empty path' : requested;
  return new ToolError(
    'invalid_argument',
    `${what} names the workspace folder itself; give a file path inside it.`,
    label,
  );
}

/** The longest name of one file or folder most file systems take, in UTF-8 bytes. */
const MAX_NAME_BYTES = 255;

/** Refuses a path that cannot name a file: one ending in a separator, or with a name too long for the disk. */
function checkFileName(requested: string, label: string): void {
  if (/[\\/]$/.test(requested)) {
    throw new ToolError(
      'invalid_argument',
      `${requested} ends with a slash, so it names a folder; add a file name.`,
      label,
    );
  }
  const tooLong = requested.split(/[\\/]/).find((name) => encoder.encode(name).length > MAX_NAME_BYTES);
  if (tooLong !== undefined) {
    throw new ToolError(
      'invalid_argument',
      `A name in the path is ${encoder.encode(tooLong).length} bytes long; file names can be at most ${MAX_NAME_BYTES}.`,
      label,
    );
  }
}

async function writeResolved(request: WorkspaceWriteRequest, resolved: WorkspaceTarget): Promise<WorkspaceWriteResult> {
  const { fileSystem: fs, label } = request;
  const { target, root, shown } = resolved;
  const folderPath = path.dirname(target);
  if (target === root || !isInside(folderPath, root)) throw workspaceFolderItself(request.filePath, label);
  // Folders are created only for a file that does not exist yet: refuse what would be refused before making any.
  const folder = await openTargetFolder(fs, resolved, label, () => {
    checkTarget(request, shown, undefined);
    compose(request, shown, new Uint8Array(0));
  });
  try {
    await expectFolderAt(folder, folderPath, target, label);
    const lock = await acquireWriteLock({
      fileSystem: fs,
      folder: folder.path,
      target,
      waitMs: request.lockWaitMs ?? LOCK_WAIT_MS,
      label,
    });
    try {
      await expectFolderAt(folder, folderPath, target, label); // without folder descriptors, the lock may have gone through a link
      return await writeLocked(request, folder, resolved);
    } finally {
      await lock.release();
    }
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      'write_error',
      `Could not write ${shown}: ${reason(error, folder, folderPath)}. The file was left as it was.`,
      label,
    );
  } finally {
    await folder.close();
  }
}

/** The write itself, holding the file's lock in its open folder. */
async function writeLocked(
  request: WorkspaceWriteRequest,
  folder: OpenFolder,
  resolved: WorkspaceTarget,
): Promise<WorkspaceWriteResult> {
  const { fileSystem: fs, label, mode } = request;
  const { target, shown } = resolved;
  const file = path.join(folder.path, path.basename(target));
  const entry = await fs.lstat(file);
  // A link here led nowhere when the path was resolved (else the target would be where it leads): like a
  // missing file it is replaced, never followed; unless it has become a loop since, which the user must see.
  if (entry?.type === 'symlink' && (await loops(fs, file))) throw linkLoop(shown, label);
  const existing = entry?.type === 'symlink' ? undefined : entry;
  checkTarget(request, shown, existing);
  if (existing !== undefined && !(await fs.canWrite(file))) throw readOnly(shown, existing.mode, label);
  const old =
    existing !== undefined && mode !== 'write'
      ? await readExisting(fs, folder, target, shown, label)
      : new Uint8Array(0);
  const { bytes, message, textBytes } = compose(request, shown, old, existing !== undefined);
  const landed = await replaceInFolder(fs, folder, resolved, bytes, existing?.mode, existing !== undefined, label);
  const landedShown = landed === target ? shown : shownInWorkspace(resolved, landed);
  const moved = landed === target ? '' : ` Its folder was moved meanwhile; the file is now ${landedShown}.`;
  return {
    target: landed,
    shown: landedShown,
    mode,
    existed: existing !== undefined,
    textBytes,
    message: message + moved,
  };
}

/** Whether following the link at `file` ends in a loop (or too many links). */
async function loops(fs: FileSystemPort, file: string): Promise<boolean> {
  return fs.stat(file).then(
    () => false,
    (error: unknown) => errorCode(error) === 'ELOOP',
  );
}

/**
 * Refuses what the request does not allow for what is at the target (`undefined`: nothing, or a dangling link);
 * `target` is the path as messages name it.
 */
function checkTarget(
  request: Pick<WorkspaceWriteRequest, 'create' | 'existOk' | 'label'>,
  target: string,
  existing: EntryStat | undefined,
): void {
  const { label } = request;
  if (existing?.type === 'directory') {
    throw new ToolError('invalid_argument', `${target} is a folder; give a file path inside it.`, label);
  }
  if (existing?.type === 'other') {
    throw new ToolError('write_error', `${target} is not a regular file.`, label);
  }
  if (existing === undefined && request.create === false) {
    throw new ToolError('file_not_found', `${target} does not exist and create is false.`, label);
  }
  if (existing !== undefined && request.existOk === false) {
    throw new ToolError('file_exists', `${target} already exists and exist_ok is false.`, label);
  }
}

/** The bytes to write over a file that holds `old`, and a sentence saying what they are. */
function compose(
  request: WorkspaceWriteRequest,
  target: string,
  old: Uint8Array,
  existed = false,
): { bytes: Uint8Array; message: string; textBytes: number } {
  const { label, mode, text } = request;
  const textBytes = encoder.encode(text);
  switch (mode) {
    case 'write':
      return {
        bytes: textBytes,
        textBytes: textBytes.length,
        message: `Wrote ${label} (${text.length} characters) to ${target}${existed ? ', replacing the file that was there' : ''}.`,
      };
    case 'append': {
      const separator = appendSeparator(old);
      return {
        bytes: concat(old, encoder.encode(separator), textBytes),
        textBytes: textBytes.length,
        message:
          `Appended ${label} (${text.length} characters) to ${target}` +
          (separator.length > 0 ? ', after adding a line break because the file did not end with one.' : '.'),
      };
    }
    case 'insert': {
      const line = request.line as number;
      return {
        bytes: encoder.encode(insertBeforeLine(decode(old, target, label), text, line, label)),
        textBytes: textBytes.length,
        message: `Inserted ${label} (${text.length} characters) before line ${line} of ${target}.`,
      };
    }
  }
}

async function readExisting(
  fs: FileSystemPort,
  folder: OpenFolder,
  target: string,
  shown: string,
  label: string,
): Promise<Uint8Array> {
  try {
    return await fs.readFile(path.join(folder.path, path.basename(target)));
  } catch (error) {
    throw new ToolError('read_error', `Cannot read ${shown}: ${reason(error, folder, path.dirname(target))}`, label);
  }
}

function decode(bytes: Uint8Array, target: string, label: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new ToolError(
      'write_error',
      `${target} is not UTF-8 text, so lines cannot be found in it; nothing was written.`,
      label,
    );
  }
}

/** The error for a file the user cannot write: it is never replaced, whatever the mode. */
export function readOnly(target: string, mode: number, label: string | undefined): ToolError {
  return new ToolError(
    'permission_denied',
    `${target} is read-only (mode ${mode.toString(8).padStart(4, '0')}), so nothing was written. Make it writable first if it should change.`,
    label,
  );
}
