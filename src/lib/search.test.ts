// @vitest-environment node
import { describe, expect, it } from 'vitest';
import {
  parseSearch,
  searchList,
  stringifySearch,
  validateLoginSearch,
  validateProjectListSearch,
  validateProjectTreeSearch,
  validateVersionsSearch,
} from './search';

describe('search strings', () => {
  it('parses plain strings, without JSON coercion', () => {
    expect(parseSearch('?version_id=3&file_path=true&redirect=%2Fprojects%3Fa%3D1')).toEqual({
      version_id: '3',
      file_path: 'true',
      redirect: '/projects?a=1',
    });
    expect(parseSearch('')).toEqual({});
    expect(parseSearch('?tags=a&tags=b')).toEqual({ tags: ['a', 'b'] });
  });

  it('writes lists comma-separated and keeps slashes readable', () => {
    expect(stringifySearch({ tags: ['a', 'b c'], redirect: '/projects/x', empty: undefined })).toBe(
      '?tags=a,b+c&redirect=/projects/x',
    );
    expect(stringifySearch({})).toBe('');
    expect(stringifySearch({ tags: [] })).toBe('');
  });

  it('round-trips', () => {
    const search = {
      redirect: '/projects/ns/p/tree/a b?file_path=a/b.gpkg&x=1',
      tags: ['t1', 't2'],
    };
    const parsed = parseSearch(stringifySearch(search));
    expect(validateLoginSearch(parsed)).toEqual({ redirect: search.redirect });
    expect(validateProjectListSearch(parsed)).toEqual({ tags: ['t1', 't2'] });
  });
});

describe('search validators', () => {
  it('reads tags as a comma-separated list', () => {
    expect(searchList('a,b,,c ')).toEqual(['a', 'b', 'c']);
    expect(searchList(['a,b', 'c'])).toEqual(['a', 'b', 'c']);
    expect(searchList('')).toBeUndefined();
    expect(searchList(undefined)).toBeUndefined();
    expect(validateProjectListSearch({ tags: 'valid_qgis,mobile' })).toEqual({
      tags: ['valid_qgis', 'mobile'],
    });
  });

  it('keeps absent values absent', () => {
    expect(validateLoginSearch({})).toEqual({});
    expect(validateProjectTreeSearch({ file_path: '' })).toEqual({});
    expect(validateVersionsSearch({ version_id: 3 })).toEqual({ version_id: '3' });
    expect(validateProjectTreeSearch({ file_path: 'dir/a.gpkg' })).toEqual({
      file_path: 'dir/a.gpkg',
    });
  });
});
