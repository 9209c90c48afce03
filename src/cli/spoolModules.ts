/** What `run` needs to stream a long output into the store's spool, without the store (loaded lazily, see lazy.ts). */
export { keepInAgentSession, OutputSpool } from '../core/store/agentSession';
export { DEFAULT_DURABILITY, prepareStoreFolder } from '../core/store/storeFolder';
