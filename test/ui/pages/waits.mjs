// How long one wait of a UI step may take, and waits for conditions (never fixed sleeps): a condition a person would
// see within seconds on a quiet machine, with room for a slow, shared one. Longer waits say so where they wait.
import { existsSync, readFileSync } from 'node:fs';

export const STEP_TIMEOUT = 20_000;

/** A window loading again (Reload Window, entering a workspace): the workbench and its extensions start over. */
export const RELOAD_TIMEOUT = 60_000;

/**
 * Waits until `check()` holds, polling as a person would look again; throws `message()` after `timeout`.
 * @param {() => boolean | Promise<boolean>} check
 * @param {() => string} message
 * @param {number} [timeout]
 */
export async function waitUntil(check, message, timeout = STEP_TIMEOUT) {
  const deadline = Date.now() + timeout;
  for (;;) {
    if (await check()) return;
    if (Date.now() > deadline) throw new Error(message());
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Waits for `file` to be written and to hold `text`.
 * @param {string} file
 * @param {string} text
 */
export async function waitForFile(file, text) {
  await waitUntil(
    () => existsSync(file),
    () => `${file} was not written`,
  );
  await waitUntil(
    () => readFileSync(file, 'utf8').includes(text),
    () => `${file} lacks the ref content "${text}"`,
  );
}
