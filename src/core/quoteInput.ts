/**
 * How an error message quotes what it was given (a tool argument, a field of a session file, a setting).
 * Input can be megabytes long or nested thousands of levels deep; a message quotes a short prefix, so an
 * error is never larger than a few hundred characters and quoting never recurses past that prefix.
 */
import { splitsSurrogatePair } from './surrogates';

/** The most characters of one input value an error message quotes. */
export const QUOTED_INPUT_CHARS = 80;

/** How many problems (or unknown names) one message lists before it says how many more there are. */
export const LISTED_PROBLEMS = 5;

/**
 * `value` written as JSON (a string in double quotes), cut after `QUOTED_INPUT_CHARS` characters with `…`
 * and the total length of a longer string. Never throws; the work is bounded by the limit, not by the value.
 */
export function quoteInput(value: unknown): string {
  if (typeof value === 'string') {
    if (value.length <= QUOTED_INPUT_CHARS) return JSON.stringify(value);
    return `${JSON.stringify(cutAt(value, QUOTED_INPUT_CHARS))}… (${value.length} characters)`;
  }
  const out: string[] = [];
  const fits = writeJson(value, out, { left: QUOTED_INPUT_CHARS });
  return fits ? out.join('') : `${out.join('')}…`;
}

/** `text` as it is when short, else its first `max` characters and `…` (for ids and names in attributes). */
export function clipInput(text: string, max = QUOTED_INPUT_CHARS): string {
  return text.length <= max ? text : `${cutAt(text, max)}…`;
}

/** `items` joined by `, `, at most `LISTED_PROBLEMS` of them, then "and N more". */
export function listSome(items: readonly string[], separator = ', '): string {
  const shown = items.slice(0, LISTED_PROBLEMS).join(separator);
  return items.length > LISTED_PROBLEMS ? `${shown}${separator}and ${items.length - LISTED_PROBLEMS} more` : shown;
}

/** Writes JSON into `out` until the budget runs out; false when it was cut. Depth is bounded by the budget. */
function writeJson(value: unknown, out: string[], budget: { left: number }): boolean {
  const put = (text: string): boolean => {
    if (text.length > budget.left) {
      out.push(cutAt(text, budget.left));
      budget.left = 0;
      return false;
    }
    out.push(text);
    budget.left -= text.length;
    return true;
  };
  if (budget.left <= 0) return false;
  if (typeof value === 'string') {
    const whole = value.length <= budget.left;
    return put(JSON.stringify(whole ? value : value.slice(0, budget.left))) && whole;
  }
  if (typeof value === 'number' || typeof value === 'boolean' || value === null) return put(String(value));
  if (typeof value === 'bigint') return put(`${value}n`);
  // What is left is undefined, a symbol or a function: String() writes each plainly.
  // eslint-disable-next-line @typescript-eslint/no-base-to-string
  if (typeof value !== 'object') return put(String(value));
  try {
    if (Array.isArray(value)) {
      if (!put('[')) return false;
      for (let i = 0; i < value.length; i++) {
        if (i > 0 && !put(',')) return false;
        if (!writeJson(value[i], out, budget)) return false;
      }
      return put(']');
    }
    if (!put('{')) return false;
    let first = true;
    for (const key in value) {
      if (!Object.prototype.hasOwnProperty.call(value, key)) continue;
      if (!first && !put(',')) return false;
      first = false;
      if (!writeJson(key, out, budget) || !put(':')) return false;
      if (!writeJson((value as Record<string, unknown>)[key], out, budget)) return false;
    }
    return put('}');
  } catch {
    return put('(unreadable)');
  }
}

/** The first `max` characters of `text`, one fewer when the cut would split a surrogate pair. */
function cutAt(text: string, max: number): string {
  if (text.length <= max) return text;
  return text.slice(0, splitsSurrogatePair(text, max) ? max - 1 : max);
}
