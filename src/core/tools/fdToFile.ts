import * as path from 'node:path';
import { Content } from '../descriptors/content';
import type { FileSystemPort } from '../files/fileSystemPort';
import { resolveWorkspacePath } from '../files/workspacePath';
import { parentElement, textElement } from '../xml';
import type { FdToFileInput } from './schemas';
import { requireDescriptor, type ToolContext } from './toolContext';
import { ToolError } from './toolError';

const encoder = new TextEncoder();
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * `fd_to_file`: writes a descriptor to a workspace file (write, append or insert before a line).
 * Every write goes to a temporary file beside the target and is renamed over it, so a failure
 * never leaves a half-written file; every check happens before anything is written.
 */
export async function fdToFile(context: ToolContext, input: FdToFileInput): Promise<string> {
  const descriptor = requireDescriptor(context, input.fd);
  const mode = input.mode ?? 'write';
  if (mode === 'insert' && input.line === undefined) {
    throw new ToolError('invalid_argument', 'mode "insert" needs `line`: the 1-based line to insert before.', descriptor.id);
  }
  if (mode !== 'insert' && input.line !== undefined) {
    throw new ToolError('invalid_argument', '`line` is only used with mode "insert".', descriptor.id);
  }
  const target = await resolveWorkspacePath(input.file_path, context.workspaceRoots, context.fileSystem);
  const fs = context.fileSystem;
  const existing = await fs.stat(target).catch((error: unknown) => {
    throw new ToolError('write_error', `Cannot inspect ${target}: ${reason(error)}`, descriptor.id);
  });
  if (existing?.type === 'directory') {
    throw new ToolError('invalid_argument', `${target} is a folder; give a file path inside it.`, descriptor.id);
  }
  if (existing?.type === 'other') {
    throw new ToolError('write_error', `${target} is not a regular file.`, descriptor.id);
  }
  if (existing === undefined && input.create === false) {
    throw new ToolError('file_not_found', `${target} does not exist and create is false.`, descriptor.id);
  }
  if (existing !== undefined && input.exist_ok === false) {
    throw new ToolError('file_exists', `${target} already exists and exist_ok is false.`, descriptor.id);
  }

  const text = descriptor.content.text;
  const contentBytes = encoder.encode(text);
  const old = existing === undefined ? new Uint8Array(0) : await readExisting(fs, target, descriptor.id);
  let bytes: Uint8Array;
  let message: string;
  switch (mode) {
    case 'write':
      bytes = contentBytes;
      message = `Wrote ${descriptor.id} (${text.length} characters) to ${target}${existing ? ', replacing the file that was there' : ''}.`;
      break;
    case 'append': {
      const separator = old.length > 0 && old[old.length - 1] !== 10 ? encoder.encode(eolOf(tail(old))) : new Uint8Array(0);
      bytes = concat(old, separator, contentBytes);
      message =
        `Appended ${descriptor.id} (${text.length} characters) to ${target}` +
        (separator.length > 0 ? ', after adding a line break because the file did not end with one.' : '.');
      break;
    }
    case 'insert': {
      const line = input.line as number;
      bytes = encoder.encode(insertBeforeLine(decode(old, target, descriptor.id), text, line, descriptor.id));
      message = `Inserted ${descriptor.id} (${text.length} characters) before line ${line} of ${target}.`;
      break;
    }
  }
  await writeAtomically(fs, target, bytes, descriptor.id);
  return parentElement(
    'fd_file_result',
    {
      fd: descriptor.id,
      file_path: target,
      mode,
      char_count: text.length,
      size_bytes: contentBytes.length,
      success: 'true',
    },
    [textElement('message', {}, message)],
  );
}

/** Puts `insert` before 1-based `line` of `text`; `total lines + 1` appends. Existing lines stay whole. */
export function insertBeforeLine(text: string, insert: string, line: number, fd?: string): string {
  const lines = new Content(text);
  const valid = lines.totalLines + 1;
  if (line < 1 || line > valid) {
    throw new ToolError(
      'invalid_range',
      `Line ${line} is outside the file: it has ${lines.totalLines} lines, so line must be ${valid === 1 ? '1' : `1-${valid}`}.`,
      fd,
    );
  }
  if (insert.length === 0) return text;
  const eol = eolOf(text);
  if (line <= lines.totalLines) {
    const at = lines.lineStart(line);
    const piece = insert.endsWith('\n') ? insert : insert + eol;
    return text.slice(0, at) + piece + text.slice(at);
  }
  const before = text.length > 0 && !text.endsWith('\n') ? eol : '';
  return text + before + insert;
}

async function readExisting(fs: FileSystemPort, target: string, fd: string): Promise<Uint8Array> {
  try {
    return await fs.readFile(target);
  } catch (error) {
    throw new ToolError('write_error', `Cannot read ${target}: ${reason(error)}`, fd);
  }
}

function decode(bytes: Uint8Array, target: string, fd: string): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new ToolError('write_error', `${target} is not UTF-8 text, so lines cannot be found in it; nothing was written.`, fd);
  }
}

async function writeAtomically(fs: FileSystemPort, target: string, bytes: Uint8Array, fd: string): Promise<void> {
  const folder = path.dirname(target);
  const temp = path.join(folder, `.${path.basename(target)}.fdref-${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}.tmp`);
  try {
    await fs.mkdir(folder);
    await fs.writeFile(temp, bytes);
    await fs.rename(temp, target);
  } catch (error) {
    await fs.remove(temp).catch(() => undefined);
    throw new ToolError('write_error', `Could not write ${target}: ${reason(error)}. The file was left as it was.`, fd);
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
