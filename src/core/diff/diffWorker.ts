/**
 * The worker thread `diff_fd` diffs on (`diffOffThread`), bundled alone as dist/diffWorker.js: jsdiff runs
 * synchronously and an ignore pattern can backtrack for long, so it runs here, where the thread that started it can
 * end it at its time limit. It posts `unifiedDiff`'s outcome once.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type DiffJob, type DiffReply } from './diffJob';
import { unifiedDiff } from './unifiedDiff';

const job = workerData as DiffJob;
let reply: DiffReply;
try {
  const { ignorePattern, ...options } = job.options;
  reply = {
    kind: 'outcome',
    outcome: unifiedDiff(job.a, job.b, {
      ...options,
      ...(ignorePattern === undefined ? {} : { ignorePattern: new RegExp(ignorePattern.source, ignorePattern.flags) }),
    }),
  };
} catch (error) {
  reply = { kind: 'failed', message: error instanceof Error ? error.message : String(error) };
}
parentPort?.postMessage(reply);
