/**
 * The session store (issue 12): sessions on disk shared by every process of a workspace, written once and
 * appended to in small records, read lazily. See docs/STORE.md for the design and its reasons.
 */
export { Store, type IdleDeletion, type NewSession, type StoreOptions, type UnreadableSession } from './store';
export {
  SessionWriter,
  type MessageData,
  type NewDescriptor,
  type NewRefVersion,
  type SessionRepair,
} from './sessionWriter';
export { UnsafeStoreFileError } from './storeFile';
export { SessionReader, type MaterializedSession, type StoredDescriptor } from './sessionReader';
export { SessionSync, type SyncResult } from './sessionSync';
export {
  StoredContent,
  ContentCache,
  DamagedContentError,
  MissingContentError,
  DEFAULT_CACHE_BYTES,
} from './storedContent';
export { ContentSink } from './contentSink';
export { SessionBusyError, leaseStatus, type LeaseHolder } from './lease';
export type { StoredSessionMeta } from './meta';
export type { ContentRef } from './records';
export type { StateChange } from './sessionState';
export { migrateLegacySessions, sameSession, type MigrationResult } from './migrate';
export {
  applyRetention,
  cleanTemporaryFiles,
  clearSessions,
  storeUsage,
  type ClearResult,
  type KeptReason,
  type RetentionPolicy,
  type SessionUsage,
  type StoreUsage,
} from './retention';
export { clearQuestion, describeClear, groupUsage, originGroup, type UsageGroup } from './usageGroups';
export {
  growsStore,
  RETENTION_INTERVAL_MS,
  RetentionSchedule,
  systemClock,
  type ScheduleClock,
} from './retentionSchedule';
export { watchStore, type StoreChange, type StoreWatcher } from './watch';
export type { Durability } from './atomicFile';
