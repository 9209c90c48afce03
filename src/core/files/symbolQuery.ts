/**
 * How workspace symbol queries (Ctrl+T) find refs and descriptors by id. VS Code asks on every keystroke and
 * ranks what it gets itself, so the match is relaxed (the query's characters in order, any case) and what is
 * searched and returned is bounded, whatever the store holds.
 */

/** The most recently created sessions a query looks in. */
export const SYMBOL_SESSIONS = 20;

/** The most symbols one query returns. */
export const SYMBOL_RESULTS = 500;

/**
 * Whether `query`'s characters appear in `name` in order, ignoring case (`pcfg` finds `ref:parse_config`);
 * whitespace in the query is ignored, and an empty query matches everything. `lowerName` is `name` in lower case,
 * computed once per symbol rather than per keystroke.
 */
export function matchesSymbolQuery(lowerName: string, query: string): boolean {
  let at = 0;
  for (const char of query.toLowerCase()) {
    if (char.trim() === '') continue;
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
  for (const group of groups) {
    for (const item of group) {
      if (!matchesSymbolQuery(item.lowerName, query)) continue;
      found.push(item);
      if (found.length >= limit) return found;
    }
  }
  return found;
}
