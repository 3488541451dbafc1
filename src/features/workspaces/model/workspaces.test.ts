// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { pickCurrentWorkspace } from './currentWorkspace';
import { storagePercentage } from './storage';

const a = { id: 1, name: 'a' };
const b = { id: 2, name: 'b' };
const c = { id: 3, name: 'c' };

describe('pickCurrentWorkspace', () => {
  it('prefers the last seen workspace', () => {
    expect(pickCurrentWorkspace([a, b, c], 3, 2)).toBe(c);
  });
  it('falls back to the preferred workspace, then the first', () => {
    expect(pickCurrentWorkspace([a, b, c], 99, 2)).toBe(b);
    expect(pickCurrentWorkspace([a, b, c], undefined, 2)).toBe(b);
    expect(pickCurrentWorkspace([a, b, c], null, 77)).toBe(a);
    expect(pickCurrentWorkspace([a, b, c], undefined, null)).toBe(a);
  });
  it('gives none without workspaces', () => {
    expect(pickCurrentWorkspace([], 1, 1)).toBeNull();
  });
});

describe('storagePercentage', () => {
  it('rounds down', () => {
    expect(storagePercentage(905, 1000)).toBe(90);
    expect(storagePercentage(919, 1000)).toBe(91);
    expect(storagePercentage(1000, 1000)).toBe(100);
    expect(storagePercentage(0, 1000)).toBe(0);
  });
  it('is 0 when usage exceeds storage or no storage is known', () => {
    expect(storagePercentage(1001, 1000)).toBe(0);
    expect(storagePercentage(10, 0)).toBe(0);
    expect(storagePercentage(0, 0)).toBe(0);
    expect(storagePercentage(undefined, undefined)).toBe(0);
  });
});
