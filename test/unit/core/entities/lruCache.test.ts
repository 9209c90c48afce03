import assert from 'node:assert/strict';
import { LruCache } from '../../../../src/core/entities/lruCache';

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

  it('keeps within its byte budget by evicting the least recently used, counting the bytes each entry declared', () => {
    const cache = new LruCache<string, string>(100, Infinity, Date.now, 1000);
    cache.set('a', 'A', 400);
    cache.set('b', 'B', 400);
    assert.equal(cache.get('a'), 'A');
    cache.set('c', 'C', 400);
    assert.equal(cache.get('b'), undefined, 'b was the least recently used');
    assert.deepEqual([cache.get('a'), cache.get('c'), cache.size, cache.bytes], ['A', 'C', 2, 800]);
    cache.set('a', 'A2', 100);
    assert.equal(cache.bytes, 500, 'replacing an entry gives its old bytes back');
    cache.delete('c');
    assert.equal(cache.bytes, 100);
    cache.clear();
    assert.equal(cache.bytes, 0);
  });

  it('does not store an entry larger than the whole budget, and forgets the older value of its key', () => {
    const cache = new LruCache<string, string>(100, Infinity, Date.now, 1000);
    cache.set('a', 'A', 10);
    cache.set('b', 'B', 10);
    cache.set('a', 'huge', 1001);
    assert.deepEqual([cache.get('a'), cache.get('b'), cache.bytes], [undefined, 'B', 10]);
  });

  it('gives back the bytes of an expired entry when it is read', () => {
    let now = 0;
    const cache = new LruCache<string, string>(100, 10, () => now, 1000);
    cache.set('a', 'A', 600);
    now = 10;
    assert.equal(cache.get('a'), undefined);
    assert.equal(cache.bytes, 0);
    cache.set('b', 'B', 600);
    assert.equal(cache.get('b'), 'B');
  });

  it('refuses a capacity below 1, a negative TTL, budget or entry size', () => {
    assert.throws(() => new LruCache(0), RangeError);
    assert.throws(() => new LruCache(1, -1), RangeError);
    assert.throws(() => new LruCache(1, 1, Date.now, -1), RangeError);
    assert.throws(() => new LruCache(1).set('a', 1, -5), RangeError);
  });
});
