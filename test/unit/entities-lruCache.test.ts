import assert from 'node:assert/strict';
import { LruCache } from '../../src/core/entities/lruCache';

describe('LruCache', () => {
  it('evicts the least recently used entry when full, a read counting as a use', () => {
    const cache = new LruCache<string, number>(2);
    cache.set('a', 1);
    cache.set('b', 2);
    assert.equal(cache.get('a'), 1);
    cache.set('c', 3);
    assert.equal(cache.get('b'), undefined);
    assert.equal(cache.get('a'), 1);
    assert.equal(cache.get('c'), 3);
    assert.equal(cache.size, 2);
  });

  it('forgets an entry once its time to live has passed', () => {
    let now = 1000;
    const cache = new LruCache<string, number>(10, 30, () => now);
    cache.set('a', 1);
    now = 1029;
    assert.equal(cache.get('a'), 1);
    now = 1030;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.size, 0);
  });

  it('refuses a capacity below 1 or a negative TTL', () => {
    assert.throws(() => new LruCache(0), RangeError);
    assert.throws(() => new LruCache(1, -1), RangeError);
  });
});
