/**
 * Reading a workspace file a model named (`diff_fd`'s side): the same confinement as the writes (`..` and symbolic
 * links may not lead out of the workspace folders), only text, and only up to a size.
 */
import { errorMessage } from '../errors';
import { clipInput } from '../quoteInput';
import { ToolError } from '../toolError';
import type { FileSystemPort } from './fileSystemPort';
import { resolveWorkspaceTarget } from './workspacePath';

/** A workspace file's text, and how messages name it. */
export interface WorkspaceText {
  /** Relative to its workspace folder (see `displayPath`). */
  readonly shown: string;
  /** The real path read. */
  readonly path: string;
  readonly text: string;
}

/** How much of a file's start is looked at for a NUL byte, the sign of a binary file (as git and grep do). */
const BINARY_SNIFF_BYTES = 8_000;

/**
 * The UTF-8 text of the file `requested` names (relative to the first root, or absolute), proven inside one of
 * `roots` after links are followed. A `ToolError` naming `label` when no folder is open, it lies outside them
 * (`outside_workspace`), is missing (`file_not_found`), is not a file, holds more than `maxBytes` or looks binary.
 */
export async function readWorkspaceText(
  requested: string,
  roots: readonly string[],
  fileSystem: FileSystemPort,
  maxBytes: number,
  label: string,
): Promise<WorkspaceText> {
  if (roots.length === 0) {
    throw new ToolError(
      'outside_workspace',
      `${clipInput(requested, 200)} is not a descriptor id (fd:N, ref:name) and no workspace folder is open to read it from.`,
      label,
    );
  }
  const { target, shown } = await resolveWorkspaceTarget(requested, roots, fileSystem);
  const found = await fileSystem.stat(target);
  if (found === undefined) {
    throw new ToolError(
      'file_not_found',
      `${shown} does not exist in the workspace (and is not a descriptor id: those look like fd:3 or ref:name).`,
      label,
    );
  }
  if (found.type !== 'file') throw new ToolError('invalid_argument', `${shown} is not a file.`, label);
  if (found.size > maxBytes) {
    throw new ToolError(
      'invalid_argument',
      `${shown} is ${found.size.toLocaleString('en-US')} bytes, more than the ${maxBytes.toLocaleString('en-US')} that can be read here.`,
      label,
    );
  }
  let bytes: Uint8Array;
  try {
    bytes = await fileSystem.readFile(target);
  } catch (error) {
    throw new ToolError('read_error', `${shown} cannot be read: ${clipInput(errorMessage(error), 300)}`, label);
  }
  if (bytes.length > maxBytes)
    throw new ToolError('invalid_argument', `${shown} grew past ${maxBytes} bytes while it was read.`, label);
  if (bytes.subarray(0, BINARY_SNIFF_BYTES).includes(0))
    throw new ToolError('invalid_argument', `${shown} looks like a binary file (it holds NUL bytes), not text.`, label);
  return { shown, path: target, text: new TextDecoder().decode(bytes) };
}
