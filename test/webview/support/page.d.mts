// What the test page defines for the code that the webview tests and bench/webview.mjs run in it (page.evaluate):
// STUB in chatPage.mjs, and the harness round.test.mjs adds. For the type check only (tsconfig.scripts.json).
import type { RefView, RoundView } from '../../../src/core/chat/protocol.js';
import type { PerfSink } from '../../../src/webview/perf.js';
import type { RoundComponent } from '../../../src/webview/round.js';

/**
 * A part of a round as round.test.mjs's harness describes it: Markdown (`markdown`) or a ref frame (the other
 * fields). A test knows which kind it reads, so the frame's fields are typed as a frame has them.
 */
interface RoundPart {
  markdown?: string;
  frame: string | null;
  writing: boolean;
  body: string;
  meta: string;
  nested: (string | null)[];
}

interface RoundShape {
  parts: RoundPart[];
  diagnostics: (string | null)[];
  tools: string[];
  text: string;
  streaming: boolean;
}

declare global {
  /** Every message the webview posted to the extension (the stub's `acquireVsCodeApi`). */
  var __posted: { type: string; [field: string]: unknown }[];
  /** The Content-Security-Policy violations the page reported: directive and blocked URL. */
  var __violations: string[];
  /** The durations of the page's long tasks, in ms. */
  var __longTasks: number[];
  /** The webview's timings: the stub defines them, so the script records them and sets `isIdle`. */
  var __fdrefPerf: Required<PerfSink>;
  /** Set by content that should never run (safety.test.mjs). */
  var __pwned: unknown;
  /** A message handed to the page before it is measured (bench/webview.mjs). */
  var __init: unknown;
  /** round.test.mjs's harness: builds a RoundComponent in the page and describes what it shows. */
  var rounds: {
    ref(text: string, id: string, options?: { version?: number; nested?: boolean; occurrence?: number }): RefView;
    make(view: RoundView | undefined, streaming: boolean): RoundComponent;
    idle(): Promise<void>;
    shown(el: Element): string;
    shape(round: RoundComponent): Promise<RoundShape>;
    fresh(view: RoundView): Promise<RoundShape>;
    rebuilds(): number;
  };
}
