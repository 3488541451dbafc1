/**
 * SpatiaLite geometry blobs (https://www.gaia-gis.it/gaia-sins/BLOB-Geometry.html) as the
 * parsed WKB geometries of lib/gpkg-geometry.ts, so the map draws them like GeoPackage ones.
 *
 * Layout: 0x00, byte order (0 big, 1 little endian), SRID (int32), the MBR (min x, min y,
 * max x, max y: doubles), 0x7C, the class type (int32), its body, 0xFE. Class types are
 * 1-7 (POINT … GEOMETRYCOLLECTION) plus 1000 (XYZ), 2000 (XYM) or 3000 (XYZM); a further
 * 1,000,000 marks a compressed LINESTRING or POLYGON, whose first and last vertices are
 * doubles and the others float offsets from the vertex before (x, y and z; m stays a
 * double). A collection's members each start with 0x69 and their own class type.
 *
 * Every read is checked against the bytes left and nesting is bounded, as in
 * lib/gpkg-geometry.ts: a corrupt blob is a GeometryDecodeError, never a crash.
 */
import { GeometryDecodeError, TYPE_NAMES, type WkbGeometry } from '../../lib/gpkg-geometry';
import type { Extent } from '../../schemas/map';

const START = 0x00;
const MBR_END = 0x7c;
const ENTITY = 0x69;
const END = 0xfe;
/** Bytes before the class type: start, order, SRID, MBR, MBR end. */
const HEADER = 39;
const MAX_DEPTH = 32;
const COMPRESSED = 1_000_000;

/** Whether `bytes` has the frame of a SpatiaLite geometry (start, order, MBR end, end). */
export function isSpatiaLiteBlob(bytes: Uint8Array): boolean {
  return (
    bytes.length >= HEADER + 5 &&
    bytes[0] === START &&
    (bytes[1] === 0 || bytes[1] === 1) &&
    bytes[38] === MBR_END &&
    bytes[bytes.length - 1] === END
  );
}

class Reader {
  offset = HEADER;
  readonly le: boolean;
  private readonly view: DataView;
  /** The body ends before the END byte. */
  private readonly end: number;

  constructor(bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.le = bytes[1] === 1;
    this.end = bytes.length - 1;
  }

  private need(bytes: number): void {
    if (this.offset + bytes > this.end) throw new GeometryDecodeError('Geometry ends unexpectedly');
  }

  byte(): number {
    this.need(1);
    return this.view.getUint8(this.offset++);
  }

  int32(): number {
    this.need(4);
    const value = this.view.getInt32(this.offset, this.le);
    this.offset += 4;
    return value;
  }

  float(): number {
    this.need(4);
    const value = this.view.getFloat32(this.offset, this.le);
    this.offset += 4;
    return value;
  }

  double(): number {
    this.need(8);
    const value = this.view.getFloat64(this.offset, this.le);
    this.offset += 8;
    return value;
  }

  /** A count of items of at least `minBytes` bytes each, checked against what is left. */
  count(minBytes: number): number {
    const n = this.int32();
    if (n < 0 || n * minBytes > this.end - this.offset) {
      throw new GeometryDecodeError('Geometry count exceeds its bytes');
    }
    return n;
  }

  get done(): boolean {
    return this.offset === this.end;
  }
}

interface Dims {
  z: boolean;
  m: boolean;
  compressed: boolean;
}

function dimsOf(code: number): { base: number } & Dims {
  const compressed = code >= COMPRESSED;
  const rest = compressed ? code - COMPRESSED : code;
  const dims = Math.floor(rest / 1000);
  const base = rest % 1000;
  // SpatiaLite has POINT (1) … GEOMETRYCOLLECTION (7); only lines and polygons compress.
  if (code < 0 || dims > 3 || base < 1 || base > 7 || (compressed && base !== 2 && base !== 3)) {
    throw new GeometryDecodeError(`Unknown SpatiaLite geometry class ${code}`);
  }
  return { base, z: dims === 1 || dims === 3, m: dims === 2 || dims === 3, compressed };
}

function coord(r: Reader, { z, m }: Dims): number[] {
  const out = [r.double(), r.double()];
  if (z) out.push(r.double());
  if (m) out.push(r.double());
  return out;
}

function points(r: Reader, dims: Dims): number[][] {
  const full = 8 * (2 + (dims.z ? 1 : 0) + (dims.m ? 1 : 0));
  if (!dims.compressed) {
    const n = r.count(full);
    return Array.from({ length: n }, () => coord(r, dims));
  }
  // First and last vertices in full, the others as float offsets (m stays a double).
  const small = 4 * (2 + (dims.z ? 1 : 0)) + (dims.m ? 8 : 0);
  const n = r.count(small);
  const out: number[][] = [];
  for (let i = 0; i < n; i++) {
    if (i === 0 || i === n - 1) {
      out.push(coord(r, dims));
      continue;
    }
    const last = out[i - 1]!;
    const next = [last[0]! + r.float(), last[1]! + r.float()];
    if (dims.z) next.push(last[2]! + r.float());
    if (dims.m) next.push(r.double());
    out.push(next);
  }
  return out;
}

function geometry(r: Reader, code: number, depth: number): WkbGeometry {
  if (depth > MAX_DEPTH) throw new GeometryDecodeError('Geometry nested too deeply');
  const dims = dimsOf(code);
  const { base, z, m } = dims;
  const out: WkbGeometry = { base, type: TYPE_NAMES[base]!, z, m };
  if (base === 1) out.points = [coord(r, dims)];
  else if (base === 2) out.points = points(r, dims);
  else if (base === 3) {
    const n = r.count(4);
    out.rings = Array.from({ length: n }, () => points(r, dims));
  } else {
    const n = r.count(5);
    out.members = [];
    for (let i = 0; i < n; i++) {
      if (r.byte() !== ENTITY) throw new GeometryDecodeError('Invalid SpatiaLite collection');
      out.members.push(geometry(r, r.int32(), depth + 1));
    }
  }
  return out;
}

/** The geometry of a SpatiaLite blob, with everything in it checked. */
export function parseSpatiaLite(bytes: Uint8Array): WkbGeometry {
  if (!isSpatiaLiteBlob(bytes)) throw new GeometryDecodeError('Not a SpatiaLite geometry');
  const r = new Reader(bytes);
  const out = geometry(r, r.int32(), 0);
  if (!r.done) throw new GeometryDecodeError('SpatiaLite geometry has trailing bytes');
  return out;
}

/** The MBR of a SpatiaLite blob (`[minx, miny, maxx, maxy]`); null when not finite. */
export function spatiaLiteMbr(bytes: Uint8Array): Extent | null {
  if (!isSpatiaLiteBlob(bytes)) return null;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const le = bytes[1] === 1;
  const box = [6, 14, 22, 30].map((at) => view.getFloat64(at, le));
  return box.every(Number.isFinite) && box[0]! <= box[2]! && box[1]! <= box[3]! ? box : null;
}
