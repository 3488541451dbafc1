import { describe, expect, it } from 'vitest';
import { compareSearchOf } from './comparePair';
import { validateCompareSearch, versionName } from './compareSearch';

describe('compare search', () => {
  it('keeps two version names in the order given', () => {
    expect(validateCompareSearch({ from: 'v4', to: 'v1' })).toEqual({ from: 'v4', to: 'v1' });
    expect(validateCompareSearch({ from: 'v1', to: 'v4' })).toEqual({ from: 'v1', to: 'v4' });
  });

  it('reads a bare number as a version and drops what is not one', () => {
    expect(versionName('3')).toBe('v3');
    expect(versionName(['v2', 'v5'])).toBe('v2');
    for (const bad of ['', 'v0', 'v', 'v1x', 'x1', 'v01', '../v1', 'v12345678901', undefined, {}])
      expect(versionName(bad)).toBeUndefined();
    expect(validateCompareSearch({ from: 'latest', to: 'v2' })).toStrictEqual({
      from: undefined,
      to: 'v2',
    });
    expect(validateCompareSearch({})).toStrictEqual({ from: undefined, to: undefined });
  });

  it('puts the older of two picked versions first', () => {
    expect(compareSearchOf('v10', 'v9')).toEqual({ from: 'v9', to: 'v10' });
    expect(compareSearchOf('v2', 'v3')).toEqual({ from: 'v2', to: 'v3' });
  });
});
