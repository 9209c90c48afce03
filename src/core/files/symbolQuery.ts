/**
 * How workspace symbol queries (Ctrl+T) find refs and descriptors by id. VS Code asks on every keystroke and
 * ranks what it gets itself, so the match is relaxed (the query's characters in order, any case) and what is
 * searched and returned is bounded, whatever the store holds.
 */

/** The most recently created sessions a query looks in. */
export const SYMBOL_SESSIONS = 20;

/** The most symbols taken from one session (its refs, each's earlier versions, then its descriptors, in that order). */
export const SYMBOLS_PER_SESSION = 2_000;

/** The most symbols one query returns. */
export const SYMBOL_RESULTS = 500;

/**
 * Whether `query`'s characters appear in `name` in order, ignoring case (`pcfg` finds `ref:parse_config`);
 * whitespace in the query is ignored, and an empty query matches everything. `lowerName` is `name` in lower case,
 * computed once per symbol rather than per keystroke.
 */
export function matchesSymbolQuery(lowerName: string, query: string): boolean {
  return matchesQueryCharacters(lowerName, queryCharacters(query));
}

/** The characters a query looks for, in lower case and without whitespace: worked out once per keystroke. */
function queryCharacters(query: string): string[] {
  return [...query.toLowerCase()].filter((char) => char.trim() !== '');
}

function matchesQueryCharacters(lowerName: string, characters: readonly string[]): boolean {
  let at = 0;
  for (let i = 0; i < characters.length; i++) {
    const char = characters[i] as string;
    at = lowerName.indexOf(char, at);
    if (at === -1) return false;
    at += char.length;
  }
  return true;
}

/**
 * Up to `limit` items of `groups` (in order, each group in order) whose `lowerName` matches `query`. Stops
 * reading as soon as the limit is reached.
 */
export function matchingSymbols<T extends { readonly lowerName: string }>(
  groups: Iterable<readonly T[]>,
  query: string,
  limit = SYMBOL_RESULTS,
): T[] {
  const found: T[] = [];
  const characters = queryCharacters(query);
  for (const group of groups) {
    for (const item of group) {
      if (!matchesQueryCharacters(item.lowerName, characters)) continue;
      found.push(item);
      if (found.length >= limit) return found;
    }
  }
  return found;
}

/**
 * The symbols of the `SYMBOL_SESSIONS` sessions a query looks in, built once per session and kept only while the
 * session is among them: when the list is made again, the symbols of sessions that left it are dropped, so what is
 * kept stays bounded however many sessions come and go.
 */
export class RecentSessionSymbols<S extends { readonly id: string }, T> {
  private readonly bySession = new Map<string, Promise<T[]>>();
  private recent: Promise<S[]> | undefined;

  /**
   * `list`: every session, the most recent first. `read`: a session's symbols (at most `SYMBOLS_PER_SESSION`),
   * undefined when it could not be read (tried again next time).
   */
  constructor(
    private readonly list: () => Promise<readonly S[]>,
    private readonly read: (session: S) => Promise<T[] | undefined>,
  ) {}

  /** The sessions a query looks in. */
  async sessions(): Promise<S[]> {
    let listing = this.recent;
    if (!listing) {
      listing = this.list().then((all) => {
        const recent = all.slice(0, SYMBOL_SESSIONS);
        const kept = new Set(recent.map((session) => session.id));
        for (const id of this.bySession.keys()) if (!kept.has(id)) this.bySession.delete(id);
        return recent;
      });
      this.recent = listing;
    }
    const current = listing;
    return current.catch((error: unknown) => {
      if (this.recent === current) this.recent = undefined;
      throw error;
    });
  }

  /** One session's symbols, read the first time they are asked for after a change. */
  symbolsOf(session: S): Promise<T[]> {
    let symbols = this.bySession.get(session.id);
    if (!symbols) {
      const reading: Promise<T[]> = this.read(session).then((read) => {
        if (read) return read;
        if (this.bySession.get(session.id) === reading) this.bySession.delete(session.id);
        return [];
      });
      symbols = reading;
      this.bySession.set(session.id, symbols);
    }
    return symbols;
  }

  /** A session's refs or descriptors changed. */
  changed(id: string): void {
    this.bySession.delete(id);
  }

  /** A session came, went or was renamed: the list is made again. */
  listChanged(): void {
    this.recent = undefined;
  }

  /** Everything was read again. */
  clear(): void {
    this.bySession.clear();
    this.recent = undefined;
  }

  /** How many sessions' symbols are kept (the tests watch this). */
  get cachedSessions(): number {
    return this.bySession.size;
  }
}
