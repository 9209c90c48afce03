/**
 * A unified diff of two texts, bounded in time and memory: jsdiff's Myers diff (O(ND)) with a cap on the inputs'
 * size and on the edits it may look for, so a pair too large or too different to diff gives a clear error rather
 * than a stalled process. No `vscode`, no store: `diff_fd` reads the two sides and calls this.
 */
import { structuredPatch, type StructuredPatchHunk } from 'diff';

/** Lines of context around each change by default (as `diff -u` and `git diff`), and at most. */
export const DEFAULT_DIFF_CONTEXT = 3;
export const MAX_DIFF_CONTEXT = 100;
/** The most characters one side may hold: read whole into memory, twice over with its lines. */
export const MAX_DIFF_SIDE_CHARS = 10_000_000;
/** The most lines one side may hold. */
export const MAX_DIFF_SIDE_LINES = 200_000;
/**
 * The most lines added plus removed the diff looks for. Myers' work grows with the square of this when the sides
 * differ everywhere, so it is what keeps a pathological pair (two unrelated logs) to about two seconds on a slow machine (measured: 2,000 edits 0.8 s, 3,000 edits 2 s).
 */
export const MAX_DIFF_EDITS = 3_000;
/** How long the diff may run before it gives up, whatever the cap on edits allowed (a slow machine). */
export const DIFF_TIMEOUT_MS = 3_000;
/**
 * The part of a line the ignore pattern is run on. JavaScript's regular expressions backtrack without bound, so a
 * pattern such as `(a+)+b` could take long on a long line; the same cap as `search_fd`'s. The rest of a longer line
 * is compared as it is.
 */
export const MAX_IGNORE_LINE_CHARS = 10_000;

export interface DiffOptions {
  /** What each side is called in the `---` and `+++` lines. */
  readonly aLabel: string;
  readonly bLabel: string;
  readonly context?: number;
  /** Lines that differ only in the amount of whitespace (spaces, tabs, a CR before the line end) are equal. */
  readonly ignoreWhitespace?: boolean;
  /**
   * The parts of each line that match this (a global regular expression) are left out when lines are compared, so
   * lines differing only in a timestamp or a duration are equal; a pattern matching whole lines makes every such
   * line equal to every other. The diff shows the lines as they are (a line in both, as it is in `a`).
   */
  readonly ignorePattern?: RegExp;
}

export interface DiffCounts {
  readonly added: number;
  readonly removed: number;
  readonly hunks: number;
}

/** What `unifiedDiff` found. */
export type DiffOutcome =
  | ({ readonly kind: 'identical' } & DiffCounts)
  | ({ readonly kind: 'different'; readonly text: string } & DiffCounts)
  | { readonly kind: 'too_large'; readonly side: 'a' | 'b'; readonly chars: number; readonly lines: number }
  | { readonly kind: 'too_different' };

/**
 * The unified diff from `a` to `b` (the `---`/`+++` lines, then each hunk as `@@ -start,count +start,count @@`
 * and its lines marked ' ', '-' or '+'), or `identical` when no line differs under the options (then the texts may
 * still differ in what the options ignore). `too_large` when a side passes `MAX_DIFF_SIDE_CHARS` or
 * `MAX_DIFF_SIDE_LINES` (checked before any work), `too_different` when more than `MAX_DIFF_EDITS` lines differ or
 * the work passes `DIFF_TIMEOUT_MS`. Runs synchronously, for up to that long: a thread that must stay free calls
 * `diffOffThread`, which runs it on a worker.
 */
export function unifiedDiff(a: string, b: string, options: DiffOptions): DiffOutcome {
  for (const [side, text] of [
    ['a', a],
    ['b', b],
  ] as const) {
    const lines = lineCount(text);
    if (text.length > MAX_DIFF_SIDE_CHARS || lines > MAX_DIFF_SIDE_LINES)
      return { kind: 'too_large', side, chars: text.length, lines };
  }
  const comparator = lineComparator(options);
  const patch = structuredPatch(options.aLabel, options.bLabel, a, b, undefined, undefined, {
    context: options.context ?? DEFAULT_DIFF_CONTEXT,
    maxEditLength: MAX_DIFF_EDITS,
    timeout: DIFF_TIMEOUT_MS,
    ...(comparator === undefined ? {} : { comparator }),
  });
  if (patch === undefined) return { kind: 'too_different' };
  const counts = countChanges(patch.hunks);
  if (patch.hunks.length === 0) return { kind: 'identical', ...counts };
  const text = [`--- ${options.aLabel}`, `+++ ${options.bLabel}`, ...patch.hunks.flatMap(hunkLines)].join('\n') + '\n';
  return { kind: 'different', text, ...counts };
}

/** Lines as `Content` counts them: one per line break, and one for text after the last; none in an empty text. */
export function lineCount(text: string): number {
  if (text.length === 0) return 0;
  let count = 1;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return text.endsWith('\n') ? count - 1 : count;
}

/** A hunk's header and lines; an empty side's start is one lower, as the unified format has it (`@@ -0,0 +1,2 @@`). */
function hunkLines(hunk: StructuredPatchHunk): string[] {
  const oldStart = hunk.oldLines === 0 ? hunk.oldStart - 1 : hunk.oldStart;
  const newStart = hunk.newLines === 0 ? hunk.newStart - 1 : hunk.newStart;
  return [`@@ -${oldStart},${hunk.oldLines} +${newStart},${hunk.newLines} @@`, ...hunk.lines];
}

function countChanges(hunks: readonly StructuredPatchHunk[]): DiffCounts {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed, hunks: hunks.length };
}

/**
 * How two lines (each with its line end, as jsdiff gives them) compare under the options; undefined when they must
 * be equal as they are. Each distinct line's key is worked out once: jsdiff compares a line many times.
 */
function lineComparator(options: DiffOptions): ((left: string, right: string) => boolean) | undefined {
  const { ignorePattern, ignoreWhitespace = false } = options;
  if (ignorePattern === undefined && !ignoreWhitespace) return undefined;
  const keys = new Map<string, string>();
  const keyOf = (line: string): string => {
    let key = keys.get(line);
    if (key === undefined) {
      key = line.replace(/\r?\n$/, '');
      // A NUL stands for each ignored part: no line holds one where a match was, so "a1b" and "ab" stay apart.
      if (ignorePattern !== undefined)
        key = key.slice(0, MAX_IGNORE_LINE_CHARS).replace(ignorePattern, '\0') + key.slice(MAX_IGNORE_LINE_CHARS);
      if (ignoreWhitespace) key = key.replace(/\s+/g, ' ').trim();
      keys.set(line, key);
    }
    return key;
  };
  return (left, right) => left === right || keyOf(left) === keyOf(right);
}
