/**
 * What `search_fd` with `fd: "*"` asks of a search across the store (src/core/search/ answers it, on a worker
 * thread): the query, its filters and the page of results.
 */

export interface SearchFilters {
  /** Sessions to search, each by id or exact name (case-insensitive); undefined: every session. */
  readonly sessions?: readonly string[];
  /** Handles to search within those sessions (`fd:3`, `ref:x@2`); undefined: all. */
  readonly handles?: readonly string[];
  /** A source: `chat`, `terminal`, an agent's name (`claude-code`), or a group's label as Show Store Usage names it. */
  readonly origin?: string;
  /** Text the command line contains (case-insensitive). */
  readonly command?: string;
  readonly sinceMs?: number;
  readonly untilMs?: number;
}

export interface SearchQuery extends SearchFilters {
  /** Plain text (not a regular expression): its words find candidates, then each line is tested for the text. */
  readonly pattern: string;
  readonly caseSensitive: boolean;
  /** Results to skip (paging). */
  readonly offset: number;
  readonly limit: number;
  /** Lines shown before and after each hit. */
  readonly context: number;
}

export interface HitLine {
  /** 1-based. */
  readonly line: number;
  readonly text: string;
}

export interface SearchHit extends HitLine {
  readonly session: string;
  readonly sessionName: string;
  readonly handle: string;
  /** The source's key (`terminal`, `agent:claude-code`) and its label (`Terminal`, `Claude Code`). */
  readonly origin: string;
  readonly originLabel: string;
  readonly command: string | undefined;
  readonly tool: string | undefined;
  readonly createdMs: number;
  readonly before: readonly HitLine[];
  readonly after: readonly HitLine[];
}

export interface SearchPage {
  /** Best first: the ranked blocks' lines, after what was not indexed yet (the newest output). */
  readonly hits: SearchHit[];
  /** Matching lines found (all of them when `exact`). */
  readonly matches: number;
  readonly exact: boolean;
  /** Blocks (about 16 KB of lines each) that hold every word of the pattern; at least this many when `windowFull`. */
  readonly blocks: number;
  /** Whether more results follow this page. */
  readonly more: boolean;
  /** Whether only the newest matching blocks were ranked (older ones need a narrower search). */
  readonly windowFull: boolean;
  /** Bytes not indexed yet that this search did not scan either (a search a moment later covers them). */
  readonly unsearchedBytes: number;
}

/** The search across a store, as a surface offers it to the tools. */
export interface StoreSearchPort {
  /**
   * The id of the session the call belongs to: what `fd: "*"` searches without `session`. Undefined where a surface
   * reads across the recent sessions anyway (Copilot's tools): `fd: "*"` then searches every session.
   */
  readonly thisSession?: string;
  search(query: SearchQuery): Promise<SearchPage>;
}
