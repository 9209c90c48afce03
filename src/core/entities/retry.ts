/**
 * Retries of an entity lookup: HTTP 429 and 503 are asked again, at most `MAX_ATTEMPTS` times in all,
 * after the pause `Retry-After` asks for or else an exponential backoff, never longer than
 * `MAX_RETRY_WAIT_MS`. A pause ends early when the lookup is cancelled.
 */
export const MAX_ATTEMPTS = 3;
/** Longest pause before a retry, whatever `Retry-After` asks: a reference is not worth a long stall. */
const MAX_RETRY_WAIT_MS = 5000;
const FIRST_BACKOFF_MS = 200;
/** The HTTP statuses asked again. */
export const RETRIED_STATUSES: ReadonlySet<number> = new Set([429, 503]);

/** `Retry-After` in seconds or as an HTTP date, else exponential backoff; never above the cap. */
export function retryDelayMs(retryAfter: string | null, attempt: number, now: number = Date.now()): number {
  let delay = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
  if (retryAfter !== null) {
    const trimmed = retryAfter.trim();
    if (/^\d+$/.test(trimmed)) delay = Number(trimmed) * 1000;
    else {
      const date = Date.parse(trimmed);
      if (!Number.isNaN(date)) delay = Math.max(0, date - now);
    }
  }
  return Math.min(delay, MAX_RETRY_WAIT_MS);
}

/** Resolves after `ms`, or rejects with the reason of `signal` as soon as it aborts. */
export function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = (): void => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}
