/**
 * Runs a jq program over a text on a worker thread (`jqWorker.ts`): the thread that asks (the extension host, the
 * MCP server) never runs jq itself, a program that loops is ended at the time limit, and jq's memory is bounded.
 */
import { runOnWorker } from '../workers/workerRun';
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

/** jq's output for `run` (values one to a line, compact), or a {@link JqFailure}. */
export async function runJqOffThread(run: JqRun): Promise<string> {
  const job: JqJob = {
    program: run.program,
    lines: run.lines,
    slurp: run.slurp,
    raw: run.raw,
    maxOutputChars: run.maxOutputChars,
    batchChars: run.batchChars,
  };
  /** Pieces posted and not yet taken: the feed waits at `MAX_PIECES_IN_FLIGHT`, so the text is never all queued. */
  let inFlight = 0;
  let taken: () => void = () => undefined;
  const { result, control } = runOnWorker<string>({
    dir: __dirname,
    name: 'jqWorker',
    workerData: job,
    timeoutMs: run.timeoutMs,
    heapMb: run.heapMb,
    onMessage: (raw, reply) => {
      const message = raw as JqReply | { kind: 'took' };
      if (message.kind === 'took') {
        inFlight--;
        taken();
      } else if (message.kind === 'done') reply.resolve(message.output);
      else reply.reject(new JqFailure(message.kind, message.message));
    },
    failure: (end) => {
      if (end.kind === 'timeout') return new JqFailure('timeout', `jq ran longer than ${run.timeoutMs / 1000} s`);
      if (end.kind === 'exit') return new JqFailure('crashed', `the jq worker stopped (exit code ${end.code})`);
      return new JqFailure(end.kind, end.message);
    },
    onSettle: () => taken(),
  });
  // The text is handed over while the worker runs, and no longer once the run has ended either way.
  const feed = async (): Promise<void> => {
    for await (const text of run.pieces) {
      if (control.settled) return;
      while (inFlight >= MAX_PIECES_IN_FLIGHT && !control.settled)
        await new Promise<void>((resolve) => (taken = resolve));
      if (control.settled) return;
      inFlight++;
      control.post({ kind: 'text', text } satisfies JqPiece);
    }
    if (!control.settled) control.post({ kind: 'end' } satisfies JqPiece);
  };
  const fed = feed().catch((error: unknown) => {
    control.reject(
      new JqFailure('crashed', `the text could not be read: ${error instanceof Error ? error.message : String(error)}`),
    );
  });
  const output = await result;
  await fed;
  return output;
}

/** Pieces of text handed to the worker and not yet taken, at most. */
const MAX_PIECES_IN_FLIGHT = 8;
