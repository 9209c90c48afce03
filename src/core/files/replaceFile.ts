/**
 * The one way fdref replaces a file: the new content goes to a temporary file beside the target, which
 * is then renamed over it in one step, so a reader, or a crash, sees the old file or the new one and
 * never half of either. When anything fails before the rename, the temporary file is removed again. The
 * steps themselves are the caller's (Node's `fs` through a `FileSystemPort` for workspace files, VS
 * Code's `workspace.fs` for session files), and so are the checks a caller makes between them.
 */
import { randomBytes } from 'node:crypto';

/** The steps of one replace; `temp` is a file name in the target's folder. */
export interface ReplaceSteps<Written> {
  /** Writes the new content to `temp` as a new file; resolves to what the other steps need to know of it. */
  write(temp: string): Promise<Written>;
  /** Checks between writing and renaming; throwing leaves the target as it was. */
  beforeRename?(temp: string, written: Written): Promise<void>;
  /** Renames `temp` over the target. */
  rename(temp: string): Promise<void>;
  /** After a failure: removes what `write` left (`written` is undefined when `write` itself failed). Never throws. */
  removeTemporary(temp: string, written: Written | undefined, error: unknown): Promise<void>;
}

/**
 * A name for a temporary file beside the target: short and of fixed length, so that a target name at
 * the file system's length limit still leaves room for it; starting with `.`, so listings pass it by.
 */
export function temporaryName(): string {
  return `.fdref-${randomBytes(9).toString('base64url')}.tmp`;
}

/** Replaces a file through a temporary file beside it (see the file comment); resolves to what `write` resolved to. */
export async function replaceThroughTemporary<Written>(steps: ReplaceSteps<Written>): Promise<Written> {
  const temp = temporaryName();
  let written: Written | undefined;
  try {
    written = await steps.write(temp);
    await steps.beforeRename?.(temp, written);
    await steps.rename(temp);
    return written;
  } catch (error) {
    await steps.removeTemporary(temp, written, error);
    throw error;
  }
}
