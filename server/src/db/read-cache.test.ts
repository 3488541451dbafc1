import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache';

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
