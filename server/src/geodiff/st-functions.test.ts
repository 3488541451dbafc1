import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerSpatialFunctions } from './st-functions';

/** A GeoPackage geometry blob: header (little endian, optional xy envelope), then WKB. */
function gpkg(wkb: Buffer, options: { envelope?: number[]; empty?: boolean; srs?: number } = {}) {
  const env = options.envelope ?? [];
  const header = Buffer.alloc(8 + env.length * 8);
  header.write('GP', 0, 'latin1');
  header[2] = 0;
  const kind = env.length === 0 ? 0 : env.length === 4 ? 1 : 2;
  header[3] = 1 | (kind << 1) | (options.empty ? 0x10 : 0);
  header.writeInt32LE(options.srs ?? 4326, 4);
  env.forEach((v, i) => header.writeDoubleLE(v, 8 + i * 8));
  return Buffer.concat([header, wkb]);
}

function wkb(type: number, coords: number[]): Buffer {
  const out = Buffer.alloc(5 + coords.length * 8);
  out[0] = 1;
  out.writeUInt32LE(type, 1);
  coords.forEach((v, i) => out.writeDoubleLE(v, 5 + i * 8));
  return out;
}

function lineString(type: number, points: number[][]): Buffer {
  const flat = points.flat();
  const out = Buffer.alloc(9 + flat.length * 8);
  out[0] = 1;
  out.writeUInt32LE(type, 1);
  out.writeUInt32LE(points.length, 5);
  flat.forEach((v, i) => out.writeDoubleLE(v, 9 + i * 8));
  return out;
}

let db: Database.Database;
beforeAll(() => {
  db = new Database(':memory:');
  registerSpatialFunctions(db);
});
afterAll(() => db.close());

const one = (sql: string, ...params: unknown[]) =>
  (
    db
      .prepare(sql)
      .raw(true)
      .get(...params) as unknown[]
  )[0];

describe('spatial SQL functions', () => {
  it('reads a 3D point from its WKB (no envelope)', () => {
    const point = gpkg(wkb(1001, [1.5, -2, 30]), { srs: 3857 });
    expect(one('SELECT ST_MinX(?)', point)).toBe(1.5);
    expect(one('SELECT ST_MaxY(?)', point)).toBe(-2);
    expect(one('SELECT ST_MinZ(?)', point)).toBe(30);
    expect(one('SELECT ST_IsEmpty(?)', point)).toBe(0);
    expect(one('SELECT ST_GeometryType(?)', point)).toBe('POINT');
    expect(one('SELECT ST_SRID(?)', point)).toBe(3857);
  });

  it('takes a line’s bounds from the header envelope', () => {
    const line = gpkg(
      lineString(2, [
        [0, 0],
        [10, 5],
      ]),
      { envelope: [0, 10, 0, 5] },
    );
    expect([
      one('SELECT ST_MinX(?)', line),
      one('SELECT ST_MaxX(?)', line),
      one('SELECT ST_MinY(?)', line),
      one('SELECT ST_MaxY(?)', line),
    ]).toEqual([0, 10, 0, 5]);
    expect(one('SELECT ST_GeometryType(?)', line)).toBe('LINESTRING');
  });

  it('reports empty geometries, and NULL for NULL or what is not a geometry', () => {
    const empty = gpkg(wkb(1, [NaN, NaN]), { empty: true });
    expect(one('SELECT ST_IsEmpty(?)', empty)).toBe(1);
    expect(one('SELECT ST_MinX(?)', empty)).toBeNull();
    expect(one('SELECT ST_IsEmpty(NULL)')).toBeNull();
    expect(one('SELECT ST_MinX(?)', Buffer.from('not a geometry'))).toBeNull();
    expect(one(`SELECT ST_MaxX('text')`)).toBeNull();
  });

  it('answers GPKG_IsAssignable as the geometry type triggers expect', () => {
    expect(one(`SELECT GPKG_IsAssignable('GEOMETRY', 'POINT')`)).toBe(1);
    expect(one(`SELECT GPKG_IsAssignable('POINT', 'POINT')`)).toBe(1);
    expect(one(`SELECT GPKG_IsAssignable('POINT', 'LINESTRING')`)).toBe(0);
  });
});
