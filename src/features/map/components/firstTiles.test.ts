import { describe, expect, it } from 'vitest';
import type { CanvasLayer } from '../model/layers';
import { firstTiles, MAX_FIRST_TILES } from './firstTiles';

const layer = (extent: CanvasLayer['extent'], name = 'trees'): CanvasLayer => ({
  name,
  colourIndex: 0,
  tileUrl: `/app/map/field/survey/tiles/${name}/{z}/{x}/{y}.mvt?file=a.gpkg&version=v2`,
  extent,
  points: true,
});

const tileUrl = (z: number, x: number, y: number, name = 'trees') =>
  `/app/map/field/survey/tiles/${name}/${z}/${x}/${y}.mvt?file=a.gpkg&version=v2`;

describe('the tiles a map opening shows first', () => {
  it('fits the data as the map does and names the tiles of that view, those with data first', () => {
    // A 1 km square north-east of (0, 0) on an 800 × 600 map: 40 px padding leaves 720 × 520,
    // so 1000 m / 520 px = 1.92 m/px; 512 px tiles are 2.39 m/px at zoom 15 (the nearest
    // coarser), 1223 m wide, with (0, 0) on the corner of tiles x 16384 and y 16384.
    // The view is 1538 × 1154 m around (500, 500): x 16383-16385, y 16383-16384.
    const tiles = firstTiles([layer([0, 0, 1000, 1000])], [800, 600]);
    expect(tiles.resolution).toBeCloseTo(1000 / 520, 6);
    expect(tiles.urls[0]).toBe(tileUrl(15, 16384, 16383));
    expect([...tiles.urls].sort()).toEqual(
      [
        tileUrl(15, 16383, 16383),
        tileUrl(15, 16384, 16383),
        tileUrl(15, 16385, 16383),
        tileUrl(15, 16383, 16384),
        tileUrl(15, 16384, 16384),
        tileUrl(15, 16385, 16384),
      ].sort(),
    );
    expect(tiles.first?.layer.name).toBe('trees');
    // The centre of tile 16384/16383: 611.5 m east and north of (0, 0).
    expect(tiles.first?.centre[0]).toBeCloseTo(611.5, 0);
    expect(tiles.first?.centre[1]).toBeCloseTo(611.5, 0);
  });

  it('names each visible layer’s tiles, at most a bounded number, and none without data', () => {
    const world = 20037508.34;
    const wide = firstTiles(
      [layer([-world, -world / 2, world, world / 2]), layer([0, 0, 1, 1], 'wells')],
      [1920, 1080],
    );
    expect(wide.urls).toHaveLength(MAX_FIRST_TILES);
    expect(firstTiles([layer(null)], [800, 600])).toEqual({ urls: [], resolution: 0, first: null });
    expect(firstTiles([layer([0, 0, 1000, 1000])], [0, 600]).urls).toEqual([]);
  });
});
