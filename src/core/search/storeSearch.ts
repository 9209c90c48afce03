/**
 * Search across a store, from any thread: a worker thread (`searchWorker.ts`) holds the index and does the work;
 * this hands it requests and returns its answers. The worker starts on first use, keeps the index caught up when
 * poked (the store changed), and does not keep the process alive on its own.
 */
import { Worker } from 'node:worker_threads';
import { workerFile } from '../workers/workerRun';
import type { SearchPage, SearchQuery } from './search';
import type { IndexStats } from './searchIndex';
import type { Driver } from './sqlite';

export interface SearchWorkerData {
  readonly root: string;
  /** Forces a driver (the tests of each). */
  readonly driver?: Driver['name'];
}

export type WorkerRequest =
  | { readonly kind: 'search'; readonly id: number; readonly query: SearchQuery }
  | { readonly kind: 'stats'; readonly id: number }
  /** Indexes everything there is now, then answers with the stats (the bench, the tests). */
  | { readonly kind: 'catchUp'; readonly id: number };

export type WorkerReply =
  | { readonly id: number; readonly ok: true; readonly value: unknown }
  | { readonly id: number; readonly ok: false; readonly refusal: boolean; readonly message: string };

/** A search the index refused (no words in the pattern, no SQLite here): its message is for the asker. */
export class StoreSearchRefusal extends Error {}

/** The most a request waits for the worker before it is ended (and started again by the next request). */
const REQUEST_TIMEOUT_MS = 60_000;
/** How long a closing worker may take to finish its step and close the index before it is ended. */
const CLOSE_MS = 5_000;
/** The worker's heap: a page of results and the blocks read for it are small; a small young generation keeps RSS low. */
const HEAP_MB = 128;
const YOUNG_MB = 4;

export class StoreSearch {
  private worker: Worker | undefined;
  private nextId = 1;
  private readonly waiting = new Map<
    number,
    { resolve: (value: unknown) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }
  >();

  constructor(
    private readonly data: SearchWorkerData,
    /** Where the worker's bundle is (the caller's `__dirname`). */
    private readonly dir: string = __dirname,
  ) {}

  search(query: SearchQuery): Promise<SearchPage> {
    return this.request({ kind: 'search', query }) as Promise<SearchPage>;
  }

  stats(): Promise<IndexStats> {
    return this.request({ kind: 'stats' }) as Promise<IndexStats>;
  }

  catchUp(): Promise<IndexStats> {
    return this.request({ kind: 'catchUp' }) as Promise<IndexStats>;
  }

  /** The store changed: the worker catches the index up in the background (started if it was not). */
  poke(): void {
    this.started().postMessage({ kind: 'poke' });
  }

  /**
   * Ends the worker; resolves once it has stopped. It is asked to close its connection to the index itself, once the
   * step under way is done (a thread ended inside a SQLite call leaves the native library mid-work), and ended after
   * `CLOSE_MS` if it has not.
   */
  async dispose(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    this.failAll(new Error('The search was stopped.'));
    if (worker === undefined) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    worker.postMessage({ kind: 'close' });
    const timer = setTimeout(() => void worker.terminate(), CLOSE_MS);
    await exited;
    clearTimeout(timer);
  }

  private started(): Worker {
    if (this.worker !== undefined) return this.worker;
    const { file, options } = workerFile(this.dir, 'searchWorker');
    const worker = new Worker(file, {
      ...options,
      workerData: this.data,
      resourceLimits: { maxOldGenerationSizeMb: HEAP_MB, maxYoungGenerationSizeMb: YOUNG_MB },
      stdout: true,
      stderr: true,
    });
    worker.unref();
    worker.on('message', (reply: WorkerReply) => {
      const waiting = this.waiting.get(reply.id);
      if (waiting === undefined) return;
      this.settle(reply.id);
      if (reply.ok) waiting.resolve(reply.value);
      else waiting.reject(reply.refusal ? new StoreSearchRefusal(reply.message) : new Error(reply.message));
    });
    const ended = (why: string): void => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failAll(new Error(`The search worker stopped: ${why}`));
    };
    worker.on('error', (error) => ended(error.message));
    worker.on('exit', (code) => ended(`exit code ${code}`));
    this.worker = worker;
    return worker;
  }

  private request(body: { kind: WorkerRequest['kind']; query?: SearchQuery }): Promise<unknown> {
    const worker = this.started();
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.settle(id);
        reject(new Error(`The search did not answer within ${REQUEST_TIMEOUT_MS / 1000} s.`));
        void this.dispose();
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(id, { resolve, reject, timer });
      worker.ref();
      worker.postMessage({ ...body, id });
    });
  }

  private settle(id: number): void {
    const waiting = this.waiting.get(id);
    if (waiting === undefined) return;
    clearTimeout(waiting.timer);
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker?.unref();
  }

  private failAll(error: Error): void {
    for (const [id, waiting] of [...this.waiting]) {
      this.settle(id);
      waiting.reject(error);
    }
  }
}
