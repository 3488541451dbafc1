/**
 * GeoJSON geometries (EPSG:4326, from the browser) as GeoPackage geometry blobs of a layer:
 * reprojected to the layer's CRS (services/map/crs.ts), a single geometry promoted to the
 * layer's multi type (a Point into a MULTIPOINT layer), written as a GeoPackage header
 * (little endian, xy envelope, the layer's srs_id) followed by ISO WKB with the dimensions
 * the layer requires (Z or M written as 0 unless the GeoJSON gives Z). Anything that is
 * not GeoJSON of a kind the layer holds is a GeometryInputError.
 */
import type { GeoJsonGeometry } from '../../schemas/map';
import type { LayerTransform } from '../map/crs';

export class GeometryInputError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeometryInputError';
  }
}

/** Most vertices of one geometry. */
export const MAX_VERTICES = 1_000_000;

const WKB_CODES: Record<string, number> = {
  Point: 1,
  LineString: 2,
  Polygon: 3,
  MultiPoint: 4,
  MultiLineString: 5,
  MultiPolygon: 6,
};

/** GeoJSON types each layer geometry type takes (GeoPackage geometry type names). */
const ACCEPTS: Record<string, string[]> = {
  POINT: ['Point'],
  MULTIPOINT: ['Point', 'MultiPoint'],
  LINESTRING: ['LineString'],
  CIRCULARSTRING: ['LineString'],
  COMPOUNDCURVE: ['LineString'],
  CURVE: ['LineString'],
  MULTILINESTRING: ['LineString', 'MultiLineString'],
  MULTICURVE: ['LineString', 'MultiLineString'],
  POLYGON: ['Polygon'],
  CURVEPOLYGON: ['Polygon'],
  SURFACE: ['Polygon'],
  MULTIPOLYGON: ['Polygon', 'MultiPolygon'],
  MULTISURFACE: ['Polygon', 'MultiPolygon'],
  GEOMETRY: ['Point', 'LineString', 'Polygon', 'MultiPoint', 'MultiLineString', 'MultiPolygon'],
};
const MULTI_OF: Record<string, string> = {
  Point: 'MultiPoint',
  LineString: 'MultiLineString',
  Polygon: 'MultiPolygon',
};

export interface GeometryTarget {
  /** The layer's geometry type name (POINT, MULTIPOLYGON, GEOMETRY, …). */
  type: string;
  srsId: number;
  /** gpkg_geometry_columns z / m: 1 = required. */
  z: number;
  m: number;
  transform: LayerTransform;
}

type Position = number[];

function position(value: unknown, count: { n: number }): Position {
  if (!Array.isArray(value) || value.length < 2 || value.length > 4) {
    throw new GeometryInputError('A position must be [longitude, latitude]');
  }
  if (!value.every((v) => typeof v === 'number' && Number.isFinite(v))) {
    throw new GeometryInputError('Coordinates must be finite numbers');
  }
  const [lon, lat] = value as number[];
  if (lon! < -180 || lon! > 180 || lat! < -90 || lat! > 90) {
    throw new GeometryInputError('Coordinates must be longitude and latitude (EPSG:4326)');
  }
  if (++count.n > MAX_VERTICES) throw new GeometryInputError('The geometry has too many vertices');
  return value as number[];
}

function list<T>(value: unknown, item: (v: unknown) => T, min: number, what: string): T[] {
  if (!Array.isArray(value) || value.length < min) {
    throw new GeometryInputError(`${what} needs at least ${min} item(s)`);
  }
  return value.map(item);
}

class Writer {
  private parts: Buffer[] = [];
  byte(v: number) {
    this.parts.push(Buffer.from([v]));
  }
  uint32(v: number) {
    const b = Buffer.alloc(4);
    b.writeUInt32LE(v);
    this.parts.push(b);
  }
  doubles(values: number[]) {
    const b = Buffer.alloc(8 * values.length);
    values.forEach((v, i) => b.writeDoubleLE(v, i * 8));
    this.parts.push(b);
  }
  result() {
    return Buffer.concat(this.parts);
  }
}

/** The blob of `geometry` for the layer; throws GeometryInputError. */
export function encodeGeometry(geometry: GeoJsonGeometry, target: GeometryTarget): Buffer {
  if (typeof geometry !== 'object' || geometry === null || typeof geometry.type !== 'string') {
    throw new GeometryInputError('The geometry must be a GeoJSON geometry');
  }
  const layerType = target.type.toUpperCase();
  const accepted = ACCEPTS[layerType];
  if (!accepted?.includes(geometry.type)) {
    throw new GeometryInputError(`A ${geometry.type} cannot be stored in a ${layerType} layer`);
  }
  let type = geometry.type;
  let coordinates: unknown = geometry.coordinates;
  if (layerType.startsWith('MULTI') && MULTI_OF[type]) {
    type = MULTI_OF[type]!;
    coordinates = [coordinates];
  }
  const count = { n: 0 };
  const ring = (v: unknown) => list(v, (p) => position(p, count), 4, 'A polygon ring');
  const line = (v: unknown) => list(v, (p) => position(p, count), 2, 'A line');
  const polygon = (v: unknown) => list(v, ring, 1, 'A polygon');
  let parsed: unknown;
  switch (type) {
    case 'Point':
      parsed = position(coordinates, count);
      break;
    case 'LineString':
      parsed = line(coordinates);
      break;
    case 'Polygon':
      parsed = polygon(coordinates);
      break;
    case 'MultiPoint':
      parsed = list(coordinates, (p) => position(p, count), 1, 'A multipoint');
      break;
    case 'MultiLineString':
      parsed = list(coordinates, line, 1, 'A multiline');
      break;
    case 'MultiPolygon':
      parsed = list(coordinates, polygon, 1, 'A multipolygon');
      break;
    default:
      throw new GeometryInputError(`Unsupported geometry type ${type}`);
  }

  const hasZ = target.z === 1;
  const hasM = target.m === 1;
  const env = [Infinity, -Infinity, Infinity, -Infinity];
  const project = (p: Position): number[] => {
    const [x, y] = target.transform.fromLonLat(p[0]!, p[1]!);
    if (!Number.isFinite(x) || !Number.isFinite(y)) {
      throw new GeometryInputError('The position cannot be reprojected to the layer’s CRS');
    }
    env[0] = Math.min(env[0]!, x);
    env[1] = Math.max(env[1]!, x);
    env[2] = Math.min(env[2]!, y);
    env[3] = Math.max(env[3]!, y);
    const out = [x, y];
    if (hasZ) out.push(p[2] ?? 0);
    if (hasM) out.push(0);
    return out;
  };
  const dims = (hasZ ? 1000 : 0) + (hasM ? 2000 : 0);
  const w = new Writer();
  const header = (code: number) => {
    w.byte(1);
    w.uint32(code + dims);
  };
  const writePoints = (points: Position[]) => {
    w.uint32(points.length);
    for (const p of points) w.doubles(project(p));
  };
  const writePolygon = (rings: Position[][]) => {
    w.uint32(rings.length);
    for (const r of rings) writePoints(r);
  };
  const code = WKB_CODES[type]!;
  header(code);
  switch (type) {
    case 'Point':
      w.doubles(project(parsed as Position));
      break;
    case 'LineString':
      writePoints(parsed as Position[]);
      break;
    case 'Polygon':
      writePolygon(parsed as Position[][]);
      break;
    case 'MultiPoint':
      w.uint32((parsed as Position[]).length);
      for (const p of parsed as Position[]) {
        header(1);
        w.doubles(project(p));
      }
      break;
    case 'MultiLineString':
      w.uint32((parsed as Position[][]).length);
      for (const l of parsed as Position[][]) {
        header(2);
        writePoints(l);
      }
      break;
    case 'MultiPolygon':
      w.uint32((parsed as Position[][][]).length);
      for (const p of parsed as Position[][][]) {
        header(3);
        writePolygon(p);
      }
      break;
  }
  const wkb = w.result();
  const gp = Buffer.alloc(40);
  gp.write('GP', 0, 'ascii');
  gp.writeUInt8(0, 2);
  gp.writeUInt8(0b0000_0011, 3); // little endian, xy envelope
  gp.writeInt32LE(target.srsId, 4);
  env.forEach((v, i) => gp.writeDoubleLE(v, 8 + i * 8));
  return Buffer.concat([gp, wkb]);
}
