import { describe, expect, it } from 'vitest';
import { MISSES_BEFORE_SPARING, PROBE_EVERY, ReadCache } from './read-cache';

const database = { snapshot: async () => '1:1:' };

describe('ReadCache', () => {
  it('answers only for the exact snapshot a value was kept under', () => {
    const cache = new ReadCache(database);
    cache.set('a', '10:12:11', { n: 1 });
    expect(cache.get('a', '10:12:11')).toEqual({ n: 1 });
    // A commit since (transaction 11 finished): another snapshot, and the entry is dropped.
    expect(cache.get('a', '10:12:')).toBeUndefined();
    expect(cache.get('a', '10:12:11')).toBeUndefined();
    expect(cache.size).toBe(0);
    expect(cache.stats).toEqual({ hits: 1, misses: 2 });
  });

  it('keeps its total weight bounded, dropping the least recently used first', () => {
    const cache = new ReadCache(database, 5);
    cache.set('a', 's', 'A', 2);
    cache.set('b', 's', 'B', 2);
    expect(cache.get('a', 's')).toBe('A');
    cache.set('c', 's', 'C', 2);
    expect(cache.get('b', 's')).toBeUndefined();
    expect(cache.get('a', 's')).toBe('A');
    expect(cache.get('c', 's')).toBe('C');
    // Replacing an entry does not count it twice; a value over the whole bound is not kept.
    cache.set('c', 's', 'C2', 3);
    expect(cache.size).toBe(2);
    cache.set('d', 's', 'D', 6);
    expect(cache.get('d', 's')).toBeUndefined();
    expect(cache.get('c', 's')).toBe('C2');
  });

  it('reads the snapshot from the database', async () => {
    expect(await new ReadCache(database).snapshot()).toBe('1:1:');
  });
});

const cache = () => new ReadCache({ snapshot: async () => 's' });

describe('ReadCache.worthProbing', () => {
  it('is not worth reading the snapshot for a key with nothing kept', () => {
    const c = cache();
    expect(c.worthProbing('a')).toBe(false);
    c.set('a', 's1', 1);
    expect(c.worthProbing('a')).toBe(true);
  });

  it('spares most probes of a key whose lookups keep missing, and probes every time again after a hit', () => {
    const c = cache();
    let snapshot = 0;
    /** One request: probe when worth it, else read; the value is kept under a new snapshot. */
    const request = () => {
      const probed = c.worthProbing('a');
      if (probed) c.get('a', `s${snapshot}`);
      c.set('a', `s${snapshot}`, 1);
      snapshot++; // a commit after each request (an upload's chunk records)
      return probed;
    };
    c.set('a', 's-1', 1);
    const probed = Array.from({ length: 2 + 3 * PROBE_EVERY }, request);
    expect(probed.slice(0, MISSES_BEFORE_SPARING)).toEqual([true, true]);
    expect(probed.filter(Boolean)).toHaveLength(MISSES_BEFORE_SPARING + 3);
    // The commits stop: the next probe hits, and from then on every lookup probes.
    let hits = 0;
    for (let n = 0; n < PROBE_EVERY + 2; n++) {
      if (c.worthProbing('a') && c.get('a', `s${snapshot - 1}`) !== undefined) hits++;
    }
    expect(hits).toBeGreaterThanOrEqual(2);
    expect(c.worthProbing('a')).toBe(true);
  });
});
