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

const TYPE_NAMES: Record<number, string> = {
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

/** A number as WKT writes it: shortest round-trip form, no negative zero. */
function num(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  return Object.is(value, -0) ? '0' : String(value);
}

interface Dims {
  z: boolean;
  m: boolean;
}

function dimsSuffix(d: Dims): string {
  if (d.z && d.m) return ' ZM';
  if (d.z) return ' Z';
  if (d.m) return ' M';
  return '';
}

function readCoord(r: Reader, le: boolean, d: Dims): number[] {
  const coord = [r.double(le), r.double(le)];
  if (d.z) coord.push(r.double(le));
  if (d.m) coord.push(r.double(le));
  return coord;
}

function coordText(coord: number[]): string {
  return coord.map(num).join(' ');
}

function pointsText(r: Reader, le: boolean, d: Dims): string {
  const size = 8 * (2 + (d.z ? 1 : 0) + (d.m ? 1 : 0));
  const n = r.count(le, size);
  if (n === 0) return 'EMPTY';
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(coordText(readCoord(r, le, d)));
  return `(${parts.join(', ')})`;
}

function ringsText(r: Reader, le: boolean, d: Dims): string {
  const n = r.count(le, 4);
  if (n === 0) return 'EMPTY';
  const rings: string[] = [];
  for (let i = 0; i < n; i++) rings.push(pointsText(r, le, d));
  return `(${rings.join(', ')})`;
}

interface Decoded {
  /** The geometry's type name (POINT, …). */
  type: string;
  /** Full WKT with the type name and dimensions. */
  wkt: string;
  /** The body only ("(1 2)" or "EMPTY"), for members written without their type. */
  body: string;
}

function decodeWkb(r: Reader, depth: number): Decoded {
  if (depth > MAX_DEPTH) throw new GeometryDecodeError('Geometry nested too deeply');
  const order = r.byte();
  if (order > 1) throw new GeometryDecodeError(`Invalid WKB byte order ${order}`);
  const le = order === 1;
  let code = r.uint32(le);
  const d: Dims = { z: false, m: false };
  // EWKB flags.
  if (code & 0x80000000) d.z = true;
  if (code & 0x40000000) d.m = true;
  if (code & 0x20000000) r.uint32(le); // SRID
  code &= 0x0fffffff;
  // ISO dimensions.
  const iso = Math.floor(code / 1000);
  if (iso > 3) throw new GeometryDecodeError(`Unknown WKB geometry type ${code}`);
  if (iso === 1 || iso === 3) d.z = true;
  if (iso === 2 || iso === 3) d.m = true;
  const base = code % 1000;
  const type = TYPE_NAMES[base];
  if (!type) throw new GeometryDecodeError(`Unknown WKB geometry type ${code}`);

  let body: string;
  switch (base) {
    case 1: {
      const coord = readCoord(r, le, d);
      // An empty point is written with NaN coordinates.
      body = coord.every((v) => Number.isNaN(v)) ? 'EMPTY' : `(${coordText(coord)})`;
      break;
    }
    case 2:
    case 8:
      body = pointsText(r, le, d);
      break;
    case 3:
    case 17:
      body = ringsText(r, le, d);
      break;
    default: {
      // Collections of WKB geometries.
      const n = r.count(le, 5);
      if (n === 0) {
        body = 'EMPTY';
        break;
      }
      const members: string[] = [];
      for (let i = 0; i < n; i++) {
        const member = decodeWkb(r, depth + 1);
        members.push(memberText(base, member));
      }
      body = `(${members.join(', ')})`;
    }
  }
  return { type, wkt: `${type}${dimsSuffix(d)} ${body}`, body };
}

/** How a member of a collection is written: untagged where WKT expects it. */
function memberText(collection: number, member: Decoded): string {
  switch (collection) {
    case 4: // MULTIPOINT ((1 2), (3 4))
    case 5: // MULTILINESTRING ((…), (…))
    case 6: // MULTIPOLYGON (((…)), ((…)))
    case 15: // POLYHEDRALSURFACE
    case 16: // TIN
      return member.body;
    case 9: // COMPOUNDCURVE: line strings untagged, arcs tagged
    case 10: // CURVEPOLYGON: rings likewise
    case 11: // MULTICURVE
      return member.type === 'LINESTRING' ? member.body : member.wkt;
    case 12: // MULTISURFACE: polygons untagged
      return member.type === 'POLYGON' ? member.body : member.wkt;
    default:
      return member.wkt;
  }
}

/** WKT of a WKB geometry (the whole buffer must be one geometry). */
export function wkbToWkt(bytes: Uint8Array): string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const r = new Reader(view, 0);
  const { wkt } = decodeWkb(r, 0);
  return wkt;
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
