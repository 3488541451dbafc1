import { describe, expect, it } from 'vitest';
import { geoPackagesOf, unionExtent, versionNames } from './project';

describe('the project on the map', () => {
  it('lists the GeoPackages and SQLite files by path', () => {
    expect(
      geoPackagesOf([
        { path: 'b/roads.GPKG' },
        { path: 'a.gpkg' },
        { path: 'a.gpkg-wal' },
        { path: 'x.qgz' },
        { path: 'c/wells.sqlite' },
        { path: 'notes.db' },
      ]),
    ).toEqual(['a.gpkg', 'b/roads.GPKG', 'c/wells.sqlite']);
  });

  it('names every version newest first', () => {
    expect(versionNames('v3')).toEqual(['v3', 'v2', 'v1']);
    expect(versionNames('v0')).toEqual([]);
    expect(versionNames('')).toEqual([]);
  });

  it('joins extents, leaving out layers without one', () => {
    expect(unionExtent([[0, 1, 2, 3], null, [-1, 2, 1, 5]])).toEqual([-1, 1, 2, 5]);
    expect(unionExtent([null])).toBeNull();
  });
});
