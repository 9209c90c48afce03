import * as path from 'node:path';
import { ToolError } from '../tools/toolError';
import type { FileSystemPort } from './fileSystemPort';

/**
 * Resolves a path a model or a user asked to write to, and proves it lies inside a workspace root,
 * also after following symbolic links (of the target and of its nearest existing folder).
 * Returns the real path to write (through any links, so a linked file is updated rather than replaced);
 * throws `ToolError('outside_workspace')` otherwise.
 */
export async function resolveWorkspacePath(
  requested: string,
  roots: readonly string[],
  fileSystem: FileSystemPort,
): Promise<string> {
  const first = roots[0];
  if (first === undefined) {
    throw new ToolError('outside_workspace', 'No workspace folder is open, so there is nowhere to write. Open a folder first.');
  }
  if (requested.includes('\0')) throw new ToolError('invalid_argument', 'file_path contains a NUL character.');
  const target = path.resolve(first, requested);
  const lexicalRoot = roots.find((root) => isInside(target, path.resolve(root)));
  if (lexicalRoot === undefined) {
    throw new ToolError(
      'outside_workspace',
      `${requested} resolves to ${target}, which is outside the workspace (${roots.join(', ')}). Use a path inside it.`,
    );
  }
  const realRoot = await fileSystem.realpath(lexicalRoot).catch(() => path.resolve(lexicalRoot));
  const realTarget = await realPathOfNearest(target, fileSystem);
  if (!isInside(realTarget, realRoot)) {
    throw new ToolError(
      'outside_workspace',
      `${requested} leads through a symbolic link to ${realTarget}, which is outside the workspace. Use a path inside it.`,
    );
  }
  return realTarget;
}

/** The real path of `target`, or of its nearest existing ancestor joined with the missing rest. */
async function realPathOfNearest(target: string, fileSystem: FileSystemPort): Promise<string> {
  let existing = target;
  const missing: string[] = [];
  for (;;) {
    try {
      const real = await fileSystem.realpath(existing);
      return missing.length === 0 ? real : path.join(real, ...missing.reverse());
    } catch {
      const parent = path.dirname(existing);
      if (parent === existing) return target;
      missing.push(path.basename(existing));
      existing = parent;
    }
  }
}

function isInside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (relative !== '..' && !relative.startsWith('..' + path.sep) && !path.isAbsolute(relative));
}
