import { writeWorkspaceFile } from '../files/workspaceWrite';
import { parentElement, textElement } from '../xml';
import type { FdToFileInput } from './schemas';
import { requireDescriptor, type ToolContext } from './toolContext';

/**
 * `fd_to_file`: writes a descriptor to a workspace file (write, append or insert before a line).
 * The rules (workspace check, atomic write, line breaks) live in `writeWorkspaceFile`, which the
 * extension's export, append and insert commands share.
 */
export async function fdToFile(context: ToolContext, input: FdToFileInput): Promise<string> {
  const descriptor = requireDescriptor(context, input.fd);
  const result = await writeWorkspaceFile({
    filePath: input.file_path,
    text: descriptor.content.text,
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
      char_count: descriptor.content.text.length,
      size_bytes: result.textBytes,
      success: 'true',
    },
    [textElement('message', {}, result.message)],
  );
}
