/**
 * A search across kept content through the index: the pattern's words find candidate blocks (FTS5, the newest
 * `CANDIDATES` matching blocks ranked by BM25), each candidate's bytes are read back and its lines tested against
 * the pattern itself (so a hit is exactly a line that contains it), and what is not indexed yet is scanned.
 */
import * as path from 'node:path';
import { compileMatcher, shownLine, type Matcher } from '../tools/searchFd';
import {
  characterBoundary,
  contentRow,
  CONTENT_SELECT,
  readBytes,
  type ContentRow,
  type SearchIndex,
} from './searchIndex';
import { isNotFound } from '../errors';
import type { SqlValue } from './sqlite';
import type { HitLine, SearchFilters, SearchHit, SearchPage, SearchQuery } from '../tools/storeSearchPort';

export type { SearchPage, SearchQuery } from '../tools/storeSearchPort';

/** Matching blocks ranked per query: the newest this many (a block holds about 150 lines of a log). */
export const CANDIDATES = 500;
/** Bytes read around a block for the context lines of a hit at its edge. */
const CONTEXT_MARGIN = 8192;
/** How long a search keeps testing candidates to count matches once its page is full. */
const COUNT_MS = 25;
/** Unindexed bytes a search scans itself (a command's output written moments ago), and for how long. */
const TAIL_SCAN_BYTES = 64 * 1024 * 1024;
const TAIL_SCAN_MS = 1500;

export class SearchRefusal extends Error {}

/** The words of `text` as the index's tokenizer (unicode61, diacritics removed, case folded) cuts them. */
export function words(text: string): string[] {
  return (
    text
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .toLowerCase()
      .match(/[\p{L}\p{N}\p{Co}]+/gu) ?? []
  );
}

/**
 * The FTS5 queries for a plain pattern: `strict`, its words as one phrase; `loose`, each word anywhere in the block
 * (the same query for one word). The last word is a prefix when the pattern ends in a word.
 */
export function ftsQuery(pattern: string): { readonly strict: string; readonly loose: string } | undefined {
  const found = words(pattern);
  if (found.length === 0) return undefined;
  const star = /[\p{L}\p{N}\p{M}\p{Co}]$/u.test(pattern) ? '*' : '';
  return {
    strict: `"${found.join(' ')}"${star}`,
    loose: found.map((word, i) => `"${word}"${i === found.length - 1 ? star : ''}`).join(' AND '),
  };
}

export async function search(index: SearchIndex, query: SearchQuery): Promise<SearchPage> {
  const match = ftsQuery(query.pattern);
  if (match === undefined)
    throw new SearchRefusal(
      'a search across descriptors needs a pattern with at least one word (letters or digits): the index finds words',
    );
  const matcher = compileMatcher(query.pattern, false, query.caseSensitive);
  const filter = filterSql(query);
  const want = query.offset + query.limit;
  // The words anywhere in a block are found faster than as a phrase (FTS5 checks a phrase's positions in every block
  // it ranks: 300 ms for two common words in 2 GB, against 45 ms). Every line is tested for the pattern anyway, so
  // the loose query only risks filling the window with blocks where the words are apart: then the phrase decides.
  let page = searchWith(index, query, match.loose, matcher, filter, want);
  if (match.loose !== match.strict && page.windowFull && page.hits.length < query.limit)
    page = searchWith(index, query, match.strict, matcher, filter, want);
  return page;
}

function searchWith(
  index: SearchIndex,
  query: SearchQuery,
  match: string,
  matcher: Matcher,
  filter: FilterSql,
  want: number,
): SearchPage {
  const candidates = rankedCandidates(index, match, filter);
  // Past the window, counting every matching block costs as much as ranking them all (a phrase common in 2 GB:
  // 250 ms): the page says "more than" instead.
  const blocks = candidates.length;
  const hits: SearchHit[] = [];
  let matches = 0;
  // What is not indexed yet is the newest output: scanned first, its hits before the ranked ones.
  const tails = scanTails(index, query, matcher, filter, want, (hit) => hits.push(hit));
  matches += tails.matches;

  let verified = 0;
  const countUntil = { deadline: Number.POSITIVE_INFINITY };
  for (const candidate of candidates) {
    if (hits.length >= want && countUntil.deadline === Number.POSITIVE_INFINITY)
      countUntil.deadline = Date.now() + COUNT_MS;
    if (Date.now() > countUntil.deadline) break;
    const found = hitsInBlock(index, candidate.id, matcher, hits.length < want ? query.context : -1);
    matches += found.matches;
    for (const hit of found.hits) if (hits.length < want) hits.push(hit);
    verified++;
  }
  const allVerified = verified === candidates.length;
  return {
    hits: hits.slice(query.offset, want),
    matches,
    exact: allVerified && candidates.length < CANDIDATES && tails.unsearchedBytes === 0,
    blocks,
    more: matches > want || !allVerified,
    windowFull: candidates.length >= CANDIDATES,
    unsearchedBytes: tails.unsearchedBytes,
  };
}

/** The newest `CANDIDATES` blocks holding the query's words that `filter` allows, best (BM25) first. */
function rankedCandidates(index: SearchIndex, match: string, filter: FilterSql): { id: number; score: number }[] {
  return index
    .query(
      `SELECT f.rowid AS id, bm25(fts) AS score FROM ${matchingBlocks(filter)} ORDER BY f.rowid DESC LIMIT ?`,
      match,
      ...filter.params,
      CANDIDATES,
    )
    .map((row) => ({ id: Number(row['id']), score: Number(row['score']) }))
    .sort((a, b) => a.score - b.score || b.id - a.id);
}

export interface FilterSql {
  /** ` AND ...` over `c` (contents) and `s` (sessions), or ''. */
  readonly contentClause: string;
  readonly params: SqlValue[];
}

/**
 * The FROM and WHERE of the blocks matching an FTS5 query (its one parameter, before `filter`'s), as `fts f`.
 * Filtered, the FTS5 table drives the join and each matching block is looked up by its key: a filter written as
 * `f.rowid IN (SELECT ...)` made SQLite ask FTS5 once per block of the filtered contents, a full query each time
 * (28 s instead of 21 ms for one session of 20 MB).
 */
export function matchingBlocks(filter: FilterSql): string {
  if (filter.contentClause === '') return 'fts f WHERE fts MATCH ?';
  return `fts f CROSS JOIN blocks b ON b.id = f.rowid CROSS JOIN contents c ON c.id = b.content_id
    CROSS JOIN sessions s ON s.id = c.session WHERE fts MATCH ?${filter.contentClause}`;
}

export function filterSql(filters: SearchFilters): FilterSql {
  const clauses: string[] = [];
  const params: SqlValue[] = [];
  if (filters.sessions !== undefined) {
    // By id, or by exact name (trimmed, case-insensitive), as the `session` argument names a session.
    const each = filters.sessions.map(() => '(c.session = ? OR lower(trim(s.name)) = lower(trim(?)))');
    clauses.push(`(${each.join(' OR ') || '0'})`);
    for (const session of filters.sessions) params.push(session, session);
  }
  if (filters.handles !== undefined) {
    clauses.push(`c.handle IN (${filters.handles.map(() => '?').join(', ') || 'NULL'})`);
    params.push(...filters.handles);
  }
  if (filters.origin !== undefined) {
    clauses.push("(s.origin = ? OR s.origin = 'agent:' || ? OR lower(s.origin_label) = lower(?))");
    params.push(filters.origin, filters.origin, filters.origin);
  }
  if (filters.command !== undefined) {
    clauses.push("c.cmd LIKE ? ESCAPE '\\'");
    params.push(`%${filters.command.replace(/[\\%_]/g, '\\$&')}%`);
  }
  if (filters.sinceMs !== undefined) {
    clauses.push('c.created_ms >= ?');
    params.push(filters.sinceMs);
  }
  if (filters.untilMs !== undefined) {
    clauses.push('c.created_ms <= ?');
    params.push(filters.untilMs);
  }
  if (clauses.length === 0) return { contentClause: '', params };
  return { contentClause: ` AND ${clauses.join(' AND ')}`, params };
}

/** A hit's description from its content. */
function hitOf(content: ContentRow, line: number, text: string, before: HitLine[], after: HitLine[]): SearchHit {
  return {
    session: content.session,
    sessionName: content.sessionName,
    handle: content.handle,
    origin: content.origin,
    originLabel: content.originLabel,
    command: content.command,
    tool: content.tool,
    createdMs: content.createdMs,
    line,
    text,
    before,
    after,
  };
}

/**
 * The lines of block `id` that match, each with `context` lines before and after (read from around the block when
 * a hit is at its edge); a `context` of -1 only counts. A line longer than the index's piece (1 MB) spans blocks:
 * each block tests its part, and the context beyond the margin read around the block is left out.
 */
function hitsInBlock(
  index: SearchIndex,
  id: number,
  matcher: Matcher,
  context: number,
): { matches: number; hits: SearchHit[] } {
  const block = index.query(
    `SELECT b.first_line, b.byte_off, b.byte_len, ${CONTENT_SELECT.slice('SELECT '.length)} JOIN blocks b ON b.content_id = c.id WHERE b.id = ?`,
    id,
  )[0];
  if (block === undefined) return { matches: 0, hits: [] };
  const content = contentRow(block);
  const offset = Number(block['byte_off']);
  const length = Number(block['byte_len']);
  const margin = context > 0 ? CONTEXT_MARGIN : 0;
  const start = Math.max(0, offset - margin);
  const end = Math.min(content.indexedBytes, offset + length + margin);
  let bytes: Buffer;
  try {
    bytes = readBytes(path.join(index.contentFolder(content.session), content.file), start, end);
  } catch {
    return { matches: 0, hits: [] }; // removed since it was indexed
  }
  const before = lines(bytes.subarray(0, offset - start).toString(content.enc), start > 0, true);
  const body = lines(bytes.subarray(offset - start, offset - start + length).toString(content.enc), false, false);
  const after = lines(bytes.subarray(offset - start + length).toString(content.enc), false, end < content.indexedBytes);
  const firstLine = Number(block['first_line']) + 1;
  const all = [...before, ...body, ...after];
  const bodyStart = before.length;
  let matches = 0;
  const hits: SearchHit[] = [];
  for (let i = 0; i < body.length; i++) {
    const text = body[i] ?? '';
    if (!matcher.test(text)) continue;
    matches++;
    if (context < 0) continue;
    const at = bodyStart + i;
    const line = firstLine + i;
    const around = (from: number, to: number): HitLine[] =>
      all.slice(Math.max(0, from), Math.max(0, to)).map((t, k) => ({
        line: line - (at - Math.max(0, from)) + k,
        text: shownLine(t, 0, false, t.length, 0).text,
      }));
    hits.push(
      hitOf(
        content,
        line,
        shownLine(text, line, true, text.length, matcher.at(text)).text,
        around(at - context, at),
        around(at + 1, at + 1 + context),
      ),
    );
  }
  return { matches, hits };
}

/** The lines of a content's bytes `[indexedBytes, bytes)`, read a megabyte at a time, without line ends. */
function* linesOf(file: string, content: ContentRow): Generator<string> {
  const piece = 1 << 20;
  let carry = '';
  for (let at = content.indexedBytes; at < content.bytes;) {
    let bytes = readBytes(file, at, Math.min(content.bytes, at + piece));
    if (bytes.length === 0) break;
    const last = at + bytes.length >= content.bytes;
    // Cut at the last line end, so no character is split between two pieces (a line longer than a piece: at a
    // character boundary, as the index cuts it).
    if (!last) {
      const cut = bytes.lastIndexOf(0x0a);
      if (cut !== -1) bytes = bytes.subarray(0, cut + 1);
      else bytes = bytes.subarray(0, characterBoundary(bytes, content.enc));
      if (bytes.length === 0) break;
    }
    at += bytes.length;
    const parts = (carry + bytes.toString(content.enc)).split('\n');
    carry = parts.pop() ?? '';
    for (const part of parts) yield part.endsWith('\r') ? part.slice(0, -1) : part;
  }
  if (carry !== '') yield carry.endsWith('\r') ? carry.slice(0, -1) : carry;
}

/**
 * The lines of `text`, without line ends (CRLF too). `dropFirst`: the text starts inside a line, whose part is
 * dropped; `dropLast`: it ends inside one.
 */
function lines(text: string, dropFirst: boolean, dropLast: boolean): string[] {
  if (text.length === 0) return [];
  const parts = text.split('\n');
  if (parts[parts.length - 1] === '') parts.pop();
  else if (dropLast) parts.pop();
  if (dropFirst) parts.shift();
  return parts.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** Scans the not yet indexed bytes of the contents the filters allow, newest first, within a budget. */
function scanTails(
  index: SearchIndex,
  query: SearchQuery,
  matcher: Matcher,
  filter: FilterSql,
  want: number,
  add: (hit: SearchHit) => void,
): { matches: number; unsearchedBytes: number } {
  const pending = index
    .query(
      `${CONTENT_SELECT} WHERE c.indexed_bytes < c.bytes${filter.contentClause} ORDER BY c.id DESC`,
      ...filter.params,
    )
    .map(contentRow);
  let matches = 0;
  let budget = TAIL_SCAN_BYTES;
  let unsearchedBytes = 0;
  let shown = 0;
  const deadline = Date.now() + TAIL_SCAN_MS;
  for (const content of pending) {
    const size = content.bytes - content.indexedBytes;
    if (size > budget || Date.now() > deadline) {
      unsearchedBytes += size;
      continue;
    }
    budget -= size;
    const file = path.join(index.contentFolder(content.session), content.file);
    // Line by line, a piece at a time: memory holds one piece and the context lines, whatever the size.
    const before: HitLine[] = [];
    const open: { hit: HitLine & { shown: string; before: HitLine[] }; after: HitLine[] }[] = [];
    const finish = (entry: (typeof open)[number]): void =>
      add(hitOf(content, entry.hit.line, entry.hit.shown, entry.hit.before, entry.after));
    let number = content.indexedLines;
    try {
      for (const line of linesOf(file, content)) {
        number++;
        const clipped = { line: number, text: shownLine(line, number, false, line.length, 0).text };
        for (const entry of open) entry.after.push(clipped);
        while (open[0] !== undefined && open[0].after.length >= query.context)
          finish(open.shift() as (typeof open)[number]);
        if (matcher.test(line)) {
          matches++;
          if (shown < want) {
            shown++;
            const hit = {
              line: number,
              text: line,
              shown: shownLine(line, number, true, line.length, matcher.at(line)).text,
              before: [...before],
            };
            if (query.context === 0) add(hitOf(content, number, hit.shown, hit.before, []));
            else open.push({ hit, after: [] });
          }
        }
        before.push(clipped);
        if (before.length > query.context) before.shift();
      }
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
    for (const entry of open) finish(entry);
  }
  return { matches, unsearchedBytes };
}
