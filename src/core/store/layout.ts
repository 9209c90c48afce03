/**
 * Where things are in a store folder:
 *
 *     store.json                        the layout's format and version
 *     sessions/<id>/meta.json           name, origin, pinned (replaced whole)
 *     sessions/<id>/journal.log         append-only records (see journal.ts)
 *     sessions/<id>/lease.json          the process that may append (see lease.ts)
 *     sessions/<id>/content/<hash>.txt  content, UTF-8 (`.u16`: UTF-16LE), written once
 *     sessions/<id>/content/<hash>.idx  line starts and byte checkpoints of a large content
 *     sessions/.<id>.<pid>-<random>.tmp a session being created (renamed into place when complete)
 *     trash/<id>.<random>               a deleted session being removed
 *     spool/<pid>-<random>/             a command's output the wrapper (dist/cli.js run) is still writing, moved
 *                                       into its session by rename when the command ends (see agentSession.ts)
 */
import * as path from 'node:path';

export const STORE_FILE = 'store.json';
export const SESSIONS_FOLDER = 'sessions';
export const TRASH_FOLDER = 'trash';
export const SPOOL_FOLDER = 'spool';
export const JOURNAL_FILE = 'journal.log';
export const CONTENT_FOLDER = 'content';

export function contentFolderOf(sessionFolder: string): string {
  return path.join(sessionFolder, CONTENT_FOLDER);
}

export function journalOf(sessionFolder: string): string {
  return path.join(sessionFolder, JOURNAL_FILE);
}
