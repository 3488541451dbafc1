import { describe, expect, it } from 'vitest';
import { decodeGeometry, toGeoJson } from '../map/geometry';
import { rightHandRule } from './geometry';
import { writeGeoJson } from './formats';
import type { FileSink } from './sink';

type Layer = Parameters<typeof writeGeoJson>[1];

/** A GeoPackage geometry blob (no envelope, little-endian) of WKB. */
function gpkg(wkb: Buffer): Buffer {
  const header = Buffer.from([0x47, 0x50, 0, 0x01, 0, 0, 0, 0]);
  header.writeInt32LE(4326, 4);
  return Buffer.concat([header, wkb]);
}

function point(x: number, y: number): Buffer {
  const b = Buffer.alloc(21);
  b.writeUInt8(1, 0);
  b.writeUInt32LE(1, 1);
  b.writeDoubleLE(x, 5);
  b.writeDoubleLE(y, 13);
  return gpkg(b);
}

/** A polygon of one clockwise ring (the export winds it counter-clockwise). */
function square(): Buffer {
  const ring = [
    [0, 0],
    [0, 2],
    [2, 2],
    [2, 0],
    [0, 0],
  ];
  const b = Buffer.alloc(13 + ring.length * 16);
  b.writeUInt8(1, 0);
  b.writeUInt32LE(3, 1);
  b.writeUInt32LE(1, 5);
  b.writeUInt32LE(ring.length, 9);
  ring.forEach(([x, y], i) => {
    b.writeDoubleLE(x!, 13 + i * 16);
    b.writeDoubleLE(y!, 21 + i * 16);
  });
  return gpkg(b);
}

const layer = {
  name: 'points',
  columns: [{ name: 'name', type: 'text' }],
  // Half of x and y; beyond 1e300 nothing (as a projection out of its area answers).
  transform: {
    toLonLat: (x: number, y: number) => (x > 1e300 ? [Infinity, Infinity] : [x / 2, y / 2]),
  },
} as unknown as Layer;

function exported(rows: unknown[][]): { features: { geometry: unknown }[] } & { text: string } {
  let text = '';
  const sink = { write: (part: string) => (text += part) } as unknown as FileSink;
  writeGeoJson(sink, layer, rows);
  return { ...(JSON.parse(text) as { features: { geometry: unknown }[] }), text };
}

describe('writeGeoJson', () => {
  it('writes each geometry as toGeoJson and JSON.stringify would, points written directly', () => {
    const blobs = [
      point(10.5, -20.25),
      point(-0, 3e21),
      point(0.1 + 0.2, 1 / 3),
      point(NaN, NaN), // an empty point
      point(NaN, 1),
      point(2e300, 1), // no lon/lat
      square(),
      null,
    ];
    const { features, text } = exported(blobs.map((blob, i) => [BigInt(i + 1), blob, `f${i}`]));
    const expected = blobs.map((blob) => {
      const wkb = decodeGeometry(blob);
      const geometry = wkb ? toGeoJson(wkb, layer.transform.toLonLat) : null;
      return geometry ? JSON.stringify(rightHandRule(geometry)) : 'null';
    });
    features.forEach((feature, i) => {
      expect(JSON.stringify(feature.geometry)).toBe(expected[i]);
      expect(text).toContain(`"geometry":${expected[i]},`);
    });
    expect(features.map((f) => f.geometry)).toEqual([
      { type: 'Point', coordinates: [5.25, -10.125] },
      { type: 'Point', coordinates: [0, 1.5e21] },
      { type: 'Point', coordinates: [(0.1 + 0.2) / 2, 1 / 6] },
      null,
      null,
      null,
      {
        type: 'Polygon',
        coordinates: [
          [
            [0, 0],
            [1, 0],
            [1, 1],
            [0, 1],
            [0, 0],
          ],
        ],
      },
      null,
    ]);
  });
});
