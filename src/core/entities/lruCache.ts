/**
 * A bounded map that forgets its least recently used entry first, with an optional time to live and
 * an optional byte budget. Relies on `Map` keeping insertion order: a read moves the entry to the end,
 * eviction takes the first.
 */
export class LruCache<K, V> {
  private readonly entries = new Map<K, { value: V; expiresAt: number; bytes: number }>();
  private heldBytes = 0;

  /**
   * @param capacity most entries held at once (at least 1)
   * @param ttlMs how long an entry stays readable after it is set; `Infinity` for ever
   * @param now the clock, replaceable so expiry can be tested without waiting
   * @param maxBytes most bytes held at once, counted as each `set` declares them; `Infinity` for no budget
   */
  constructor(
    readonly capacity: number,
    readonly ttlMs: number = Infinity,
    private readonly now: () => number = Date.now,
    readonly maxBytes: number = Infinity,
  ) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`cache capacity must be a whole number >= 1 (got ${capacity})`);
    if (!(ttlMs >= 0)) throw new RangeError(`cache TTL must be >= 0 ms (got ${ttlMs})`);
    if (!(maxBytes >= 0)) throw new RangeError(`cache byte budget must be >= 0 (got ${maxBytes})`);
  }

  /** The value for `key` unless it is missing or expired; a hit makes it the most recently used. */
  get(key: K): V | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    this.remove(key);
    if (entry.expiresAt <= this.now()) return undefined;
    this.entries.set(key, entry);
    this.heldBytes += entry.bytes;
    return entry.value;
  }

  /**
   * Stores `value`, which takes `bytes` of the budget, as the most recently used entry, evicting the
   * least recently used until both the capacity and the byte budget hold. A value larger than the
   * whole budget is not stored (and any older value for `key` is forgotten).
   */
  set(key: K, value: V, bytes = 0): void {
    if (!(bytes >= 0)) throw new RangeError(`an entry's size must be >= 0 bytes (got ${bytes})`);
    this.remove(key);
    if (bytes > this.maxBytes) return;
    this.entries.set(key, { value, expiresAt: this.now() + this.ttlMs, bytes });
    this.heldBytes += bytes;
    while (this.entries.size > this.capacity || this.heldBytes > this.maxBytes) {
      const oldest = this.entries.keys().next();
      if (oldest.done === true) break;
      this.remove(oldest.value);
    }
  }

  /** Forgets `key`. */
  delete(key: K): void {
    this.remove(key);
  }

  /** Forgets everything. */
  clear(): void {
    this.entries.clear();
    this.heldBytes = 0;
  }

  /** How many entries are held, expired ones not yet dropped included. */
  get size(): number {
    return this.entries.size;
  }

  /** The bytes the held entries declared, expired ones not yet dropped included. */
  get bytes(): number {
    return this.heldBytes;
  }

  private remove(key: K): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.heldBytes -= entry.bytes;
  }
}
