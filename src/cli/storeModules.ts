/** What `run` needs of the store once an output is long (loaded lazily, see lazy.ts). */
export { Store } from '../core/store';
export { keepInAgentSession, OutputSpool } from '../core/store/agentSession';
