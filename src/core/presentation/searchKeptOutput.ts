/**
 * Search Kept Output...: what its quick pick shows for a search across the store, and what Show Store Usage says of
 * the search index. The command (`src/commands/searchKeptOutput.ts`) runs the searches and shows the pick; the
 * words are here. The hits and stats are taken by shape (the search's types live in a higher layer of the core).
 */
import { byteSize, groupedCount } from '../quantities';
import { previewLine } from './describe';

/** One matching line as the search across the store returns it (`SearchHit`, src/core/tools/storeSearchPort.ts). */
export interface KeptLineHit {
  readonly session: string;
  readonly sessionName: string;
  /** `fd:3`, `ref:x@2`. */
  readonly handle: string;
  /** 1-based. */
  readonly line: number;
  readonly text: string;
  readonly command: string | undefined;
  readonly tool: string | undefined;
  readonly originLabel: string;
}

/** A result page's counts (`SearchPage`). */
export interface KeptSearchCounts {
  readonly hits: readonly unknown[];
  readonly matches: number;
  readonly exact: boolean;
  readonly unsearchedBytes: number;
}

/** How long the pick waits after a keystroke before it searches. */
export const SEARCH_DEBOUNCE_MS = 150;
/** Matching lines one search shows. */
export const SEARCH_PICK_RESULTS = 100;
/** The most characters of a matching line an item's label shows (a hit's text is already cut near its match). */
const LABEL_CHARS = 200;
const COMMAND_CHARS = 60;

/**
 * An item of the pick: the matching line (trimmed) as its label, `fd:3 · line 42 · Session · npm test` as its
 * description (the command line, else where the output came from: `Terminal`, `Chat (read_file)`).
 */
export function keptLineItem(hit: KeptLineHit): { label: string; description: string } {
  const from =
    hit.command !== undefined && hit.command.trim() !== ''
      ? previewLine(hit.command, COMMAND_CHARS)
      : hit.tool === undefined
        ? hit.originLabel
        : `${hit.originLabel} (${hit.tool})`;
  return {
    label: previewLine(hit.text, LABEL_CHARS),
    description: [hit.handle, `line ${groupedCount(hit.line)}`, hit.sessionName, from].join(' · '),
  };
}

/** The pick's title over a page of results: `Search Kept Output: 12 lines match`, `… at least 300 lines match`. */
export function keptSearchTitle(base: string, page: KeptSearchCounts): string {
  if (page.matches === 0 && page.hits.length === 0) return base;
  const count = `${page.exact ? '' : 'at least '}${groupedCount(page.matches)} ${page.matches === 1 ? 'line matches' : 'lines match'}`;
  const shown = page.hits.length < page.matches ? `, ${groupedCount(page.hits.length)} best shown` : '';
  return `${base}: ${count}${shown}`;
}

/** The one item the pick shows when a search found nothing, or why it could not search (a pattern without words). */
export function keptSearchNotice(page: KeptSearchCounts | { readonly refusal: string }): string | undefined {
  if ('refusal' in page) return `Cannot search: ${page.refusal.replace(/\.?$/, '.')}`;
  if (page.hits.length > 0) return undefined;
  const pending =
    page.unsearchedBytes > 0 ? ` (${byteSize(page.unsearchedBytes)} of the newest output is not indexed yet)` : '';
  return `No kept line contains this text${pending}.`;
}

/** What Show Store Usage says of the search index: its size on disk and what is not indexed yet. */
export function searchIndexUsage(
  stats: { readonly diskBytes: number; readonly pendingBytes: number } | { readonly failure: string },
): { label: string; description: string } {
  const label = 'Search index';
  if ('failure' in stats) return { label, description: `not available (${stats.failure.replace(/\.$/, '')})` };
  const pending = stats.pendingBytes > 0 ? `${byteSize(stats.pendingBytes)} not indexed yet` : 'all indexed';
  return { label, description: `${byteSize(stats.diskBytes)} on disk · ${pending}` };
}
