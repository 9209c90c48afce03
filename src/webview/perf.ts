/**
 * Timings for the benchmark (bench/webview.mjs). Recorded only when the page defines
 * `window.__fdrefPerf` before the script runs; VS Code's page does not, so nothing accumulates there.
 */
export interface PerfSink {
  /** Time spent handling each message from the extension, in ms. */
  handler: number[];
  /** Time spent in each animation frame's rendering, in ms. */
  frames: number[];
  /** Rounds whose final refs differed from what streaming built, so they were rendered again. */
  rebuilds?: number;
  /** Set by the script: whether no rendering work is pending. */
  isIdle?: () => boolean;
}

declare global {
  interface Window {
    __fdrefPerf?: PerfSink;
  }
}

export const perf: PerfSink | undefined = window.__fdrefPerf;
