/**
 * The parts of the command-line tool that read and write the store (the store, the core's tools, zod's schemas),
 * loaded on first use. `run` on a command that prints little never needs them, and building their schemas is most
 * of what loading the tool costs: esbuild bundles a module reached by `require` behind an initialiser that runs on
 * this first call, so a short `run` does not pay for it. A long one loads them only to record its output once it
 * has streamed (outputKeeper.ts): streaming needs the store's folder alone (core/store/storeFolder.ts).
 */
export type StoreModules = typeof import('./storeModules');

export function storeModules(): StoreModules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./storeModules') as StoreModules;
}

export type SpoolModules = typeof import('./spoolModules');

/**
 * What streaming a long output needs (the spool, the content sink, the store folder's check), loaded the same way
 * once an output turns out long: a short `run` does not even load `node:crypto`.
 */
export function spoolModules(): SpoolModules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./spoolModules') as SpoolModules;
}
