import { describe, expect, it } from 'vitest';
import { geoPackagesOf, onLatestVersion, unionExtent, versionNames } from './project';

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

  it('is on the latest version unless an older one was chosen', () => {
    // Following the latest, while the version that just landed is read.
    expect(onLatestVersion(undefined, 'v1', 'v2')).toBe(true);
    expect(onLatestVersion(undefined, undefined, 'v2')).toBe(true);
    // Chosen: the latest, or an older one (its layers, or the latest's still in view).
    expect(onLatestVersion('v2', 'v1', 'v2')).toBe(true);
    expect(onLatestVersion('v1', 'v1', 'v2')).toBe(false);
    expect(onLatestVersion('v1', 'v2', 'v2')).toBe(true);
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
