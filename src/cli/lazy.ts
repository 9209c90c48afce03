/**
 * The parts of the command-line tool that read and write the store (the store, the core's tools, zod's schemas),
 * loaded on first use. `run` on a command that prints little never needs them, and building their schemas is most
 * of what loading the tool costs: esbuild bundles a module reached by `require` behind an initialiser that runs on
 * this first call, so a short `run` does not pay for it.
 */
export type StoreModules = typeof import('./storeModules');

export function storeModules(): StoreModules {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('./storeModules') as StoreModules;
}
