/**
 * A bounded map that forgets its least recently used entry first, with an optional time to live.
 * Relies on `Map` keeping insertion order: a read moves the entry to the end, eviction takes the first.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number }>();

  /**
   * @param capacity most entries held at once (at least 1)
   * @param ttlMs how long an entry stays readable after it is set; `Infinity` for ever
   * @param now the clock, replaceable so expiry can be tested without waiting
   */
  constructor(
    readonly capacity: number,
    readonly ttlMs: number = Infinity,
    private readonly now: () => number = Date.now,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`cache capacity must be a whole number >= 1 (got ${capacity})`);
    if (!(ttlMs >= 0)) throw new RangeError(`cache TTL must be >= 0 ms (got ${ttlMs})`);
  }

  /** The value for `key` unless it is missing or expired; a hit makes it the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.entries.delete(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Stores `value` as the most recently used entry, evicting the least recently used when full. */
  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs });
    if (this.entries.size > this.capacity) {
      const oldest = this.entries.keys().next();
      if (oldest.done !== true) this.entries.delete(oldest.value);
    }
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
  }

  /** How many entries are held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }
}
