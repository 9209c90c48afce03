/**
 * The entry point of the worker thread that merges fdref's server into an agent's configuration
 * (`mergeServerEntryOffThread`) or makes Connect an Agent's whole plan (`planOffThread`), bundled alone as
 * dist/agentConfigMerge.js: a configuration can be megabytes (Claude Code keeps its state in `~/.claude.json`), and
 * the extension host's thread must not stop for it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors';
import { connectPlan, disconnectPlan } from './connectPlan';
import { AgentConfigError, mergeServerEntry, type MergeRequest } from './mergeServerEntry';
import type { MergeReply, PlanReply, PlanRequest } from './mergeOffThread';

function plan(request: PlanRequest): PlanReply {
  const read = (file: string): string | undefined => request.texts[file];
  const { agent, scope, locations, launches } = request;
  if (request.plan === 'disconnect') return { kind: 'planned', result: disconnectPlan(agent, scope, locations, read) };
  if (launches === undefined) throw new Error('a connect plan without the command lines');
  return { kind: 'planned', result: connectPlan(agent, scope, locations, launches, read) };
}

function reply(): MergeReply | PlanReply {
  try {
    const data = workerData as MergeRequest | PlanRequest;
    return 'plan' in data ? plan(data) : { kind: 'merged', result: mergeServerEntry(data) };
  } catch (error) {
    return { kind: error instanceof AgentConfigError ? 'refused' : 'failed', message: errorMessage(error) };
  }
}

parentPort?.postMessage(reply());
