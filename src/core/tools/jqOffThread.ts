/**
 * Runs a jq program over a text on a worker thread (`jqWorker.ts`): the thread that asks (the extension host, the
 * MCP server) never runs jq itself, a program that loops is ended at the time limit, and jq's memory is bounded.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import type { JqJob, JqPiece, JqReply } from './jqWorker';

/** Why a run gave no output: what the model is told comes from `kind` and jq's own message. */
export class JqFailure extends Error {
  constructor(
    readonly kind: Exclude<JqReply['kind'], 'done'> | 'timeout' | 'crashed',
    message: string,
  ) {
    super(message);
  }
}

export interface JqRun extends JqJob {
  /** The text, in pieces (a stored content's chunks): handed to the worker as they come. */
  readonly pieces: AsyncIterable<string> | Iterable<string>;
  readonly timeoutMs: number;
  /** The most the worker's JavaScript heap may grow to (jq's own memory is the wasm build's 256 MB). */
  readonly heapMb: number;
}

/**
 * The worker's file: dist/jqWorker.js beside the bundle that runs this (the extension's, the MCP server's), or the
 * TypeScript source loaded through tsx where the code runs from source (the unit tests).
 */
function workerFile(): { file: string; options: WorkerOptions } {
  // As the extension ships it, or as the copy of the MCP server agents run has it beside itself (agents/launcher.ts).
  for (const name of ['jqWorker.js', 'fdref-jqWorker.js']) {
    const bundled = path.join(__dirname, name);
    if (fs.existsSync(bundled)) return { file: bundled, options: {} };
  }
  return {
    file: path.join(__dirname, 'jqWorker.ts'),
    // Found from the working folder (the repository's), so the bundles keep no reference to tsx.
    options: { execArgv: ['--require', 'tsx/cjs'] },
  };
}

/** jq's output for `run` (values one to a line, compact), or a {@link JqFailure}. */
export async function runJqOffThread(run: JqRun): Promise<string> {
  const { file, options } = workerFile();
  const job: JqJob = {
    program: run.program,
    lines: run.lines,
    slurp: run.slurp,
    raw: run.raw,
    maxOutputChars: run.maxOutputChars,
    batchChars: run.batchChars,
  };
  const worker = new Worker(file, {
    ...options,
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: run.heapMb, maxYoungGenerationSizeMb: 32 },
    stdout: true,
    stderr: true,
  });
  let settled = false;
  let fail: (failure: JqFailure) => void = () => undefined;
  /** Pieces posted and not yet taken: the feed waits at `MAX_PIECES_IN_FLIGHT`, so the text is never all queued. */
  let inFlight = 0;
  let taken: () => void = () => undefined;
  const reply = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      fail(new JqFailure('timeout', `jq ran longer than ${run.timeoutMs / 1000} s`));
    }, run.timeoutMs);
    const settle = (): void => {
      settled = true;
      clearTimeout(timer);
      taken();
      void worker.terminate();
    };
    fail = (failure) => {
      if (settled) return;
      settle();
      reject(failure);
    };
    worker.on('message', (message: JqReply | { kind: 'took' }) => {
      if (message.kind === 'took') {
        inFlight--;
        taken();
        return;
      }
      if (message.kind !== 'done') return fail(new JqFailure(message.kind, message.message));
      if (settled) return;
      settle();
      resolve(message.output);
    });
    worker.once('error', (error: Error & { code?: string }) => {
      const memory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      fail(new JqFailure(memory ? 'memory' : 'crashed', error.message));
    });
    worker.once('exit', (code) => fail(new JqFailure('crashed', `the jq worker stopped (exit code ${code})`)));
  });
  // The text is handed over while the worker runs, and no longer once the run has ended either way.
  const feed = async (): Promise<void> => {
    for await (const text of run.pieces) {
      if (settled) return;
      while (inFlight >= MAX_PIECES_IN_FLIGHT && !settled) await new Promise<void>((resolve) => (taken = resolve));
      if (settled) return;
      inFlight++;
      worker.postMessage({ kind: 'text', text } satisfies JqPiece);
    }
    if (!settled) worker.postMessage({ kind: 'end' } satisfies JqPiece);
  };
  const fed = feed().catch((error: unknown) => {
    fail(
      new JqFailure('crashed', `the text could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  const output = await reply;
  await fed;
  return output;
}

/** Pieces of text handed to the worker and not yet taken, at most. */
const MAX_PIECES_IN_FLIGHT = 8;
