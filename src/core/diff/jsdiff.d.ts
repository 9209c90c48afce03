/**
 * The part of jsdiff (`diff` 7, which ships no types) that `unifiedDiff.ts` uses, as its documentation states it:
 * https://github.com/kpdecker/jsdiff#readme. jsdiff 8 ships its own types; this file goes when it is adopted.
 */
declare module 'diff' {
  export interface StructuredPatchHunk {
    oldStart: number;
    oldLines: number;
    newStart: number;
    newLines: number;
    /** Each line with its marker: ' ', '-', '+' or '\' (for "No newline at end of file"). */
    lines: string[];
  }

  export interface StructuredPatch {
    oldFileName: string;
    newFileName: string;
    oldHeader: string | undefined;
    newHeader: string | undefined;
    hunks: StructuredPatchHunk[];
  }

  export interface PatchOptions {
    /** Lines of context around each change (default 4). */
    context?: number;
    /** Compares two lines (with their line ends); by default they must be equal. */
    comparator?: (left: string, right: string) => boolean;
    /** Gives up (returns undefined) once the diff would need more edits than this. */
    maxEditLength?: number;
    /** Gives up (returns undefined) after this many milliseconds. */
    timeout?: number;
  }

  /** The hunks between two texts, or undefined when `maxEditLength` or `timeout` cut the work short. */
  export function structuredPatch(
    oldFileName: string,
    newFileName: string,
    oldStr: string,
    newStr: string,
    oldHeader: string | undefined,
    newHeader: string | undefined,
    options: PatchOptions,
  ): StructuredPatch | undefined;
}
