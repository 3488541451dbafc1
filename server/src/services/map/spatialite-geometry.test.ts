import { describe, expect, it } from 'vitest';
import { spatiaLiteBlob, wkbBlob } from '../../../../tests/server/support/spatialite';
import { decodeGeometry, headerEnvelope, toGeoJson } from './geometry';
import { geometryTypeName } from './sqlite-layers';
import { isSpatiaLiteBlob, parseSpatiaLite, spatiaLiteMbr } from './spatialite-geometry';

const lonLat = (x: number, y: number): [number, number] => [x, y];

describe('SpatiaLite geometry blobs', () => {
  it('reads a point in either byte order, with its MBR', () => {
    for (const littleEndian of [true, false]) {
      const blob = spatiaLiteBlob({ point: [20.5, 51.25] }, { srid: 4326, littleEndian });
      expect(isSpatiaLiteBlob(blob)).toBe(true);
      expect(parseSpatiaLite(blob)).toEqual({
        base: 1,
        type: 'POINT',
        z: false,
        m: false,
        points: [[20.5, 51.25]],
      });
      expect(spatiaLiteMbr(blob)).toEqual([20.5, 51.25, 20.5, 51.25]);
      expect(headerEnvelope(blob)).toEqual([20.5, 51.25, 20.5, 51.25]);
    }
  });

  it('reads XYZ, XYM and XYZM coordinates (z and m kept, dropped in GeoJSON)', () => {
    const xyz = parseSpatiaLite(spatiaLiteBlob({ point: [1, 2, 3] }, { srid: 0, dims: 'XYZ' }));
    expect(xyz).toMatchObject({ z: true, m: false, points: [[1, 2, 3]] });
    const xym = parseSpatiaLite(spatiaLiteBlob({ point: [1, 2, 9] }, { srid: 0, dims: 'XYM' }));
    expect(xym).toMatchObject({ z: false, m: true, points: [[1, 2, 9]] });
    const line = spatiaLiteBlob(
      {
        line: [
          [0, 0, 5, 100],
          [1, 1, 6, 101],
        ],
      },
      { srid: 0, dims: 'XYZM', littleEndian: false },
    );
    expect(toGeoJson(decodeGeometry(line)!, lonLat)).toEqual({
      type: 'LineString',
      coordinates: [
        [0, 0],
        [1, 1],
      ],
    });
  });

  it('reads compressed lines and polygons (float offsets between full vertices)', () => {
    const ring = [
      [10, 50, 1],
      [10.5, 50, 2],
      [10.5, 50.5, 3],
      [10, 50.5, 4],
      [10, 50, 1],
    ];
    const polygon = parseSpatiaLite(
      spatiaLiteBlob({ polygon: [ring], compressed: true }, { srid: 4326, dims: 'XYZ' }),
    );
    expect(polygon.type).toBe('POLYGON');
    polygon.rings![0]!.forEach((point, i) =>
      point.forEach((v, j) => expect(v).toBeCloseTo(ring[i]![j]!, 5)),
    );
    const measured = [
      [0, 0, 7],
      [2, 1, 8.125],
      [3, 3, 9],
    ];
    const line = parseSpatiaLite(
      spatiaLiteBlob({ line: measured, compressed: true }, { srid: 0, dims: 'XYM' }),
    );
    expect(line.points).toEqual(measured);
  });

  it('reads multi geometries and collections', () => {
    const blob = spatiaLiteBlob(
      {
        collection: 'GEOMETRYCOLLECTION',
        members: [
          { point: [1, 2] },
          {
            collection: 'MULTILINESTRING',
            members: [
              {
                line: [
                  [0, 0],
                  [1, 0],
                  [2, 2],
                ],
                compressed: true,
              },
            ],
          },
        ],
      },
      { srid: 4326 },
    );
    expect(toGeoJson(decodeGeometry(blob)!, lonLat)).toEqual({
      type: 'GeometryCollection',
      geometries: [
        { type: 'Point', coordinates: [1, 2] },
        {
          type: 'MultiLineString',
          coordinates: [
            [
              [0, 0],
              [1, 0],
              [2, 2],
            ],
          ],
        },
      ],
    });
  });

  it('reads plain WKB beside the SpatiaLite and GeoPackage forms', () => {
    const wkb = wkbBlob({ point: [3, 4] });
    expect(isSpatiaLiteBlob(wkb)).toBe(false);
    expect(decodeGeometry(wkb)?.points).toEqual([[3, 4]]);
    expect(headerEnvelope(wkb)).toBeNull();
  });

  it('turns corrupt blobs into nothing, never an exception', () => {
    const good = spatiaLiteBlob(
      {
        polygon: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 0],
          ],
        ],
      },
      { srid: 4326 },
    );
    const truncated = Buffer.concat([good.subarray(0, 50), Buffer.from([0xfe])]);
    const hugeCount = Buffer.from(good);
    hugeCount.writeInt32LE(0x7fffffff, 43);
    const badClass = Buffer.from(good);
    badClass.writeInt32LE(99, 39);
    const trailing = Buffer.concat([good.subarray(0, good.length - 1), Buffer.from([0, 0xfe])]);
    for (const blob of [truncated, hugeCount, badClass, trailing, Buffer.from([0, 1, 2])]) {
      expect(decodeGeometry(blob)).toBeNull();
    }
    expect(decodeGeometry('POINT(1 2)')).toBeNull();
  });

  it('names geometry type codes of SpatiaLite and OGR', () => {
    expect(geometryTypeName(1)).toBe('POINT');
    expect(geometryTypeName(3006)).toBe('MULTIPOLYGON');
    expect(geometryTypeName(0x80000003 | 0)).toBe('POLYGON');
    expect(geometryTypeName(0)).toBe('GEOMETRY');
    expect(geometryTypeName(42)).toBe('GEOMETRY');
  });
});
