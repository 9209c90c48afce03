import {
  cleanTemporaryFiles,
  migrateLegacySessions,
  Store,
  type MigrationResult,
  type StoreOptions,
} from '../core/store';

/** A store opened for the extension: migrated and cleaned. */
export interface OpenedStore {
  readonly store: Store;
  /** What the migration of the old session files did (`failed` files were left in place). */
  readonly migration: MigrationResult;
}

/**
 * Where a workspace's sessions live: the store folder (shared with every window and MCP server on the
 * workspace) and the folder of the one-file-per-session format used before the store, converted on first use.
 */
export class SessionStore {
  constructor(
    /** The store's folder (`globalStorage/store/<workspace key>`). */
    readonly root: string,
    /** Where the sessions were saved before the store (`globalStorage/sessions/<workspace key>`). */
    readonly legacyFolder: string,
    private readonly options: StoreOptions = {},
  ) {}

  /** Opens the store, converts the old session files and removes what crashes left. */
  async open(): Promise<OpenedStore> {
    const store = await Store.open(this.root, this.options);
    const migration = await migrateLegacySessions(store, this.legacyFolder);
    await cleanTemporaryFiles(store);
    return { store, migration };
  }
}
