/**
 * Reading and replacing an agent's configuration file. The file belongs to the agent, which may rewrite it at any
 * time (Claude Code keeps its state in `~/.claude.json`), so a replace checks, just before its rename, that the
 * file still holds the text the merge was made from; the previous text is kept beside it as `<name>.fdref-backup`.
 * A symbolic link (a file kept with the user's dotfiles) is followed: the file it leads to is replaced, the link stays.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { errorMessage, isNotFound } from '../errors';
import { replaceThroughTemporary } from '../files/replaceFile';
import { AgentConfigError } from './mergeServerEntry';

/** A configuration file as read: its text (undefined when there is none) and the path a write goes to. */
export interface ConfigFileState {
  readonly text: string | undefined;
  /** The file itself, symbolic links followed; the given path when there is no file yet. */
  readonly target: string;
  /** Permission bits to keep. */
  readonly mode: number | undefined;
}

/** Suffix of the copy of the previous text kept beside a replaced file. */
export const BACKUP_SUFFIX = '.fdref-backup';

/** Reads the configuration at `file`; throws {@link AgentConfigError} for something that is not a readable text file. */
export async function readConfigFile(file: string, fileLabel: string): Promise<ConfigFileState> {
  let target: string;
  try {
    target = await fs.realpath(file);
  } catch (error) {
    if (isNotFound(error)) return { text: undefined, target: await danglingTarget(file), mode: undefined };
    throw new AgentConfigError(`${fileLabel} cannot be read: ${errorMessage(error)}. Nothing was written.`);
  }
  const stat = await fs.stat(target);
  if (!stat.isFile()) throw new AgentConfigError(`${fileLabel} is not a file. Nothing was written.`);
  const bytes = await fs.readFile(target);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw new AgentConfigError(`${fileLabel} is not UTF-8 text. Fix it, then connect again; nothing was written.`);
  }
  return { text, target, mode: stat.mode & 0o7777 };
}

/** A path given as a link to a file not yet made: the link's destination, so the link is kept. */
async function danglingTarget(file: string): Promise<string> {
  try {
    const link = await fs.readlink(file);
    return path.resolve(path.dirname(file), link);
  } catch {
    return file;
  }
}

/**
 * Replaces the file read as `state` with `text`, atomically; throws {@link AgentConfigError} when the file changed
 * since it was read (the agent wrote it meanwhile), and then nothing is written.
 */
export async function replaceConfigFile(state: ConfigFileState, text: string, fileLabel: string): Promise<void> {
  const folder = path.dirname(state.target);
  await fs.mkdir(folder, { recursive: true });
  const stillSame = async (): Promise<void> => {
    const now = await readNow(state.target);
    if (now !== state.text) {
      throw new AgentConfigError(
        `${fileLabel} changed while fdref was adding its server (another program wrote it). Nothing was written; connect again.`,
      );
    }
  };
  await stillSame();
  if (state.text !== undefined) await writeAtomically(state.target + BACKUP_SUFFIX, state.text, state.mode);
  await writeAtomically(state.target, text, state.mode, stillSame);
}

async function readNow(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch (error) {
    if (isNotFound(error)) return undefined;
    throw error;
  }
}

async function writeAtomically(
  target: string,
  text: string,
  mode: number | undefined,
  beforeRename?: () => Promise<void>,
): Promise<void> {
  const folder = path.dirname(target);
  await replaceThroughTemporary({
    write: async (temp) => {
      const handle = await fs.open(path.join(folder, temp), 'wx', mode ?? 0o600);
      try {
        await handle.writeFile(text, 'utf8');
        if (mode !== undefined) await handle.chmod(mode); // the umask narrowed the mode given to open
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    ...(beforeRename === undefined ? {} : { beforeRename }),
    rename: (temp) => fs.rename(path.join(folder, temp), target),
    removeTemporary: (temp) => fs.rm(path.join(folder, temp), { force: true }).catch(() => undefined),
  });
}

/**
 * Deletes the file read as `state` (Disconnect, for a file that held only fdref's entries), keeping its text as
 * `<name>.fdref-backup`; throws {@link AgentConfigError} when the file changed since it was read.
 */
export async function deleteConfigFile(state: ConfigFileState, fileLabel: string): Promise<void> {
  if (state.text === undefined) return;
  if ((await readNow(state.target)) !== state.text) {
    throw new AgentConfigError(
      `${fileLabel} changed while fdref was removing its entries (another program wrote it). Nothing was written; disconnect again.`,
    );
  }
  await writeAtomically(state.target + BACKUP_SUFFIX, state.text, state.mode);
  await fs.rm(state.target, { force: true });
}
