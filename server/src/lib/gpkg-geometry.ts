/**
 * GeoPackage geometry blobs to WKT (OGC GeoPackage 1.3 §2.1.3, OGC Simple Features WKB).
 *
 * A GeoPackage geometry is a header ("GP", version, flags, srs_id, optional envelope) followed
 * by ISO WKB. Flags: bit 0 byte order of the header (1 little endian), bits 1-3 the envelope
 * (0 none, 1 xy, 2 xyz, 3 xym, 4 xyzm), bit 4 empty geometry, bit 5 extended type. WKB
 * geometries carry their own byte order; their type code is ISO (1000 Z, 2000 M, 3000 ZM) or
 * the older EWKB flags (0x80000000 Z, 0x40000000 M, 0x20000000 SRID follows).
 *
 * Decoding never trusts a count: every read is checked against the bytes left, and nesting
 * is bounded, so a corrupt blob is an error (GeometryDecodeError), never a crash or a huge
 * allocation.
 */

export class GeometryDecodeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GeometryDecodeError';
  }
}

/** WKB base type codes and their names (SpatiaLite uses 1-7 of them too). */
export const TYPE_NAMES: Record<number, string> = {
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
  15: 'POLYHEDRALSURFACE',
  16: 'TIN',
  17: 'TRIANGLE',
};

/** Deepest nesting of collections accepted. */
const MAX_DEPTH = 32;

const ENVELOPE_BYTES = [0, 32, 48, 48, 64];

class Reader {
  offset: number;
  constructor(
    private readonly view: DataView,
    offset: number,
  ) {
    this.offset = offset;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.view.byteLength) {
      throw new GeometryDecodeError('Geometry ends unexpectedly');
    }
  }

  byte(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }

  uint32(littleEndian: boolean): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, littleEndian);
    this.offset += 4;
    return value;
  }

  double(littleEndian: boolean): number {
    this.need(8);
    const value = this.view.getFloat64(this.offset, littleEndian);
    this.offset += 8;
    return value;
  }

  /** A count of items of at least `minBytes` bytes each, checked against what is left. */
  count(littleEndian: boolean, minBytes: number): number {
    const n = this.uint32(littleEndian);
    if (n * minBytes > this.view.byteLength - this.offset) {
      throw new GeometryDecodeError('Geometry count exceeds its bytes');
    }
    return n;
  }
}

/** A parsed WKB geometry. */
export interface WkbGeometry {
  /** The base type code (1 POINT … 17 TRIANGLE). */
  base: number;
  /** The type name (POINT, …). */
  type: string;
  z: boolean;
  m: boolean;
  /** POINT (one coordinate, NaNs when empty), LINESTRING, CIRCULARSTRING. */
  points?: number[][];
  /** POLYGON, TRIANGLE. */
  rings?: number[][][];
  /** Collections. */
  members?: WkbGeometry[];
}

function readCoord(r: Reader, le: boolean, z: boolean, m: boolean): number[] {
  const coord = [r.double(le), r.double(le)];
  if (z) coord.push(r.double(le));
  if (m) coord.push(r.double(le));
  return coord;
}

function readPoints(r: Reader, le: boolean, z: boolean, m: boolean): number[][] {
  const n = r.count(le, 8 * (2 + (z ? 1 : 0) + (m ? 1 : 0)));
  const points: number[][] = [];
  for (let i = 0; i < n; i++) points.push(readCoord(r, le, z, m));
  return points;
}

function readWkb(r: Reader, depth: number): WkbGeometry {
  if (depth > MAX_DEPTH) throw new GeometryDecodeError('Geometry nested too deeply');
  const order = r.byte();
  if (order > 1) throw new GeometryDecodeError(`Invalid WKB byte order ${order}`);
  const le = order === 1;
  let code = r.uint32(le);
  // EWKB flags.
  let z = (code & 0x80000000) !== 0;
  let m = (code & 0x40000000) !== 0;
  if (code & 0x20000000) r.uint32(le); // SRID
  code &= 0x0fffffff;
  // ISO dimensions.
  const iso = Math.floor(code / 1000);
  if (iso > 3) throw new GeometryDecodeError(`Unknown WKB geometry type ${code}`);
  if (iso === 1 || iso === 3) z = true;
  if (iso === 2 || iso === 3) m = true;
  const base = code % 1000;
  const type = TYPE_NAMES[base];
  if (!type) throw new GeometryDecodeError(`Unknown WKB geometry type ${code}`);
  const geometry: WkbGeometry = { base, type, z, m };
  switch (base) {
    case 1:
      geometry.points = [readCoord(r, le, z, m)];
      break;
    case 2:
    case 8:
      geometry.points = readPoints(r, le, z, m);
      break;
    case 3:
    case 17: {
      const n = r.count(le, 4);
      geometry.rings = [];
      for (let i = 0; i < n; i++) geometry.rings.push(readPoints(r, le, z, m));
      break;
    }
    default: {
      // Collections of WKB geometries.
      const n = r.count(le, 5);
      geometry.members = [];
      for (let i = 0; i < n; i++) geometry.members.push(readWkb(r, depth + 1));
    }
  }
  return geometry;
}

/** The WKB geometry that starts at `offset` in `bytes`, with everything in it checked. */
export function parseWkb(bytes: Uint8Array, offset = 0): WkbGeometry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  return readWkb(new Reader(view, offset), 0);
}

/** Calls `visit` with every coordinate of `geometry` and its members (empty points too). */
export function forEachCoordinate(
  geometry: WkbGeometry,
  visit: (coord: number[], owner: WkbGeometry) => void,
): void {
  for (const point of geometry.points ?? []) visit(point, geometry);
  for (const ring of geometry.rings ?? []) for (const point of ring) visit(point, geometry);
  for (const member of geometry.members ?? []) forEachCoordinate(member, visit);
}

/** A number as WKT writes it: shortest round-trip form, no negative zero. */
function num(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return Object.is(value, -0) ? '0' : String(value);
}

function dimsSuffix(g: WkbGeometry): string {
  if (g.z && g.m) return ' ZM';
  if (g.z) return ' Z';
  if (g.m) return ' M';
  return '';
}

function coordText(coord: number[]): string {
  return coord.map(num).join(' ');
}

function pointsText(points: number[][]): string {
  if (points.length === 0) return 'EMPTY';
  return `(${points.map(coordText).join(', ')})`;
}

/** The body only ("(1 2)" or "EMPTY"), for members written without their type. */
function bodyText(g: WkbGeometry): string {
  if (g.base === 1) {
    const coord = g.points![0]!;
    // An empty point is written with NaN coordinates.
    return coord.every((v) => Number.isNaN(v)) ? 'EMPTY' : `(${coordText(coord)})`;
  }
  if (g.points) return pointsText(g.points);
  if (g.rings) return g.rings.length === 0 ? 'EMPTY' : `(${g.rings.map(pointsText).join(', ')})`;
  const members = g.members!;
  if (members.length === 0) return 'EMPTY';
  return `(${members.map((member) => memberText(g.base, member)).join(', ')})`;
}

/** Full WKT with the type name and dimensions. */
function wktText(g: WkbGeometry): string {
  return `${g.type}${dimsSuffix(g)} ${bodyText(g)}`;
}

/** How a member of a collection is written: untagged where WKT expects it. */
function memberText(collection: number, member: WkbGeometry): string {
  switch (collection) {
    case 4: // MULTIPOINT ((1 2), (3 4))
    case 5: // MULTILINESTRING ((…), (…))
    case 6: // MULTIPOLYGON (((…)), ((…)))
    case 15: // POLYHEDRALSURFACE
    case 16: // TIN
      return bodyText(member);
    case 9: // COMPOUNDCURVE: line strings untagged, arcs tagged
    case 10: // CURVEPOLYGON: rings likewise
    case 11: // MULTICURVE
      return member.type === 'LINESTRING' ? bodyText(member) : wktText(member);
    case 12: // MULTISURFACE: polygons untagged
      return member.type === 'POLYGON' ? bodyText(member) : wktText(member);
    default:
      return wktText(member);
  }
}

/** WKT of a parsed geometry (Z and M kept). */
export function geometryToWkt(g: WkbGeometry): string {
  return wktText(g);
}

/** WKT of a WKB geometry (the whole buffer must be one geometry). */
export function wkbToWkt(bytes: Uint8Array): string {
  return wktText(parseWkb(bytes));
}

export interface GeoPackageGeometry {
  srsId: number;
  empty: boolean;
  envelope: number[];
  /** Offset of the WKB in the blob. */
  wkbOffset: number;
}

/** Reads the GeoPackage binary header (throws GeometryDecodeError when it is not one). */
export function readGeoPackageHeader(bytes: Uint8Array): GeoPackageGeometry {
  if (bytes.length < 8 || bytes[0] !== 0x47 || bytes[1] !== 0x50) {
    throw new GeometryDecodeError('Not a GeoPackage geometry (no GP magic)');
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const flags = bytes[3]!;
  if (flags & 0x20)
    throw new GeometryDecodeError('Extended GeoPackage geometries are not supported');
  const le = (flags & 1) === 1;
  const envelopeKind = (flags >> 1) & 7;
  const envelopeBytes = ENVELOPE_BYTES[envelopeKind];
  if (envelopeBytes === undefined) {
    throw new GeometryDecodeError(`Invalid envelope indicator ${envelopeKind}`);
  }
  if (bytes.length < 8 + envelopeBytes) throw new GeometryDecodeError('Geometry ends unexpectedly');
  const envelope: number[] = [];
  for (let o = 8; o < 8 + envelopeBytes; o += 8) envelope.push(view.getFloat64(o, le));
  return {
    srsId: view.getInt32(4, le),
    empty: (flags & 0x10) !== 0,
    envelope,
    wkbOffset: 8 + envelopeBytes,
  };
}

/** WKT of a GeoPackage geometry blob. */
export function geoPackageGeometryToWkt(bytes: Uint8Array): string {
  const header = readGeoPackageHeader(bytes);
  if (header.empty && header.wkbOffset >= bytes.length) return 'GEOMETRYCOLLECTION EMPTY';
  return wkbToWkt(bytes.subarray(header.wkbOffset));
}
