/** What `run` needs of the store once a long output has been streamed into its spool (loaded lazily, see lazy.ts). */
export { Store } from '../core/store';
