/**
 * The structure of a JSON text for a preview: what the top level is, its keys with their kinds, array lengths, and
 * a short sample, each line led by a jq path (`.items[0].user`), so that a model sees what to query instead of the
 * first characters of a pretty-printed document.
 */

/**
 * The longest text outlined. Parsing is synchronous and the preview is made on the thread that stores the text (the
 * extension host's, the MCP server's), so the text is parsed only when that stays under a frame: 2 to 5 ms for
 * 256 KB on a slow 2-core machine (1 MB took 10 to 20 ms). A longer text keeps the preview of its first characters;
 * query_fd reads it whole off the thread.
 */
export const MAX_OUTLINED_CHARS = 256 * 1024;
/** The longest line of an outline (a sample, a list of keys). */
const LINE_CHARS = 200;
/** Keys listed for one object. */
const MAX_KEYS = 30;

/**
 * The outline of `text` when it is a JSON object or array, or JSON Lines (two or more lines, each a JSON value), and
 * at most `MAX_OUTLINED_CHARS` long; undefined otherwise (plain text, a lone number or string, a broken document).
 */
export function jsonOutline(text: string): string | undefined {
  if (text.length > MAX_OUTLINED_CHARS) return undefined;
  const start = text.search(/\S/);
  if (start === -1 || (text[start] !== '{' && text[start] !== '[')) return undefined;
  const whole = parsed(text);
  if (whole.ok) return outlineDocument(whole.value);
  return outlineLines(text);
}

function parsed(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

function outlineDocument(value: unknown): string {
  const lines = [`JSON: ${kind(value)}`];
  if (Array.isArray(value)) describeArray('.', value, lines);
  else if (isObject(value)) describeObject('', value, lines, 2);
  return lines.join('\n');
}

function outlineLines(text: string): string | undefined {
  const rows = text.split('\n').filter((line) => line.trim() !== '');
  if (rows.length < 2) return undefined;
  // One parse of the lines as an array's elements: a line that is not a value of its own (or holds two) fails it.
  const all = parsed(`[${rows.join(',')}]`);
  if (!all.ok || !Array.isArray(all.value) || all.value.length !== rows.length) return undefined;
  const values: unknown[] = all.value;
  const lines = [`JSON Lines: ${rows.length} values, ${kindsOf(values)}`];
  const first = values[0];
  if (isObject(first)) lines.push(clip(`keys of the first: ${keysOf(first, values)}`));
  lines.push(clip(`first: ${rows[0]?.trim() ?? ''}`));
  return lines.join('\n');
}

/** One line per key of `object` (paths from `path`), going `depth` levels into objects, then a sample. */
function describeObject(path: string, object: Record<string, unknown>, lines: string[], depth: number): void {
  const keys = Object.keys(object);
  for (const key of keys.slice(0, MAX_KEYS)) {
    const child = object[key];
    const at = `${path}${pathKey(key)}`;
    lines.push(clip(`${at}: ${kind(child)}${scalar(child)}`));
    if (Array.isArray(child) && child.length > 0) describeArray(at, child, lines);
    else if (isObject(child) && depth > 1) describeObject(at, child, lines, depth - 1);
  }
  if (keys.length > MAX_KEYS) lines.push(`${path === '' ? '.' : path}: ${keys.length - MAX_KEYS} more keys`);
}

/** The keys of an array's objects and its first element as a sample. */
function describeArray(path: string, array: readonly unknown[], lines: string[]): void {
  const element = `${path === '.' ? '.' : path}[0]`;
  const first = array[0];
  if (isObject(first)) lines.push(clip(`${element} keys: ${keysOf(first, array)}`));
  if (first !== undefined) lines.push(clip(`${element}: ${JSON.stringify(first)}`));
}

/** The keys of `first`, and how many of `all` (objects) have each one when not all do. */
function keysOf(first: Record<string, unknown>, all: readonly unknown[]): string {
  const keys = Object.keys(first);
  const objects = all.filter(isObject);
  const shown = keys.slice(0, MAX_KEYS).map((key) => {
    const having = objects.filter((o) => key in o).length;
    return having === objects.length ? key : `${key} (${having} of ${objects.length})`;
  });
  return shown.join(', ') + (keys.length > MAX_KEYS ? `, … ${keys.length - MAX_KEYS} more` : '');
}

/** "an object of 3 keys", "an array of 30 objects", "a string". */
function kind(value: unknown): string {
  if (Array.isArray(value))
    return value.length === 0 ? 'an empty array' : `an array of ${value.length} ${kindsOf(value)}`;
  if (isObject(value)) {
    const count = Object.keys(value).length;
    return `an object of ${count} key${count === 1 ? '' : 's'}`;
  }
  if (value === null) return 'null';
  return `a ${typeof value}`;
}

/** "objects", "numbers", or "values (objects, strings)" for mixed kinds. */
function kindsOf(values: readonly unknown[]): string {
  const kinds = [...new Set(values.map((v) => (Array.isArray(v) ? 'array' : v === null ? 'null' : typeof v)))];
  const plural = kinds.map((k) => (k === 'object' ? 'objects' : k === 'null' ? 'nulls' : `${k}s`));
  return plural.length === 1 ? (plural[0] ?? 'values') : `values (${plural.join(', ')})`;
}

/** A scalar's value after its kind (` 1234`, ` "open"`); nothing for objects and arrays. */
function scalar(value: unknown): string {
  if (value === null || typeof value === 'object') return '';
  return ` ${JSON.stringify(value)}`;
}

/** `.name` when jq takes it bare, else `."a key"`. */
function pathKey(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? `.${key}` : `.${JSON.stringify(key)}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function clip(line: string): string {
  return line.length <= LINE_CHARS ? line : `${line.slice(0, LINE_CHARS - 1)}…`;
}
