/**
 * The worker thread `query_fd` runs jq on (`runJqOffThread`), bundled alone as dist/jqWorker.js with jq 1.8 compiled
 * to WebAssembly (the jq-wasm package, its bytes inlined: nothing to fetch or locate). jq runs synchronously, so it
 * runs here, where the thread that started it can end it at its time limit; its memory is bounded by the wasm
 * build (256 MB) and the worker's `resourceLimits`.
 *
 * The parent posts the text in pieces (`JqPiece`) and then `end`. In `lines` mode every line is a value of its own
 * (JSON Lines), so jq runs on each batch of whole lines as it arrives and the text is never held whole; otherwise
 * jq runs once on all of it (one document, or `slurp`).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadJq, type Jq } from 'jq-wasm/inline';

export interface JqJob {
  readonly program: string;
  /** Each line a value, run on in batches (JSON Lines without slurp). */
  readonly lines: boolean;
  readonly slurp: boolean;
  /** jq's -r: strings as their text. */
  readonly raw: boolean;
  /** The longest output kept; past it the run stops. */
  readonly maxOutputChars: number;
  /** Characters of whole lines that make one batch in `lines` mode. */
  readonly batchChars: number;
}

export type JqPiece = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'end' };

export type JqReply =
  | { readonly kind: 'done'; readonly output: string }
  | { readonly kind: 'compile' | 'parse' | 'runtime' | 'memory' | 'output'; readonly message: string };

/** What stops a run: the reply to post. */
class Stop extends Error {
  constructor(readonly reply: JqReply) {
    super(reply.kind);
  }
}

const job = workerData as JqJob;
let jq: Jq | undefined;
let pending = '';
/** Lines already run on (lines mode), to give a parse error's line in the whole text. */
let linesDone = 0;
let output = '';
let stopped = false;

function flags(): string[] {
  return ['-c', ...(job.slurp ? ['-s'] : []), ...(job.raw ? ['-r'] : [])];
}

function run(text: string, lineOffset: number): void {
  if (jq === undefined) throw new Error('jq is not loaded');
  let result: { stdout: string; stderr: string; exitCode: number };
  try {
    result = jq.raw(text, job.program, flags());
  } catch (error) {
    // The wasm build aborts when jq's memory (256 MB) is used up.
    throw new Stop({ kind: 'memory', message: error instanceof Error ? error.message : String(error) });
  }
  if (result.stdout !== '') {
    output += (output === '' ? '' : '\n') + result.stdout;
    if (output.length > job.maxOutputChars) throw new Stop({ kind: 'output', message: '' });
  }
  if (result.exitCode === 0) return;
  const stderr = result.stderr.trim();
  if (result.exitCode === 3) throw new Stop({ kind: 'compile', message: stderr });
  if (/^jq: parse error:/m.test(stderr) || /^jq: error \(at <unknown>\)/m.test(stderr))
    throw new Stop({ kind: 'parse', message: shiftLines(stderr, lineOffset) });
  throw new Stop({ kind: 'runtime', message: stderr });
}

/** jq numbers the lines of the batch it was given; the model reads the whole text. */
function shiftLines(message: string, offset: number): string {
  return offset === 0
    ? message
    : message.replace(/at line (\d+), column/g, (_, line: string) => `at line ${Number(line) + offset}, column`);
}

function countLines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

function take(piece: JqPiece): void {
  if (piece.kind === 'text') {
    pending += piece.text;
    if (!job.lines || pending.length < job.batchChars) return;
    const cut = pending.lastIndexOf('\n');
    if (cut === -1) return;
    const batch = pending.slice(0, cut + 1);
    pending = pending.slice(cut + 1);
    run(batch, linesDone);
    linesDone += countLines(batch);
    return;
  }
  if (pending.trim() !== '' || !job.lines) run(pending, linesDone);
  pending = '';
  parentPort?.postMessage({ kind: 'done', output } satisfies JqReply);
  stopped = true;
}

const ready = loadJq().then((loaded) => {
  jq = loaded;
});
let queue: Promise<void> = ready;

parentPort?.on('message', (piece: JqPiece) => {
  queue = queue.then(() => {
    if (stopped) return;
    try {
      take(piece);
      if (piece.kind === 'text') parentPort?.postMessage({ kind: 'took' });
    } catch (error) {
      stopped = true;
      const reply: JqReply =
        error instanceof Stop
          ? error.reply
          : { kind: 'runtime', message: error instanceof Error ? error.message : String(error) };
      parentPort?.postMessage(reply);
    }
  });
});
