import { describe, expect, it } from 'vitest';
import { Lru } from './lru';
import { morton } from './points';

describe('morton', () => {
  it('numbers the zoom-16 tiles of any tile as one run', () => {
    // Zoom 14 tile (5, 9): its 16 zoom-16 tiles are codes morton(5, 9) * 16 … + 15.
    const codes = [];
    for (let x = 20; x < 24; x++) for (let y = 36; y < 40; y++) codes.push(morton(x, y));
    codes.sort((a, b) => a - b);
    const first = morton(5, 9) * 16;
    expect(codes).toEqual(Array.from({ length: 16 }, (_, i) => first + i));
    expect(morton(0xffff, 0xffff)).toBe(2 ** 32 - 1);
  });
});

describe('Lru', () => {
  it('evicts the least recently used entries beyond its budget, never the newest', () => {
    const evicted: string[] = [];
    const lru = new Lru<number>(10, (key) => evicted.push(key));
    lru.set('a', 1, 4);
    lru.set('b', 2, 4);
    expect(lru.get('a')).toBe(1);
    lru.set('c', 3, 4);
    expect(evicted).toEqual(['b']);
    lru.set('huge', 4, 50);
    expect(evicted).toEqual(['b', 'a', 'c']);
    expect(lru.get('huge')).toBe(4);
    expect(lru.weight).toBe(50);
  });
});
