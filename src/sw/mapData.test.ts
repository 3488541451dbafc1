// @vitest-environment node
import { describe, expect, it } from 'vitest';
import { basemapPattern, isMapDataRequest, overflow } from './mapRequests';

const ORIGIN = 'http://localhost';

describe('map data requests', () => {
  it('are the GETs of the map routes of this origin', () => {
    const get = (url: string, method = 'GET') => ({ method, url });
    expect(isMapDataRequest(get(`${ORIGIN}/app/map/ns/p/layers?file=a.gpkg`), ORIGIN)).toBe(true);
    expect(
      isMapDataRequest(get(`${ORIGIN}/app/map/ns/p/tiles/pts/1/0/0.mvt?file=a.gpkg`), ORIGIN),
    ).toBe(true);
    expect(isMapDataRequest(get(`${ORIGIN}/app/map/ns/p/layers`, 'POST'), ORIGIN)).toBe(false);
    expect(isMapDataRequest(get('http://elsewhere/app/map/ns/p/layers'), ORIGIN)).toBe(false);
    expect(isMapDataRequest(get(`${ORIGIN}/v1/project/raw/ns/p?file=a.gpkg`), ORIGIN)).toBe(false);
    expect(
      isMapDataRequest(
        {
          method: 'GET',
          url: `${ORIGIN}/app/map/ns/p/layers`,
          headers: new Headers({ range: 'bytes=0-1' }),
        },
        ORIGIN,
      ),
    ).toBe(false);
  });
});

describe('basemap tiles', () => {
  it('match the XYZ template, subdomains included', () => {
    const pattern = basemapPattern('https://{a-c}.tile.example.org/{z}/{x}/{y}.png?key=1');
    expect(pattern?.test('https://b.tile.example.org/12/2200/1343.png?key=1')).toBe(true);
    expect(pattern?.test('https://b.tile.example.org/12/2200/1343.png?key=2')).toBe(false);
    expect(pattern?.test('https://b.tile.example.org/12/x/1343.png?key=1')).toBe(false);
    expect(pattern?.test('https://evil.test/?https://b.tile.example.org/1/2/3.png?key=1')).toBe(
      false,
    );
    expect(basemapPattern(null)).toBeNull();
    expect(basemapPattern('')).toBeNull();
  });

  it('are trimmed oldest first to the limit', () => {
    expect(overflow(['a', 'b', 'c', 'd'], 2)).toEqual(['a', 'b']);
    expect(overflow(['a'], 2)).toEqual([]);
  });
});
