import { describe, expect, it } from 'vitest';
import {
  GeometryDecodeError,
  geoPackageGeometryToWkt,
  readGeoPackageHeader,
  wkbToWkt,
} from './gpkg-geometry';

/** A tiny WKB writer for the tests (either byte order). */
class Wkb {
  private parts: Buffer[] = [];
  constructor(private readonly le = true) {}
  byte(v: number) {
    this.parts.push(Buffer.from([v]));
    return this;
  }
  u32(v: number) {
    const b = Buffer.alloc(4);
    if (this.le) b.writeUInt32LE(v >>> 0);
    else b.writeUInt32BE(v >>> 0);
    this.parts.push(b);
    return this;
  }
  doubles(...values: number[]) {
    for (const v of values) {
      const b = Buffer.alloc(8);
      if (this.le) b.writeDoubleLE(v);
      else b.writeDoubleBE(v);
      this.parts.push(b);
    }
    return this;
  }
  head(type: number) {
    return this.byte(this.le ? 1 : 0).u32(type);
  }
  raw(b: Buffer) {
    this.parts.push(b);
    return this;
  }
  get bytes(): Buffer {
    return Buffer.concat(this.parts);
  }
}

const point = (x: number, y: number, le = true) => new Wkb(le).head(1).doubles(x, y).bytes;
const line = (coords: number[][], type = 2, le = true) => {
  const w = new Wkb(le).head(type).u32(coords.length);
  for (const c of coords) w.doubles(...c);
  return w.bytes;
};
const polygon = (rings: number[][][], type = 3, le = true) => {
  const w = new Wkb(le).head(type).u32(rings.length);
  for (const ring of rings) {
    w.u32(ring.length);
    for (const c of ring) w.doubles(...c);
  }
  return w.bytes;
};
const collection = (type: number, members: Buffer[], le = true) => {
  const w = new Wkb(le).head(type).u32(members.length);
  for (const m of members) w.raw(m);
  return w.bytes;
};

/** GeoPackage header + WKB. */
function gpkg(wkb: Buffer, options: { le?: boolean; envelope?: number[]; empty?: boolean } = {}) {
  const le = options.le ?? true;
  const envelope = options.envelope ?? [];
  const kind = { 0: 0, 4: 1, 6: 2, 8: 4 }[envelope.length as 0 | 4 | 6 | 8];
  const header = Buffer.alloc(8 + envelope.length * 8);
  header.write('GP', 0, 'ascii');
  header[2] = 0;
  header[3] = (le ? 1 : 0) | (kind << 1) | (options.empty ? 0x10 : 0);
  if (le) header.writeInt32LE(4326, 4);
  else header.writeInt32BE(4326, 4);
  envelope.forEach((v, i) => {
    if (le) header.writeDoubleLE(v, 8 + i * 8);
    else header.writeDoubleBE(v, 8 + i * 8);
  });
  return Buffer.concat([header, wkb]);
}

describe('wkbToWkt', () => {
  it('decodes points in both byte orders', () => {
    expect(wkbToWkt(point(1, 2))).toBe('POINT (1 2)');
    expect(wkbToWkt(point(-0.5, 0.16, false))).toBe('POINT (-0.5 0.16)');
  });

  it('decodes Z, M and ZM variants (ISO codes and EWKB flags)', () => {
    expect(wkbToWkt(new Wkb().head(1001).doubles(1, 2, 3).bytes)).toBe('POINT Z (1 2 3)');
    expect(wkbToWkt(new Wkb().head(2001).doubles(1, 2, 4).bytes)).toBe('POINT M (1 2 4)');
    expect(wkbToWkt(new Wkb(false).head(3001).doubles(1, 2, 3, 4).bytes)).toBe(
      'POINT ZM (1 2 3 4)',
    );
    expect(wkbToWkt(new Wkb().head(0x80000001).doubles(1, 2, 3).bytes)).toBe('POINT Z (1 2 3)');
    expect(
      wkbToWkt(
        line(
          [
            [0, 0, 1],
            [1, 1, 2],
          ],
          1002,
        ),
      ),
    ).toBe('LINESTRING Z (0 0 1, 1 1 2)');
  });

  it('decodes an empty point (NaN coordinates) and empty geometries', () => {
    expect(wkbToWkt(point(NaN, NaN))).toBe('POINT EMPTY');
    expect(wkbToWkt(line([]))).toBe('LINESTRING EMPTY');
    expect(wkbToWkt(polygon([]))).toBe('POLYGON EMPTY');
    expect(wkbToWkt(collection(7, []))).toBe('GEOMETRYCOLLECTION EMPTY');
  });

  it('decodes lines, polygons with holes and the multi types', () => {
    expect(
      wkbToWkt(
        line([
          [0, 0],
          [1, 1.5],
          [2, -3],
        ]),
      ),
    ).toBe('LINESTRING (0 0, 1 1.5, 2 -3)');
    const outer = [
      [0, 0],
      [10, 0],
      [10, 10],
      [0, 0],
    ];
    const hole = [
      [1, 1],
      [2, 1],
      [2, 2],
      [1, 1],
    ];
    expect(wkbToWkt(polygon([outer, hole], 3, false))).toBe(
      'POLYGON ((0 0, 10 0, 10 10, 0 0), (1 1, 2 1, 2 2, 1 1))',
    );
    expect(wkbToWkt(collection(4, [point(1, 2), point(3, 4, false)]))).toBe(
      'MULTIPOINT ((1 2), (3 4))',
    );
    expect(
      wkbToWkt(
        collection(5, [
          line([
            [0, 0],
            [1, 1],
          ]),
          line([
            [2, 2],
            [3, 3],
          ]),
        ]),
      ),
    ).toBe('MULTILINESTRING ((0 0, 1 1), (2 2, 3 3))');
    expect(wkbToWkt(collection(6, [polygon([outer]), polygon([hole])]))).toBe(
      'MULTIPOLYGON (((0 0, 10 0, 10 10, 0 0)), ((1 1, 2 1, 2 2, 1 1)))',
    );
    expect(
      wkbToWkt(
        collection(1007, [
          new Wkb().head(1001).doubles(1, 2, 3).bytes,
          line(
            [
              [0, 0, 0],
              [1, 1, 1],
            ],
            1002,
          ),
        ]),
      ),
    ).toBe('GEOMETRYCOLLECTION Z (POINT Z (1 2 3), LINESTRING Z (0 0 0, 1 1 1))');
    expect(wkbToWkt(collection(7, [collection(4, [point(1, 1)]), point(2, 2)]))).toBe(
      'GEOMETRYCOLLECTION (MULTIPOINT ((1 1)), POINT (2 2))',
    );
  });

  it('decodes curves', () => {
    const arc = line(
      [
        [1, 1],
        [2, 2],
        [3, 1],
      ],
      8,
    );
    expect(wkbToWkt(arc)).toBe('CIRCULARSTRING (1 1, 2 2, 3 1)');
    expect(
      wkbToWkt(
        collection(9, [
          line([
            [0, 0],
            [1, 1],
          ]),
          arc,
        ]),
      ),
    ).toBe('COMPOUNDCURVE ((0 0, 1 1), CIRCULARSTRING (1 1, 2 2, 3 1))');
  });

  it('refuses truncated, unknown and over-counted geometries', () => {
    expect(() => wkbToWkt(point(1, 2).subarray(0, 12))).toThrow(GeometryDecodeError);
    expect(() => wkbToWkt(new Wkb().head(99).doubles(1, 2).bytes)).toThrow(GeometryDecodeError);
    expect(() => wkbToWkt(new Wkb().head(2).u32(0xffffffff).bytes)).toThrow(GeometryDecodeError);
    expect(() => wkbToWkt(Buffer.from([7, 1, 0, 0, 0]))).toThrow(GeometryDecodeError);
    // A collection that contains itself over and over.
    let nested = point(0, 0);
    for (let i = 0; i < 40; i++) nested = collection(7, [nested]);
    expect(() => wkbToWkt(nested)).toThrow(/nested too deeply/);
  });
});

describe('geoPackageGeometryToWkt', () => {
  it('skips the header with or without an envelope, in either byte order', () => {
    expect(geoPackageGeometryToWkt(gpkg(point(1, 2)))).toBe('POINT (1 2)');
    const envelope = [0, 10, 0, 10];
    expect(
      geoPackageGeometryToWkt(
        gpkg(
          line([
            [0, 0],
            [10, 10],
          ]),
          { envelope },
        ),
      ),
    ).toBe('LINESTRING (0 0, 10 10)');
    expect(
      geoPackageGeometryToWkt(
        gpkg(
          line(
            [
              [0, 0, 1],
              [10, 10, 2],
            ],
            1002,
            false,
          ),
          {
            le: false,
            envelope: [0, 10, 0, 10, 1, 2],
          },
        ),
      ),
    ).toBe('LINESTRING Z (0 0 1, 10 10 2)');
    expect(readGeoPackageHeader(gpkg(point(1, 2), { le: false, envelope }))).toEqual({
      srsId: 4326,
      empty: false,
      envelope,
      wkbOffset: 40,
    });
  });

  it('reads empty geometries', () => {
    expect(geoPackageGeometryToWkt(gpkg(point(NaN, NaN), { empty: true }))).toBe('POINT EMPTY');
    expect(geoPackageGeometryToWkt(gpkg(Buffer.alloc(0), { empty: true }))).toBe(
      'GEOMETRYCOLLECTION EMPTY',
    );
  });

  it('refuses blobs that are not GeoPackage geometries', () => {
    expect(() => geoPackageGeometryToWkt(point(1, 2))).toThrow(/GP magic/);
    expect(() => geoPackageGeometryToWkt(Buffer.from('GP'))).toThrow(GeometryDecodeError);
    const bad = gpkg(point(1, 2));
    bad[3] = 0x0b; // envelope indicator 5
    expect(() => geoPackageGeometryToWkt(bad)).toThrow(/envelope/);
  });
});
