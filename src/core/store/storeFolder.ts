/**
 * Opening a store folder without loading the store: its folders made, its layout version checked (a store of a
 * later version is refused, never written into). `Store.open` starts with this; the command wrapper calls it alone
 * to stream a long output into the store's spool, and loads the store itself (its zod schemas, its journal code)
 * only for the moment of recording the descriptor, so that streaming runs in the memory of Node and the sink.
 */
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readFileIfExists, writeFileAtomic, type Durability } from './atomicFile';
import { SESSIONS_FOLDER, STORE_FILE, STORE_VERSION, TRASH_FOLDER } from './layout';

/** A completed change survives a power cut, not only a killed process. */
export const DEFAULT_DURABILITY: Durability = 'fsync';

/** Where a store is and how it writes: what a spool of it needs (a `Store` is one). */
export interface StoreLocation {
  /** Absolute. */
  readonly root: string;
  readonly durability: Durability;
}

/** Makes the store's folders and its `store.json` when missing; throws for a store of a later layout version. */
export async function prepareStoreFolder(location: StoreLocation): Promise<void> {
  await fs.mkdir(path.join(location.root, SESSIONS_FOLDER), { recursive: true });
  await fs.mkdir(path.join(location.root, TRASH_FOLDER), { recursive: true });
  const marker = path.join(location.root, STORE_FILE);
  const existing = await readFileIfExists(marker);
  if (existing === undefined) {
    await writeFileAtomic(
      marker,
      JSON.stringify({ format: 'fdref.store', version: STORE_VERSION }),
      location.durability,
    );
    return;
  }
  const version = (JSON.parse(existing.toString('utf8')) as { version?: unknown }).version;
  if (typeof version !== 'number' || version > STORE_VERSION) {
    throw new Error(
      `The session store in ${location.root} has layout version ${String(version)}; this fdref reads version ${STORE_VERSION}. Update fdref.`,
    );
  }
}
