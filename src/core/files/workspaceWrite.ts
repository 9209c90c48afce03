import * as path from 'node:path';
import { Content } from '../descriptors/content';
import { ToolError } from '../tools/toolError';
import type { FileSystemPort } from './fileSystemPort';
import { resolveWorkspacePath } from './workspacePath';

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
  readonly fileSystem: FileSystemPort;
  /** Names what is written in messages and errors, e.g. `ref:x`. */
  readonly label: string;
}

export interface WorkspaceWriteResult {
  /** The absolute path written. */
  readonly target: string;
  readonly mode: WriteMode;
  /** Whether a file was there before. */
  readonly existed: boolean;
  /** UTF-8 bytes of the text written (not of the whole file). */
  readonly textBytes: number;
  /** A sentence saying what happened. */
  readonly message: string;
}

/**
 * Writes, appends or inserts `text` in a file inside the workspace roots (also after following symbolic
 * links). Every check happens before anything is written; the file is written to a temporary file beside
 * it and renamed over it, so a failure never leaves a half-written file. Throws `ToolError` otherwise.
 */
export async function writeWorkspaceFile(request: WorkspaceWriteRequest): Promise<WorkspaceWriteResult> {
  const { mode, label, text } = request;
  if (mode === 'insert' && request.line === undefined) {
    throw new ToolError('invalid_argument', 'mode "insert" needs `line`: the 1-based line to insert before.', label);
  }
  if (mode !== 'insert' && request.line !== undefined) {
    throw new ToolError('invalid_argument', '`line` is only used with mode "insert".', label);
  }
  const target = await resolveWorkspacePath(request.filePath, request.roots, request.fileSystem);
  const fs = request.fileSystem;
  const existing = await fs.stat(target).catch((error: unknown) => {
    throw new ToolError('write_error', `Cannot inspect ${target}: ${reason(error)}`, label);
  });
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

  const textBytes = encoder.encode(text);
  const old = existing === undefined ? new Uint8Array(0) : await readExisting(fs, target, label);
  let bytes: Uint8Array;
  let message: string;
  switch (mode) {
    case 'write':
      bytes = textBytes;
      message = `Wrote ${label} (${text.length} characters) to ${target}${existing ? ', replacing the file that was there' : ''}.`;
      break;
    case 'append': {
      const separator = appendSeparator(old);
      bytes = concat(old, encoder.encode(separator), textBytes);
      message =
        `Appended ${label} (${text.length} characters) to ${target}` +
        (separator.length > 0 ? ', after adding a line break because the file did not end with one.' : '.');
      break;
    }
    case 'insert': {
      const line = request.line as number;
      bytes = encoder.encode(insertBeforeLine(decode(old, target, label), text, line, label));
      message = `Inserted ${label} (${text.length} characters) before line ${line} of ${target}.`;
      break;
    }
  }
  await writeAtomically(fs, target, bytes, label, existing !== undefined);
  return { target, mode, existed: existing !== undefined, textBytes: textBytes.length, message };
}

/** Puts `insert` before 1-based `line` of `text`; `total lines + 1` appends. Existing lines stay whole. */
export function insertBeforeLine(text: string, insert: string, line: number, fd?: string): string {
  const lines = new Content(text);
  const valid = lines.totalLines + 1;
  if (!Number.isInteger(line) || line < 1 || line > valid) {
    throw new ToolError(
      'invalid_range',
      `Line ${line} is outside the file: it has ${lines.totalLines} lines, so line must be ${valid === 1 ? '1' : `1-${valid}`}.`,
      fd,
    );
  }
  if (insert.length === 0) return text;
  const eol = eolOf(text);
  if (line <= lines.totalLines) {
    // A byte order mark stays first: line 1 starts after it.
    const at = line === 1 && text.charCodeAt(0) === 0xfeff ? 1 : lines.lineStart(line);
    const piece = insert.endsWith('\n') ? insert : insert + eol;
    return text.slice(0, at) + piece + text.slice(at);
  }
  const before = text.length > 0 && !text.endsWith('\n') ? eol : '';
  return text + before + insert;
}

/** The line break to put before appended text: none when the file is empty or ends with `\n`, else its own EOL style. */
export function appendSeparator(existing: Uint8Array): string {
  if (existing.length === 0 || existing[existing.length - 1] === 10) return '';
  return eolOf(tail(existing));
}

async function readExisting(fs: FileSystemPort, target: string, label: string): Promise<Uint8Array> {
  try {
    return await fs.readFile(target);
  } catch (error) {
    throw new ToolError('write_error', `Cannot read ${target}: ${reason(error)}`, label);
  }
}

function decode(bytes: Uint8Array, target: string, label: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new ToolError('write_error', `${target} is not UTF-8 text, so lines cannot be found in it; nothing was written.`, label);
  }
}

async function writeAtomically(fs: FileSystemPort, target: string, bytes: Uint8Array, label: string, existed: boolean): Promise<void> {
  const folder = path.dirname(target);
  const temp = path.join(folder, `.${path.basename(target)}.fdref-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await fs.mkdir(folder);
    await fs.writeFile(temp, bytes);
    if (existed && fs.copyMode) await fs.copyMode(target, temp);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.remove(temp).catch(() => undefined);
    throw new ToolError('write_error', `Could not write ${target}: ${reason(error)}. The file was left as it was.`, label);
  }
}

/** `\r\n` when the text already uses it, else `\n`. */
function eolOf(text: string): string {
  return text.includes('\r\n') ? '\r\n' : '\n';
}

function tail(bytes: Uint8Array): string {
  return new TextDecoder().decode(bytes.subarray(Math.max(0, bytes.length - 4096)));
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

function reason(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
