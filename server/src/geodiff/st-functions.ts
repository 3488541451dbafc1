/**
 * The spatial SQL functions GeoPackage triggers call (the R-tree triggers: ST_IsEmpty,
 * ST_MinX, ST_MaxX, ST_MinY, ST_MaxY; GDAL-made files may also call ST_MinZ, ST_MaxZ,
 * ST_GeometryType, ST_SRID and GPKG_IsAssignable), which plain SQLite lacks. They read the
 * GeoPackage binary header's envelope, or walk the WKB when there is none (points). A value
 * that is not a GeoPackage geometry gives NULL, as SpatiaLite's do.
 */
import type Database from 'better-sqlite3';
import {
  GeometryDecodeError,
  forEachCoordinate,
  parseWkb,
  readGeoPackageHeader,
} from '../lib/gpkg-geometry';

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

function asBytes(value: unknown): Uint8Array | null {
  return value instanceof Uint8Array ? value : null;
}

/** Bounds of a GeoPackage geometry blob; null when it is not one. */
export function geometryBounds(value: unknown): Bounds | null {
  const bytes = asBytes(value);
  if (!bytes) return null;
  try {
    const header = readGeoPackageHeader(bytes);
    const walked = { minX: Infinity, maxX: -Infinity, minY: Infinity, maxY: -Infinity };
    let minZ = Infinity;
    let maxZ = -Infinity;
    let type: string | null = null;
    if (header.wkbOffset < bytes.length) {
      const geometry = parseWkb(bytes, header.wkbOffset);
      type = geometry.type;
      forEachCoordinate(geometry, ([x, y, z], owner) => {
        if (Number.isNaN(x) && Number.isNaN(y)) return; // empty point
        walked.minX = Math.min(walked.minX, x!);
        walked.maxX = Math.max(walked.maxX, x!);
        walked.minY = Math.min(walked.minY, y!);
        walked.maxY = Math.max(walked.maxY, y!);
        if (owner.z && !Number.isNaN(z)) {
          minZ = Math.min(minZ, z!);
          maxZ = Math.max(maxZ, z!);
        }
      });
    }
    const env = header.envelope;
    const fromEnvelope = env.length >= 4;
    const minX = fromEnvelope ? env[0]! : walked.minX;
    const maxX = fromEnvelope ? env[1]! : walked.maxX;
    const minY = fromEnvelope ? env[2]! : walked.minY;
    const maxY = fromEnvelope ? env[3]! : walked.maxY;
    const zFromEnvelope = env.length === 6 || env.length === 8;
    const empty = header.empty || !(Number.isFinite(minX) && Number.isFinite(minY));
    return {
      empty,
      srsId: header.srsId,
      type,
      minX,
      maxX,
      minY,
      maxY,
      minZ: zFromEnvelope ? env[4]! : Number.isFinite(minZ) ? minZ : null,
      maxZ: zFromEnvelope ? env[5]! : Number.isFinite(maxZ) ? maxZ : null,
    };
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
