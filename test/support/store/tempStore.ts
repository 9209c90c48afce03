import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { Store, type StoreOptions } from '../../../src/core/store';

/** A fresh folder for one test's store, removed afterwards; stores opened on it skip fsync unless asked. */
export function tempStoreFolder(): {
  root: string;
  open(options?: StoreOptions): Promise<Store>;
  dispose(): Promise<void>;
} {
  const root = realpathSync(mkdtempSync(path.join(tmpdir(), 'fdref-store-')));
  const opened: Store[] = [];
  return {
    root,
    open: async (options = {}) => {
      const store = await Store.open(root, { durability: 'process', ...options });
      opened.push(store);
      return store;
    },
    dispose: async () => {
      await Promise.all(opened.map((store) => store.close().catch(() => undefined)));
      rmSync(root, { recursive: true, force: true });
    },
  };
}

/** Seeded pseudo-random numbers, so a failing run can be repeated. */
export function seeded(seed: number): () => number {
  return () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
}
