/**
 * Converts today's session files (`<id>.json`, one whole JSON document per session) into the store. Each is
 * written to a session being created, read back and compared with the file; only when they are equal is the
 * session published (one rename) and the old file removed. A file that cannot be read stays where it is.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { errorMessage } from '../errors';
import { SESSION_ID } from '../files/fdrefPaths';
import { sessionRecordFromJSON, sessionRecordToJSONWhole } from '../session/sessionRecord';
import { SessionReader, type MaterializedSession } from './sessionReader';
import { SessionSync } from './sessionSync';
import type { Store } from './store';

export interface MigrationResult {
  /** Sessions converted now. */
  readonly migrated: string[];
  /** Old files of sessions an earlier run had converted (it stopped before removing them): removed now. */
  readonly alreadyMigrated: string[];
  /** Files left in place, and why. */
  readonly failed: { readonly file: string; readonly reason: string }[];
}

/** Converts every `<id>.json` session file in `legacyFolder` (a missing folder has none). */
export async function migrateLegacySessions(store: Store, legacyFolder: string): Promise<MigrationResult> {
  const result: MigrationResult = { migrated: [], alreadyMigrated: [], failed: [] };
  const names = await fs.readdir(legacyFolder).catch(() => [] as string[]);
  for (const name of names.filter((n) => n.endsWith('.json') && SESSION_ID.test(n.slice(0, -5))).sort()) {
    const file = path.join(legacyFolder, name);
    try {
      const outcome = await migrateFile(store, file, name.slice(0, -5));
      (outcome === 'migrated' ? result.migrated : result.alreadyMigrated).push(name.slice(0, -5));
    } catch (error) {
      result.failed.push({ file, reason: errorMessage(error) });
    }
  }
  return result;
}

async function migrateFile(store: Store, file: string, id: string): Promise<'migrated' | 'alreadyMigrated'> {
  const legacy = sessionRecordFromJSON(JSON.parse(await fs.readFile(file, 'utf8')));
  if (legacy.metadata.id !== id) throw new Error(`the file holds session ${legacy.metadata.id}, not ${id}`);
  const existing = await store.read(id);
  if (existing !== undefined) {
    // Sessions appear in the store only once read back equal, so this one was converted before.
    if (existing.meta.createdAt !== legacy.metadata.createdAt)
      throw new Error(`a different session ${id} is already in the store; the old file was kept`);
    await fs.rm(file, { force: true });
    return 'alreadyMigrated';
  }
  const { metadata, session, chat } = legacy;
  const writer = await store.create(
    { id, name: metadata.name, createdAt: metadata.createdAt, origin: metadata.origin, chat: chat !== undefined },
    async (building) => {
      await new SessionSync(building).sync(session, chat);
      const reader = await SessionReader.open(building.folder, store.cache);
      if (reader === undefined) throw new Error('the converted session could not be read back');
      if (!(await sameSession(await reader.materialize(), legacy)))
        throw new Error('the converted session did not read back equal; the old file was kept');
    },
  );
  await writer.close();
  await fs.rm(file, { force: true });
  return 'migrated';
}

/** Whether two sessions hold the same metadata, descriptors, ref versions, counter and chat (contents compared as text). */
export async function sameSession(a: MaterializedSession, b: MaterializedSession): Promise<boolean> {
  return isDeepStrictEqual(await comparable(a), await comparable(b));
}

async function comparable({ metadata, session, chat }: MaterializedSession): Promise<unknown> {
  const record = (await sessionRecordToJSONWhole(metadata, session, chat)) as { session: Saved } & Record<
    string,
    unknown
  >;
  const { contents, descriptors, refs, ...rest } = record.session;
  const text = (index: number): string | undefined => contents[index];
  return {
    ...record,
    session: {
      ...rest,
      descriptors: descriptors.map((d) => ({ ...d, content: text(d.content) })),
      refs: refs.map((r) => ({ ...r, versions: r.versions.map((v) => ({ ...v, content: text(v.content) })) })),
    },
  };
}

interface Saved {
  readonly contents: string[];
  readonly descriptors: { readonly content: number }[];
  readonly refs: { readonly versions: { readonly content: number }[] }[];
}
