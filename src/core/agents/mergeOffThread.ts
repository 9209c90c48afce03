/**
 * `mergeServerEntry`, and Connect an Agent's whole plan (`connectPlan.ts`), on a worker thread
 * (dist/agentConfigMerge.js, from `mergeWorker.ts`), so that reading and editing a large configuration never blocks
 * the thread that called it, whatever the file's size.
 */
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { ConnectAgentId, ConnectLaunches, ConnectLocations, ConnectPlan } from './connectPlan';
import type { HookScope } from './hooks/hookAgents';
import { AgentConfigError, type MergeRequest, type MergeResult } from './mergeServerEntry';

/** What the worker posts back: the merge, or why it refused the file (an `AgentConfigError`) or failed. */
export type MergeReply =
  | { readonly kind: 'merged'; readonly result: MergeResult }
  | { readonly kind: 'refused' | 'failed'; readonly message: string };

/** A plan to make on the worker: Connect's (with `launches`) or Disconnect's, over the files' texts as read. */
export interface PlanRequest {
  readonly plan: 'connect' | 'disconnect';
  readonly agent: ConnectAgentId;
  readonly scope: HookScope;
  readonly locations: ConnectLocations;
  readonly launches?: ConnectLaunches;
  /** Each planned file's text, by path (undefined: no file). */
  readonly texts: Readonly<Record<string, string | undefined>>;
}

export type PlanReply =
  | { readonly kind: 'planned'; readonly result: ConnectPlan }
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
  return onWorker<MergeResult>(request, workerFile, `merging fdref into ${request.fileLabel}`, options);
}

/** `connectPlan`/`disconnectPlan` on a worker thread, as {@link mergeServerEntryOffThread} makes a merge. */
export function planOffThread(
  request: PlanRequest,
  workerFile: string,
  options: Omit<WorkerOptions, 'workerData'> = {},
): Promise<ConnectPlan> {
  return onWorker<ConnectPlan>(request, workerFile, `planning fdref's entries for ${request.agent}`, options);
}

function onWorker<T>(
  data: unknown,
  workerFile: string,
  what: string,
  options: Omit<WorkerOptions, 'workerData'>,
): Promise<T> {
  return new Promise((resolve, reject) => {
    let replied = false;
    const worker = new Worker(workerFile, { ...options, workerData: data });
    worker.once('message', (reply: { kind: string; result?: T; message?: string }) => {
      replied = true;
      if (reply.kind === 'merged' || reply.kind === 'planned') resolve(reply.result as T);
      else if (reply.kind === 'refused') reject(new AgentConfigError(reply.message ?? ''));
      else reject(new Error(`${what} failed: ${reply.message}; nothing was written`));
    });
    worker.once('error', (error) => {
      replied = true;
      reject(new Error(`${what} failed: ${error.message}; nothing was written`));
    });
    worker.once('exit', (code) => {
      if (!replied) reject(new Error(`${what} stopped (exit code ${code}); nothing was written`));
    });
  });
}
