/**
 * What sizes a tool's answer on a surface whose results must stay under a number of characters (the MCP server's
 * budget per client, VS Code's language model tools): pages, and the longest output returned as it is. One rule,
 * so that a page or an inline output with its XML always fits the result it is part of.
 */
import { resolveOptions } from './options';

const CORE = resolveOptions();
/** The fewest characters a page has, however small the limit. */
const MIN_PAGE_SIZE = 200;
/** Room a result needs beside the text it carries: its XML element, attributes and message. */
const RESULT_ROOM = 1500;

/** Pages sized so a page with its XML and message fits in `limit`: the core's 4,000 when there is room. */
export function pageSizeFor(limit: number): number {
  return Math.max(MIN_PAGE_SIZE, Math.min(CORE.pageSize, Math.max(Math.floor(limit / 2), limit - RESULT_ROOM)));
}

/**
 * The longest output returned as it is (`run_command`'s output, `store_text`'s text) under `limit`: the chat's
 * `maxDirectOutputChars` (8,000) when there is room for it and its XML, else less; a longer one is kept as an `fd:`.
 */
export function inlineCharsFor(limit: number): number {
  return Math.max(0, Math.min(CORE.maxDirectOutputChars, limit - RESULT_ROOM));
}

/** How one surface sizes its results under `resultChars`. */
export interface ResultSizes {
  /** The most characters one result holds. */
  readonly resultChars: number;
  readonly pageSize: number;
  readonly inlineChars: number;
}

export function resultSizes(resultChars: number): ResultSizes {
  return { resultChars, pageSize: pageSizeFor(resultChars), inlineChars: inlineCharsFor(resultChars) };
}
