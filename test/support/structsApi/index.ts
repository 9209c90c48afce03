/** The Structs API emulator: a local HTTP server for tests, benchmarks and `npm run structs-api`. */
export { StructsApiEmulator } from './emulator';
export type { EmulatorKnobs, EmulatorOptions, EmulatorStats } from './emulator';
export { generateDataSet, SERVED_KINDS } from './dataSet';
export type { DataSetOptions, EntityResponse, ServedKind, StructsDataSet } from './dataSet';
