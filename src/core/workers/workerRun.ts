/**
 * One run of a worker thread that a tool's work is done on (`query_fd`'s jq, `diff_fd`'s diff), so the thread that
 * asks (the extension host, the MCP server) never runs that work itself: the worker is started from its bundle
 * beside the caller's, ended at a time limit, its heap bounded, and ended once the run has settled either way.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/** How a run ended without the worker's answer. */
export type WorkerEnd =
  | { readonly kind: 'timeout' }
  | { readonly kind: 'memory' | 'crashed'; readonly message: string }
  | { readonly kind: 'exit'; readonly code: number };

/** What `onMessage` may do with the run. */
export interface WorkerControl<R> {
  resolve(value: R): void;
  reject(error: Error): void;
  /** Whether the run has settled (the worker is then being ended). */
  readonly settled: boolean;
  post(message: unknown): void;
}

export interface WorkerSpec<R> {
  /** The folder of the code that starts the worker (its `__dirname`): the worker is looked for there. */
  readonly dir: string;
  /** The worker's name: `<name>.js` as bundled, `fdref-<name>.js` beside an agent's launcher, `<name>.ts` in source. */
  readonly name: string;
  readonly workerData: unknown;
  readonly timeoutMs: number;
  /** The most the worker's JavaScript heap may grow to. */
  readonly heapMb: number;
  /** A message the worker posted: settle the run with `control`, or wait for more. */
  readonly onMessage: (message: unknown, control: WorkerControl<R>) => void;
  /** The error a run that ended without the worker's answer rejects with. */
  readonly failure: (end: WorkerEnd) => Error;
  /** Called once when the run settles, either way (before the promise's callbacks run). */
  readonly onSettle?: () => void;
}

/**
 * The worker's file: `<name>.js` beside the bundle that runs this (the extension's, the MCP server's), or the
 * TypeScript source loaded through tsx where the code runs from source (the unit tests).
 */
export function workerFile(dir: string, name: string): { file: string; options: WorkerOptions } {
  // As the extension ships it, or as the copy of the MCP server agents run has it beside itself (agents/launcher.ts).
  for (const bundledName of [`${name}.js`, `fdref-${name}.js`]) {
    const bundled = path.join(dir, bundledName);
    if (fs.existsSync(bundled)) return { file: bundled, options: {} };
  }
  return {
    file: path.join(dir, `${name}.ts`),
    // Found from the working folder (the repository's), so the bundles keep no reference to tsx.
    options: { execArgv: ['--require', 'tsx/cjs'] },
  };
}

/** Starts the worker `spec` names; `result` settles with what `onMessage` gives, or with `failure`'s error. */
export function runOnWorker<R>(spec: WorkerSpec<R>): { result: Promise<R>; control: WorkerControl<R> } {
  const { file, options } = workerFile(spec.dir, spec.name);
  const worker = new Worker(file, {
    ...options,
    workerData: spec.workerData,
    resourceLimits: { maxOldGenerationSizeMb: spec.heapMb, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  let settled = false;
  let resolveResult: (value: R) => void = () => undefined;
  let rejectResult: (error: Error) => void = () => undefined;
  const result = new Promise<R>((resolve, reject) => {
    resolveResult = resolve;
    rejectResult = reject;
  });
  const timer = setTimeout(() => control.reject(spec.failure({ kind: 'timeout' })), spec.timeoutMs);
  const settle = (): boolean => {
    if (settled) return false;
    settled = true;
    clearTimeout(timer);
    spec.onSettle?.();
    // Ended whatever it is doing: a run past its time limit is stopped here, in the middle of its work.
    void worker.terminate();
    return true;
  };
  const control: WorkerControl<R> = {
    resolve: (value) => {
      if (settle()) resolveResult(value);
    },
    reject: (error) => {
      if (settle()) rejectResult(error);
    },
    get settled() {
      return settled;
    },
    post: (message) => worker.postMessage(message),
  };
  worker.on('message', (message: unknown) => {
    if (!settled) spec.onMessage(message, control);
  });
  worker.once('error', (error: Error & { code?: string }) => {
    const kind = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'memory' : 'crashed';
    control.reject(spec.failure({ kind, message: error.message }));
  });
  worker.once('exit', (code) => control.reject(spec.failure({ kind: 'exit', code })));
  return { result, control };
}
