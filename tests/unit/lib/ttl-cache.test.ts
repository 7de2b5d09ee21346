// The bounded cache behind the warm-path key and organization lookups: entries expire after
// their TTL on an injected clock, and the oldest entry goes when the cache is full.
import { describe, expect, it } from 'vitest';
import { TtlCache } from '#lib/ttl-cache.ts';

const clock = (start = 1_000_000) => {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
};

describe('TtlCache', () => {
  it('returns an entry until its TTL has passed, then forgets it', () => {
    // Arrange
    const time = clock();
    const cache = new TtlCache<string, number>(60_000, 100, time.now);
    cache.set('key', 1);

    // Act / Assert
    time.advance(59_999);
    expect(cache.get('key')).toBe(1);
    time.advance(1);
    expect(cache.get('key')).toBeUndefined();
    time.advance(-10_000);
    expect(cache.get('key')).toBeUndefined();
  });

  it('keeps a cached null (a known miss) apart from an absent entry', () => {
    const time = clock();
    const cache = new TtlCache<string, string | null>(1_000, 10, time.now);
    cache.set('revoked', null);
    expect(cache.get('revoked')).toBeNull();
    expect(cache.get('never-seen')).toBeUndefined();
  });

  it('restarts the TTL when an entry is set again', () => {
    const time = clock();
    const cache = new TtlCache<string, number>(1_000, 10, time.now);
    cache.set('key', 1);
    time.advance(900);
    cache.set('key', 2);
    time.advance(900);
    expect(cache.get('key')).toBe(2);
  });

  it('drops the oldest entry when a new one arrives at maxEntries', () => {
    // Arrange
    const time = clock();
    const cache = new TtlCache<string, number>(60_000, 3, time.now);
    cache.set('a', 1);
    cache.set('b', 2);
    cache.set('c', 3);

    // Act
    cache.set('d', 4);

    // Assert
    expect(cache.get('a')).toBeUndefined();
    expect([cache.get('b'), cache.get('c'), cache.get('d')]).toEqual([2, 3, 4]);
    cache.set('e', 5);
    expect(cache.get('b')).toBeUndefined();
    expect([cache.get('c'), cache.get('d'), cache.get('e')]).toEqual([3, 4, 5]);
  });

  it('empties on clear()', () => {
    const cache = new TtlCache<string, number>(60_000);
    cache.set('a', 1);
    cache.clear();
    expect(cache.get('a')).toBeUndefined();
  });
});
