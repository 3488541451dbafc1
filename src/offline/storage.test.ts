import { describe, expect, it } from 'vitest';
import { isStorageShort, readStorageEstimate } from './storage';

describe('isStorageShort', () => {
  it('is short from 90 % of the quota used, and never without an estimate', () => {
    expect(isStorageShort({ usage: 899, quota: 1000 })).toBe(false);
    expect(isStorageShort({ usage: 900, quota: 1000 })).toBe(true);
    expect(isStorageShort({ usage: 10, quota: 0 })).toBe(false);
    expect(isStorageShort({ quota: 1000 })).toBe(false);
    expect(isStorageShort(null)).toBe(false);
  });
});

describe('readStorageEstimate', () => {
  it("reads the browser's estimate, null without one or when it fails", async () => {
    expect(await readStorageEstimate({ estimate: async () => ({ usage: 1, quota: 2 }) })).toEqual({
      usage: 1,
      quota: 2,
    });
    expect(await readStorageEstimate(undefined)).toBeNull();
    expect(
      await readStorageEstimate({ estimate: () => Promise.reject(new Error('no')) }),
    ).toBeNull();
  });
});
