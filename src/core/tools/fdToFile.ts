import { constants } from 'node:buffer';
import { errorMessage } from '../errors';
import { clipInput } from '../quoteInput';
import { checkWorkspaceWrite, writeWorkspaceFile } from '../files/workspaceWrite';
import { parentElement, textElement } from '../xml';
import { describeIssues, fdToFileInput, parseToolArguments, type FdToFileInput } from './schemas';
import { ToolError } from '../toolError';
import { requireDescriptor, type ToolContext, type ToolDescriptor, type ToolSession } from './toolContext';
import { readingSession, schemaFor } from './sessionArgument';
import { type FinishedCall, type HeadlinePart, number, plural } from './headline';
import { defineTool, type WritePreview } from './toolRecord';

/**
 * Why `fd_to_file` is refused in Restricted Mode, as every surface says it (the chat, VS Code's language model
 * tools): what it would write is text a model or a tool produced, and the workspace is not trusted.
 */
export function untrustedWriteError(): ToolError {
  return new ToolError(
    'permission_denied',
    'fd_to_file is not available in Restricted Mode: this workspace is not trusted, so files cannot be written ' +
      '(what would be written is text a model or a tool produced). Do not try again; show the content in your ' +
      'answer instead. The user can trust the workspace (Manage Workspace Trust) to allow writes.',
  );
}

/**
 * `fd_to_file`: writes a descriptor to a workspace file (write, append or insert before a line).
 * The rules (workspace check, atomic write, line breaks) live in `writeWorkspaceFile`, which the
 * extension's export, append and insert commands share.
 */
export async function fdToFile(context: ToolContext, input: FdToFileInput, source: ToolSession): Promise<string> {
  const descriptor = await requireDescriptor(source, input.fd);
  const text = await wholeText(descriptor);
  const result = await writeWorkspaceFile({
    filePath: input.file_path,
    text,
    mode: input.mode ?? 'write',
    line: input.line,
    create: input.create,
    existOk: input.exist_ok,
    roots: context.workspaceRoots,
    fileSystem: context.fileSystem,
    label: descriptor.id,
  });
  return parentElement(
    'fd_file_result',
    {
      fd: descriptor.id,
      file_path: result.target,
      mode: result.mode,
      char_count: text.length,
      size_bytes: result.textBytes,
      success: 'true',
    },
    [textElement('message', {}, result.message)],
  );
}

export type { WritePreview } from './toolRecord';

/**
 * Checks an `fd_to_file` call as far as possible without writing: the arguments, the descriptor, the
 * workspace confinement and whether the file exists. Throws `ToolError` for what would fail; the write
 * itself checks everything again.
 */
export async function previewFdToFile(context: ToolContext, args: unknown): Promise<WritePreview> {
  const parsed = parseToolArguments(schemaFor(fdToFileInput, context), args);
  if (!parsed.success) throw new ToolError('invalid_argument', `fd_to_file: ${describeIssues(parsed.error)}.`);
  const input = parsed.data as FdToFileInput & { session?: string };
  const descriptor = await requireDescriptor(await readingSession(context, input), input.fd);
  const mode = input.mode ?? 'write';
  if (mode === 'insert' && input.line === undefined) {
    throw new ToolError(
      'invalid_argument',
      'mode "insert" needs `line`: the 1-based line to insert before.',
      descriptor.id,
    );
  }
  // What the write would refuse is refused before the user is asked: the same check, by the same rule.
  const { target, exists } = await checkWorkspaceWrite({
    filePath: input.file_path,
    roots: context.workspaceRoots,
    fileSystem: context.fileSystem,
    create: input.create,
    existOk: input.exist_ok,
    label: descriptor.id,
  });
  const text = await wholeText(descriptor);
  return {
    kind: 'write',
    source: descriptor.id,
    target,
    mode,
    ...(input.line === undefined ? {} : { line: input.line }),
    chars: text.length,
    bytes: new TextEncoder().encode(text).length,
    fileExists: exists,
  };
}

/**
 * A descriptor's whole text, to write. A `read_error` naming it when its record claims more characters than one
 * string holds (a damaged record), or when its stored content cannot be read.
 */
async function wholeText(descriptor: ToolDescriptor): Promise<string> {
  const { length } = descriptor.content;
  if (length > constants.MAX_STRING_LENGTH) {
    throw new ToolError(
      'read_error',
      `${descriptor.id} is ${length.toLocaleString('en-US')} characters by its record, more than can be written at ` +
        `once (${constants.MAX_STRING_LENGTH.toLocaleString('en-US')}); its record may be damaged.`,
      descriptor.id,
    );
  }
  try {
    return await descriptor.content.slice(0, length);
  } catch (error) {
    if (error instanceof ToolError) throw error;
    throw new ToolError(
      'read_error',
      `${descriptor.id} cannot be read from the store: ${clipInput(errorMessage(error), 300)}`,
      descriptor.id,
    );
  }
}

export const fdToFileTool = defineTool({
  name: 'fd_to_file',
  title: 'Write a descriptor to a file',
  description:
    'Write a descriptor or ref to a file in the workspace: replace it (mode "write", the default), add to its end ' +
    '("append"), or insert before a line ("insert" with line). Parent folders are created.',
  schema: fdToFileInput,
  effect: 'write',
  surfaces: ['chat', 'mcp', 'copilot'],
  sessionArgument: true,
  prompt:
    'fd_to_file writes a descriptor to a workspace file, replacing it, appending, or inserting before a line. Example: fd_to_file(fd="fd:1", file_path="logs/build.txt").',
  copilot: {
    referenceName: 'fdToFile',
    displayName: 'Write FD Refs Descriptor to File',
    userDescription: 'Write stored output (fd:N) or a ref to a workspace file (replace, append or insert).',
    icon: '$(save)',
    when:
      'Use it to put stored content or a ref into a workspace file exactly as stored, without retyping it; ' +
      'the user confirms each write.',
    whenClause: 'isWorkspaceTrusted',
    looksUpSessions: true,
  },
  preview: previewFdToFile,
  untrusted: untrustedWriteError,
  headline: (call) => (call.tag?.name === 'fd_file_result' ? wrote(call) : undefined),
  run: fdToFile,
});

function wrote({ args, tag, confirmed }: FinishedCall): HeadlinePart[] {
  const a = tag?.attributes ?? {};
  const target = a['file_path'] ?? '';
  const file: HeadlinePart = { file: target, label: confirmed?.path ?? target };
  const bytes = plural(a['size_bytes'], 'byte');
  const at = confirmed?.line ?? (typeof args['line'] === 'number' ? args['line'] : undefined);
  switch (a['mode']) {
    case 'append':
      return [{ text: `Appended ${bytes} to ` }, file];
    case 'insert':
      return [{ text: `Inserted ${bytes} into ` }, file, { text: at === undefined ? '' : ` at line ${number(at)}` }];
    default:
      return [{ text: 'Wrote ' }, file, { text: `, ${bytes}` }];
  }
}
