/**
 * The entry point of the worker thread that merges fdref's server into an agent's configuration
 * (`mergeServerEntryOffThread`), bundled alone as dist/agentConfigMerge.js: a configuration can be megabytes
 * (Claude Code keeps its state in `~/.claude.json`), and the extension host's thread must not stop for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors';
import { AgentConfigError, mergeServerEntry, type MergeRequest } from './mergeServerEntry';
import type { MergeReply } from './mergeOffThread';

function reply(): MergeReply {
  try {
    return { kind: 'merged', result: mergeServerEntry(workerData as MergeRequest) };
  } catch (error) {
    return { kind: error instanceof AgentConfigError ? 'refused' : 'failed', message: errorMessage(error) };
  }
}

parentPort?.postMessage(reply());
