/**
 * `mergeServerEntry` on a worker thread (dist/agentConfigMerge.js, from `mergeWorker.ts`), so that reading and
 * editing a large configuration never blocks the thread that called it, whatever the file's size.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { AgentConfigError, type MergeRequest, type MergeResult } from './mergeServerEntry';

/** What the worker posts back: the merge, or why it refused the file (an `AgentConfigError`) or failed. */
export type MergeReply =
  | { readonly kind: 'merged'; readonly result: MergeResult }
  | { readonly kind: 'refused' | 'failed'; readonly message: string };

/**
 * The merge `mergeServerEntry(request)` would give, made on a worker thread started from `workerFile`; rejects with
 * {@link AgentConfigError} for a file it will not edit, as `mergeServerEntry` throws it. `options` are the
 * worker's (a test gives the `execArgv` that loads TypeScript).
 */
export function mergeServerEntryOffThread(
  request: MergeRequest,
  workerFile: string,
  options: Omit<WorkerOptions, 'workerData'> = {},
): Promise<MergeResult> {
  return new Promise((resolve, reject) => {
    let replied = false;
    const worker = new Worker(workerFile, { ...options, workerData: request });
    worker.once('message', (reply: MergeReply) => {
      replied = true;
      if (reply.kind === 'merged') resolve(reply.result);
      else if (reply.kind === 'refused') reject(new AgentConfigError(reply.message));
      else reject(new Error(`merging fdref into ${request.fileLabel} failed: ${reply.message}; nothing was written`));
    });
    worker.once('error', (error) => {
      replied = true;
      reject(new Error(`merging fdref into ${request.fileLabel} failed: ${error.message}; nothing was written`));
    });
    worker.once('exit', (code) => {
      if (!replied)
        reject(new Error(`merging fdref into ${request.fileLabel} stopped (exit code ${code}); nothing was written`));
    });
  });
}
