/**
 * The spatial SQL functions GeoPackage triggers call (the R-tree triggers: ST_IsEmpty,
 * ST_MinX, ST_MaxX, ST_MinY, ST_MaxY; GDAL-made files may also call ST_MinZ, ST_MaxZ,
 * ST_GeometryType, ST_SRID and GPKG_IsAssignable), which plain SQLite lacks. They read the
 * GeoPackage binary header's envelope, or walk the WKB when there is none (points). A value
 * that is not a GeoPackage geometry gives NULL, as SpatiaLite's do.
 */
import type Database from 'better-sqlite3';
import { GeometryDecodeError, readGeoPackageHeader } from '../lib/gpkg-geometry';

interface Bounds {
  empty: boolean;
  srsId: number;
  type: string | null;
  minX: number;
  maxX: number;
  minY: number;
  maxY: number;
  minZ: number | null;
  maxZ: number | null;
}

const TYPE_NAMES: Record<number, string> = {
  0: 'GEOMETRY',
  1: 'POINT',
  2: 'LINESTRING',
  3: 'POLYGON',
  4: 'MULTIPOINT',
  5: 'MULTILINESTRING',
  6: 'MULTIPOLYGON',
  7: 'GEOMETRYCOLLECTION',
  8: 'CIRCULARSTRING',
  9: 'COMPOUNDCURVE',
  10: 'CURVEPOLYGON',
  11: 'MULTICURVE',
  12: 'MULTISURFACE',
  13: 'CURVE',
  14: 'SURFACE',
  15: 'POLYHEDRALSURFACE',
  16: 'TIN',
  17: 'TRIANGLE',
};
const MAX_DEPTH = 32;

class WkbWalker {
  offset: number;
  minX = Infinity;
  maxX = -Infinity;
  minY = Infinity;
  maxY = -Infinity;
  minZ = Infinity;
  maxZ = -Infinity;
  private readonly view: DataView;
  constructor(bytes: Uint8Array, offset: number) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = offset;
  }
  private need(n: number): void {
    if (this.offset + n > this.view.byteLength) throw new GeometryDecodeError('WKB ends early');
  }
  private u32(le: boolean): number {
    this.need(4);
    const v = this.view.getUint32(this.offset, le);
    this.offset += 4;
    return v;
  }
  private f64(le: boolean): number {
    this.need(8);
    const v = this.view.getFloat64(this.offset, le);
    this.offset += 8;
    return v;
  }
  /** Walks one geometry; returns its base type code. */
  geometry(depth: number): number {
    if (depth > MAX_DEPTH) throw new GeometryDecodeError('Geometry nested too deeply');
    this.need(1);
    const le = this.view.getUint8(this.offset++) === 1;
    let code = this.u32(le);
    let hasZ = false;
    let hasM = false;
    if (code & 0x80000000) hasZ = true;
    if (code & 0x40000000) hasM = true;
    if (code & 0x20000000) {
      code &= ~0x20000000;
      this.u32(le); // EWKB SRID
    }
    code &= 0x0fffffff;
    const iso = Math.floor(code / 1000);
    if (iso === 1 || iso === 3) hasZ = true;
    if (iso === 2 || iso === 3) hasM = true;
    const base = code % 1000;
    const dims = 2 + (hasZ ? 1 : 0) + (hasM ? 1 : 0);
    const point = () => {
      const x = this.f64(le);
      const y = this.f64(le);
      const z = hasZ ? this.f64(le) : NaN;
      if (hasM) this.f64(le);
      if (Number.isNaN(x) && Number.isNaN(y)) return; // empty point
      this.minX = Math.min(this.minX, x);
      this.maxX = Math.max(this.maxX, x);
      this.minY = Math.min(this.minY, y);
      this.maxY = Math.max(this.maxY, y);
      if (hasZ && !Number.isNaN(z)) {
        this.minZ = Math.min(this.minZ, z);
        this.maxZ = Math.max(this.maxZ, z);
      }
    };
    const points = () => {
      const n = this.u32(le);
      this.need(n * dims * 8);
      for (let i = 0; i < n; i++) point();
    };
    switch (base) {
      case 1:
        point();
        break;
      case 2:
      case 8:
        points();
        break;
      case 3:
      case 17: {
        const rings = this.u32(le);
        this.need(rings * 4);
        for (let i = 0; i < rings; i++) points();
        break;
      }
      case 4:
      case 5:
      case 6:
      case 7:
      case 9:
      case 10:
      case 11:
      case 12:
      case 15:
      case 16: {
        const parts = this.u32(le);
        this.need(parts * 5);
        for (let i = 0; i < parts; i++) this.geometry(depth + 1);
        break;
      }
      default:
        throw new GeometryDecodeError(`Unknown WKB geometry type ${code}`);
    }
    return base;
  }
}

function asBytes(value: unknown): Uint8Array | null {
  return value instanceof Uint8Array ? value : null;
}

/** Bounds of a GeoPackage geometry blob; null when it is not one. */
export function geometryBounds(value: unknown): Bounds | null {
  const bytes = asBytes(value);
  if (!bytes) return null;
  try {
    const header = readGeoPackageHeader(bytes);
    const walker = new WkbWalker(bytes, header.wkbOffset);
    let type: string | null = null;
    if (header.wkbOffset < bytes.length) type = TYPE_NAMES[walker.geometry(0)] ?? null;
    const env = header.envelope;
    const fromEnvelope = env.length >= 4;
    const minX = fromEnvelope ? env[0]! : walker.minX;
    const maxX = fromEnvelope ? env[1]! : walker.maxX;
    const minY = fromEnvelope ? env[2]! : walker.minY;
    const maxY = fromEnvelope ? env[3]! : walker.maxY;
    const zFromEnvelope = env.length === 6 || env.length === 8;
    const minZ = zFromEnvelope ? env[4]! : Number.isFinite(walker.minZ) ? walker.minZ : null;
    const maxZ = zFromEnvelope ? env[5]! : Number.isFinite(walker.maxZ) ? walker.maxZ : null;
    const empty = header.empty || !(Number.isFinite(minX) && Number.isFinite(minY));
    return { empty, srsId: header.srsId, type, minX, maxX, minY, maxY, minZ, maxZ };
  } catch (error) {
    if (error instanceof GeometryDecodeError) return null;
    throw error;
  }
}

function coordinate(value: unknown, pick: (b: Bounds) => number | null): number | null {
  const b = geometryBounds(value);
  if (!b || b.empty) return null;
  return pick(b);
}

/** Registers the functions on a connection. */
export function registerSpatialFunctions(db: Database.Database): void {
  const options = { deterministic: true };
  db.function('ST_IsEmpty', options, (g: unknown) => {
    const b = geometryBounds(g);
    return b ? (b.empty ? 1 : 0) : null;
  });
  db.function('ST_MinX', options, (g: unknown) => coordinate(g, (b) => b.minX));
  db.function('ST_MaxX', options, (g: unknown) => coordinate(g, (b) => b.maxX));
  db.function('ST_MinY', options, (g: unknown) => coordinate(g, (b) => b.minY));
  db.function('ST_MaxY', options, (g: unknown) => coordinate(g, (b) => b.maxY));
  db.function('ST_MinZ', options, (g: unknown) => coordinate(g, (b) => b.minZ));
  db.function('ST_MaxZ', options, (g: unknown) => coordinate(g, (b) => b.maxZ));
  db.function('ST_SRID', options, (g: unknown) => geometryBounds(g)?.srsId ?? null);
  db.function('ST_GeometryType', options, (g: unknown) => geometryBounds(g)?.type ?? null);
  // GDAL's geometry type triggers: whether a geometry of type `actual` may go into a column
  // of type `expected` (equal, or the column is a generic GEOMETRY).
  db.function('GPKG_IsAssignable', options, (expected: unknown, actual: unknown) => {
    const e = String(expected ?? '').toUpperCase();
    const a = String(actual ?? '').toUpperCase();
    return e === a || e === 'GEOMETRY' ? 1 : 0;
  });
}
