/** The Structs API emulator: a local HTTP server for tests, benchmarks and `npm run structs-api`. */
export { NOT_FOUND_BODY, NOT_FOUND_STATUS, StructsApiEmulator } from './emulator';
export type { EmulatorKnobs, EmulatorOptions, EmulatorStats, ScriptedAnswer } from './emulator';
export { entityOf, generateDataSet, responseKeyOf, SERVED_KINDS } from './dataSet';
export type { DataSetOptions, EntityResponse, ServedKind, StructsDataSet } from './dataSet';
export { startHostileServer } from './hostileServer';
export type { HostileHandler, HostileServer } from './hostileServer';
