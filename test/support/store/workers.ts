/** Starts `storeWorker.ts` in processes of their own, from a bundle built once per test run (each starts in milliseconds). */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { buildSync } from 'esbuild';
import type { Ack, WorkerJob } from './storeWorker';

export type { Ack, WorkerJob } from './storeWorker';

export interface RunningWorker {
  readonly child: ChildProcess;
  readonly acks: Ack[];
  /** Resolves once the worker printed `ready` (its store is open). */
  readonly ready: Promise<void>;
  /** Resolves when the process has exited (killed or not), with its exit code and stderr. */
  readonly exited: Promise<{ code: number | null; stderr: string }>;
  /** Lets a `crash` worker start writing. */
  go(): void;
}

let bundle: string | undefined;

/** The worker as one script. */
function workerBundle(): string {
  if (bundle !== undefined) return bundle;
  const folder = mkdtempSync(path.join(tmpdir(), 'fdref-store-worker-'));
  process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
  const outfile = path.join(folder, 'storeWorker.cjs');
  buildSync({
    entryPoints: [path.join(__dirname, 'storeWorker.ts')],
    bundle: true,
    minify: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile,
    logLevel: 'error',
  });
  return (bundle = outfile);
}

export function startStoreWorker(job: WorkerJob): RunningWorker {
  const child = spawn(process.execPath, [workerBundle(), JSON.stringify(job)], { stdio: ['pipe', 'pipe', 'pipe'] });
  const acks: Ack[] = [];
  let stderr = '';
  let pending = '';
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (line === 'ready') markReady();
      else if (line !== '') acks.push((JSON.parse(line) as { ack: Ack }).ack);
    }
  });
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stderr: string }>((resolve) =>
    child.once('exit', (code) => (markReady(), resolve({ code, stderr }))),
  );
  return { child, acks, ready, exited, go: () => void child.stdin?.write('go\n') };
}
