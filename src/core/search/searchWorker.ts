/**
 * The worker thread that owns a process's connection to the store's index (`storeSearch.ts` starts it): it catches
 * the index up in the background in short slices and answers searches between them. SQLite's calls are
 * synchronous; here they never hold up the thread that asked (the extension host, the MCP server).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../errors';
import { search, SearchRefusal } from './search';
import { isDamage, SearchIndex } from './searchIndex';
import { loadDriver } from './sqlite';
import type { WorkerReply, WorkerRequest, SearchWorkerData } from './storeSearch';

const data = workerData as SearchWorkerData;
/** One slice of background indexing; a search waits at most this long for the thread. */
const SLICE_MS = 150;
/** How long a search lets the index catch up first (what is left is scanned). */
const CATCH_UP_MS = 300;

let index: SearchIndex | { readonly unavailable: string } | undefined;
let chain: Promise<unknown> = Promise.resolve();
/**
 * Background indexing waits until the store has been quiet this long (a command still pouring output out goes first:
 * indexing beside it would slow it down)...
 */
const QUIET_MS = 250;
/** ...but not longer than this after the first change not caught up with, so a long stream is indexed as it goes. */
const MAX_WAIT_MS = 2000;

let timer: NodeJS.Timeout | undefined;
let firstWaiting: number | undefined;
let running = false;
let rerun = false;

function opened(): SearchIndex {
  if (index === undefined) {
    const driver = loadDriver(data.driver);
    index = 'error' in driver ? { unavailable: driver.error } : SearchIndex.open(data.root, driver);
  }
  if ('unavailable' in index) throw new SearchRefusal(`the search index is not available here: ${index.unavailable}`);
  return index;
}

/** Runs `task` after the ones before it; an index found damaged is set aside and begun again. */
function serial<T>(task: (index: SearchIndex) => Promise<T>): Promise<T> {
  const run = chain.then(async () => {
    const current = opened();
    try {
      return await task(current);
    } catch (error) {
      if (!isDamage(error)) throw error;
      current.close();
      index = SearchIndex.reopenFresh(data.root, current, error);
      return task(index);
    }
  });
  chain = run.catch(() => undefined);
  return run;
}

/** Catches the index up once the store is quiet for `delay` ms (at most `MAX_WAIT_MS` after the first change). */
function catchUpSoon(delay = QUIET_MS): void {
  const now = Date.now();
  firstWaiting ??= now;
  if (running) {
    rerun = true;
    return;
  }
  if (timer !== undefined) clearTimeout(timer);
  timer = setTimeout(catchUpNow, Math.max(0, Math.min(delay, firstWaiting + MAX_WAIT_MS - now)));
}

function catchUpNow(): void {
  timer = undefined;
  firstWaiting = undefined;
  running = true;
  rerun = false;
  void serial(async (current) => {
    await current.catchUpJournals();
    const more = await current.indexUntil(Date.now() + SLICE_MS);
    if (!more) current.tidy();
    return more;
  })
    .catch(() => false)
    .then((more) => {
      running = false;
      // More to do and nothing new: go on at once; the store changed meanwhile: wait for it to be quiet again.
      if (rerun) catchUpSoon();
      else if (more) catchUpSoon(0);
    });
}

async function answer(request: WorkerRequest): Promise<unknown> {
  switch (request.kind) {
    case 'search':
      return serial(async (current) => {
        await current.catchUpJournals();
        const more = await current.indexUntil(Date.now() + CATCH_UP_MS);
        const page = await search(current, request.query);
        if (more) catchUpSoon(0); // what is left is indexed after the answer
        return page;
      });
    case 'stats':
      return serial(async (current) => current.stats());
    case 'catchUp':
      return serial(async (current) => {
        await current.catchUpJournals();
        while (await current.indexUntil(Date.now() + SLICE_MS)) await new Promise((resolve) => setImmediate(resolve));
        return current.stats();
      });
  }
}

parentPort?.on('message', (message: WorkerRequest | { kind: 'poke' } | { kind: 'close' }) => {
  if (message.kind === 'poke') {
    catchUpSoon();
    return;
  }
  if (message.kind === 'close') {
    // Once the work under way is done: the connection closed by its own thread, then the thread ends.
    if (timer !== undefined) clearTimeout(timer);
    void chain.then(() => {
      if (index !== undefined && !('unavailable' in index)) index.close();
      process.exit(0);
    });
    return;
  }
  answer(message).then(
    (value) => parentPort?.postMessage({ id: message.id, ok: true, value } satisfies WorkerReply),
    (error: unknown) =>
      parentPort?.postMessage({
        id: message.id,
        ok: false,
        refusal: error instanceof SearchRefusal,
        message: errorMessage(error),
      } satisfies WorkerReply),
  );
});
