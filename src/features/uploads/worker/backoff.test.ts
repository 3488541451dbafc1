import { describe, expect, it } from 'vitest';
import { backoffBase, backoffDelay } from './backoff';

describe('backoff', () => {
  it('doubles from 1 s and stops at 30 s', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((n) => backoffBase(n))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
  });

  it('adds up to 20% jitter', () => {
    expect(backoffDelay(0, () => 0)).toBe(1000);
    expect(backoffDelay(2, () => 0.5)).toBe(4400);
    expect(backoffDelay(9, () => 0.999_999)).toBe(36000);
  });
});
