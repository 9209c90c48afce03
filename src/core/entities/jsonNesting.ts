/**
 * How deep a JSON value may nest before entity code refuses it. Real Structs bodies nest three levels;
 * the limit keeps every recursive step (walks, freezing, `JSON.stringify`) far from the stack's end.
 */
export const MAX_JSON_NESTING = 256;

/** The error for a value nested deeper than {@link MAX_JSON_NESTING}: `entity body nested deeper than 256 levels`. */
export function nestedTooDeep(what: string): RangeError {
  return new RangeError(`${what} nested deeper than ${MAX_JSON_NESTING} levels`);
}

/**
 * Whether `value` nests objects and arrays deeper than `limit` levels (a scalar is level 0, `[]` level 1).
 * Iterative, so it answers for any depth without using the stack; shared objects are visited once.
 */
export function nestingExceeds(value: unknown, limit: number = MAX_JSON_NESTING): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  const seen = new Set<object>();
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    const current = next.value;
    if (typeof current !== 'object' || current === null || seen.has(current)) continue;
    seen.add(current);
    const depth = next.depth + 1;
    if (depth > limit) return true;
    for (const child of Object.values(current)) pending.push({ value: child, depth });
  }
  return false;
}
