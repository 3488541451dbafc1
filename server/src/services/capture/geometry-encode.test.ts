import { describe, expect, it } from 'vitest';
import { parseWkb, readGeoPackageHeader } from '../../lib/gpkg-geometry';
import { layerTransform } from '../map/crs';
import { encodeGeometry, GeometryInputError } from './geometry-encode';

const lonLat = {
  type: 'POINT',
  srsId: 4326,
  z: 0,
  m: 0,
  transform: layerTransform(0, undefined)!,
};

describe('encodeGeometry', () => {
  it('writes a GeoPackage blob with an envelope and the layer srs_id', () => {
    const blob = encodeGeometry({ type: 'Point', coordinates: [21.5, 52.25] }, lonLat);
    const header = readGeoPackageHeader(blob);
    expect(header.srsId).toBe(4326);
    expect(header.envelope).toEqual([21.5, 21.5, 52.25, 52.25]);
    expect(parseWkb(blob, header.wkbOffset)).toMatchObject({
      type: 'POINT',
      points: [[21.5, 52.25]],
    });
  });

  it('reprojects to the layer CRS and promotes to the layer multi type', () => {
    const mercator = {
      type: 'MULTIPOLYGON',
      srsId: 3857,
      z: 0,
      m: 0,
      transform: layerTransform(3857, {
        srs_id: 3857,
        srs_name: null,
        organization: 'EPSG',
        organization_coordsys_id: 3857,
        definition: null,
      })!,
    };
    const ring = [
      [0, 0],
      [1, 0],
      [1, 1],
      [0, 0],
    ];
    const blob = encodeGeometry({ type: 'Polygon', coordinates: [ring] }, mercator);
    const g = parseWkb(blob, readGeoPackageHeader(blob).wkbOffset);
    expect(g.type).toBe('MULTIPOLYGON');
    const x = g.members![0]!.rings![0]![1]![0]!;
    expect(x).toBeCloseTo(111319.49, 1);
  });

  it('writes Z when the layer requires it', () => {
    const blob = encodeGeometry({ type: 'Point', coordinates: [1, 2, 3] }, { ...lonLat, z: 1 });
    expect(parseWkb(blob, readGeoPackageHeader(blob).wkbOffset)).toMatchObject({ type: 'POINT' });
    expect(blob.readUInt32LE(40 + 1)).toBe(1001);
  });

  it('refuses other kinds, bad coordinates and positions outside lon/lat', () => {
    const bad = [
      {
        type: 'LineString',
        coordinates: [
          [0, 0],
          [1, 1],
        ],
      },
      { type: 'Point', coordinates: [0] },
      { type: 'Point', coordinates: [0, Number.NaN] },
      { type: 'Point', coordinates: [200, 0] },
      { type: 'Point', coordinates: '0,0' },
    ];
    for (const geometry of bad)
      expect(() => encodeGeometry(geometry, lonLat)).toThrow(GeometryInputError);
  });
});
