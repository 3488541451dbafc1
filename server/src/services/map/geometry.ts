/**
 * Geometry blobs as GeoJSON (for geojson-vt and for deleted features) and their extents, on
 * top of lib/gpkg-geometry.ts (which checks every byte it reads). A blob is read by its
 * form: a GeoPackage geometry (starts "GP"), a SpatiaLite one (spatialite-geometry.ts), else
 * plain WKB (SQLite tables of GDAL's WKB layout). Curves become their vertices joined by
 * straight lines; Z and M are dropped.
 */
import {
  GeometryDecodeError,
  parseWkb,
  readGeoPackageHeader,
  type WkbGeometry,
} from '../../lib/gpkg-geometry';
import type { Extent, GeoJsonGeometry } from '../../schemas/map';
import { isSpatiaLiteBlob, parseSpatiaLite, spatiaLiteMbr } from './spatialite-geometry';

type Project = (x: number, y: number) => [number, number];
type Position = [number, number];

/** A GeoPackage geometry starts with "GP". */
const isGeoPackageBlob = (blob: Uint8Array) => blob[0] === 0x47 && blob[1] === 0x50;

/** The WKB geometry of a blob (any of the forms above); null when empty or unreadable. */
export function decodeGeometry(blob: unknown): WkbGeometry | null {
  if (!(blob instanceof Uint8Array)) return null;
  try {
    if (!isGeoPackageBlob(blob)) {
      return isSpatiaLiteBlob(blob) ? parseSpatiaLite(blob) : parseWkb(blob, 0);
    }
    const header = readGeoPackageHeader(blob);
    if (header.empty && header.wkbOffset >= blob.length) return null;
    return parseWkb(blob, header.wkbOffset);
  } catch (error) {
    if (error instanceof GeometryDecodeError) return null;
    throw error;
  }
}

/**
 * The envelope of a blob from its header (a GeoPackage's `[minx, maxx, miny, maxy]`, a
 * SpatiaLite MBR) as `[minx, miny, maxx, maxy]`, or null (none, or plain WKB).
 */
export function headerEnvelope(blob: unknown): Extent | null {
  if (!(blob instanceof Uint8Array)) return null;
  if (!isGeoPackageBlob(blob)) return spatiaLiteMbr(blob);
  try {
    const header = readGeoPackageHeader(blob);
    if (header.envelope.length < 4) return null;
    const [minx, maxx, miny, maxy] = header.envelope as [number, number, number, number];
    return [minx, miny, maxx, maxy];
  } catch (error) {
    if (error instanceof GeometryDecodeError) return null;
    throw error;
  }
}

function valid(point: number[]): boolean {
  return Number.isFinite(point[0]) && Number.isFinite(point[1]);
}

function line(points: number[][], project: Project): Position[] {
  const out: Position[] = [];
  for (const point of points) {
    if (!valid(point)) continue;
    const p = project(point[0]!, point[1]!);
    if (valid(p)) out.push(p);
  }
  return out;
}

/** The vertices of a curve (line string, circular string or compound curve). */
function curvePoints(g: WkbGeometry): number[][] {
  if (g.points) return g.points;
  return (g.members ?? []).flatMap(curvePoints);
}

function ringsOf(g: WkbGeometry, project: Project): Position[][] {
  const rings = g.rings ?? (g.members ?? []).map(curvePoints);
  return rings.map((ring) => line(ring, project)).filter((ring) => ring.length >= 4);
}

/**
 * A WKB geometry as GeoJSON, each coordinate through `project` (to lon/lat); null when
 * nothing of it can be drawn.
 */
export function toGeoJson(g: WkbGeometry, project: Project): GeoJsonGeometry | null {
  switch (g.type) {
    case 'POINT': {
      const points = line(g.points ?? [], project);
      return points.length === 1 ? { type: 'Point', coordinates: points[0] } : null;
    }
    case 'LINESTRING':
    case 'CIRCULARSTRING':
    case 'COMPOUNDCURVE': {
      const points = line(curvePoints(g), project);
      return points.length >= 2 ? { type: 'LineString', coordinates: points } : null;
    }
    case 'POLYGON':
    case 'TRIANGLE':
    case 'CURVEPOLYGON': {
      const rings = ringsOf(g, project);
      return rings.length > 0 ? { type: 'Polygon', coordinates: rings } : null;
    }
    case 'MULTIPOINT': {
      const points = (g.members ?? []).flatMap((m) => line(m.points ?? [], project));
      return points.length > 0 ? { type: 'MultiPoint', coordinates: points } : null;
    }
    case 'MULTILINESTRING':
    case 'MULTICURVE': {
      const lines = (g.members ?? [])
        .map((m) => line(curvePoints(m), project))
        .filter((l) => l.length >= 2);
      return lines.length > 0 ? { type: 'MultiLineString', coordinates: lines } : null;
    }
    case 'MULTIPOLYGON':
    case 'MULTISURFACE':
    case 'POLYHEDRALSURFACE':
    case 'TIN': {
      const polygons = (g.members ?? []).map((m) => ringsOf(m, project)).filter((p) => p.length);
      return polygons.length > 0 ? { type: 'MultiPolygon', coordinates: polygons } : null;
    }
    default: {
      const geometries = (g.members ?? [])
        .map((m) => toGeoJson(m, project))
        .filter((m): m is GeoJsonGeometry => m !== null);
      return geometries.length > 0 ? { type: 'GeometryCollection', geometries } : null;
    }
  }
}

/** The extent of a geometry's coordinates after `project`; null when it has none. */
export function geometryExtent(g: WkbGeometry, project: Project): Extent | null {
  const out = [Infinity, Infinity, -Infinity, -Infinity];
  const visit = (geometry: WkbGeometry) => {
    const all = [...(geometry.points ?? []), ...(geometry.rings ?? []).flat()];
    for (const point of all) {
      if (!valid(point)) continue;
      const [x, y] = project(point[0]!, point[1]!);
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      out[0] = Math.min(out[0]!, x);
      out[1] = Math.min(out[1]!, y);
      out[2] = Math.max(out[2]!, x);
      out[3] = Math.max(out[3]!, y);
    }
    for (const member of geometry.members ?? []) visit(member);
  };
  visit(g);
  return out.every(Number.isFinite) ? out : null;
}
