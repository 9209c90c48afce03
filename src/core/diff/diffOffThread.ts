/**
 * `unifiedDiff` off the calling thread: the extension host and the MCP server must not stall on a large or
 * pathological pair, so the diff runs on a worker thread (dist/diffWorker.js, from `diffWorker.ts`), ended at
 * `DIFF_TIMEOUT_MS`. Only a pair too small to take long is diffed in place, where a worker's start would cost more.
 */
import { runOnWorker, type WorkerEnd } from '../workers/workerRun';
import type { DiffJob, DiffReply } from './diffJob';
import { DIFF_TIMEOUT_MS, type DiffOptions, type DiffOutcome, lineCount, unifiedDiff } from './unifiedDiff';

/**
 * The largest pair diffed on the calling thread: at most 100 lines and 16,000 characters on both sides together,
 * and no ignore pattern (a regular expression can backtrack for long on a short text). Measured on the 2-core
 * machine, busy: the worst such pair (every line different, long lines sharing their start, ignoring whitespace)
 * diffs in 1 to 7 ms once the code is warm, while starting the bundled worker and getting its answer takes 35 to
 * 110 ms; 200 lines already take up to 17 ms, past the frame the extension host may be held for.
 */
export const IN_THREAD_MAX_LINES = 100;
export const IN_THREAD_MAX_CHARS = 16_000;
/** The most the diff worker's heap may grow to: two sides of `MAX_DIFF_SIDE_CHARS`, split into lines, and jsdiff's paths. */
const DIFF_WORKER_HEAP_MB = 512;

/** Why the worker gave no outcome. */
class DiffWorkerEnded extends Error {
  constructor(readonly end: WorkerEnd) {
    super(
      end.kind === 'timeout'
        ? `the diff ran longer than ${DIFF_TIMEOUT_MS / 1000} s`
        : end.kind === 'exit'
          ? `the diff worker stopped (exit code ${end.code})`
          : end.kind === 'memory'
            ? `the diff used up its memory (${end.message})`
            : `the diff worker failed: ${end.message}`,
    );
  }
}

/** Whether `a` and `b` are diffed in place (see `IN_THREAD_MAX_LINES`). */
export function diffsInThread(a: string, b: string, options: DiffOptions): boolean {
  return (
    options.ignorePattern === undefined &&
    a.length + b.length <= IN_THREAD_MAX_CHARS &&
    lineCount(a) + lineCount(b) <= IN_THREAD_MAX_LINES
  );
}

/**
 * `unifiedDiff(a, b, options)`, on a worker thread unless the pair is small (`diffsInThread`); a diff that runs
 * past `DIFF_TIMEOUT_MS` is stopped there and is `too_different`, as jsdiff's own time limit gives it. Rejects
 * when the worker fails otherwise (its memory used up).
 */
export async function diffOffThread(a: string, b: string, options: DiffOptions): Promise<DiffOutcome> {
  if (diffsInThread(a, b, options)) return unifiedDiff(a, b, options);
  const { ignorePattern, ...rest } = options;
  const job: DiffJob = {
    a,
    b,
    options: {
      ...rest,
      ...(ignorePattern === undefined
        ? {}
        : { ignorePattern: { source: ignorePattern.source, flags: ignorePattern.flags } }),
    },
  };
  const { result } = runOnWorker<DiffOutcome>({
    dir: __dirname,
    name: 'diffWorker',
    workerData: job,
    timeoutMs: DIFF_TIMEOUT_MS,
    heapMb: DIFF_WORKER_HEAP_MB,
    onMessage: (raw, reply) => {
      const message = raw as DiffReply;
      if (message.kind === 'outcome') reply.resolve(message.outcome);
      else reply.reject(new DiffWorkerEnded({ kind: 'crashed', message: message.message }));
    },
    failure: (end) => new DiffWorkerEnded(end),
  });
  try {
    return await result;
  } catch (error) {
    if (error instanceof DiffWorkerEnded && error.end.kind === 'timeout') return { kind: 'too_different' };
    throw error;
  }
}
