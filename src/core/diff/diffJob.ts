/** What `diffOffThread` hands its worker (`diffWorker.ts`) and what the worker posts back. */
import type { DiffOptions, DiffOutcome } from './unifiedDiff';

export interface DiffJob {
  readonly a: string;
  readonly b: string;
  /** The options, the ignore pattern as its source and flags (a `RegExp` does not cross threads whole). */
  readonly options: Omit<DiffOptions, 'ignorePattern'> & {
    readonly ignorePattern?: { readonly source: string; readonly flags: string };
  };
}

export type DiffReply =
  { readonly kind: 'outcome'; readonly outcome: DiffOutcome } | { readonly kind: 'failed'; readonly message: string };
