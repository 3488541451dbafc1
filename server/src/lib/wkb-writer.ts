/**
 * Writing geometries: ISO WKB (little endian) from a parsed geometry (lib/gpkg-geometry.ts
 * reads them), and the GeoPackage binary form (a "GP" header with an xy envelope, then the
 * WKB). Used where a geometry read in another form (SpatiaLite, plain WKB) goes into a
 * GeoPackage.
 */
import type { WkbGeometry } from './gpkg-geometry';

function dimensions(g: WkbGeometry): number {
  return 2 + (g.z ? 1 : 0) + (g.m ? 1 : 0);
}

/** Bytes the WKB of `g` takes. */
function wkbLength(g: WkbGeometry): number {
  const coord = 8 * dimensions(g);
  if (g.base === 1) return 5 + coord;
  if (g.points) return 9 + g.points.length * coord;
  if (g.rings) return 9 + g.rings.reduce((sum, ring) => sum + 4 + ring.length * coord, 0);
  return 9 + (g.members ?? []).reduce((sum, member) => sum + wkbLength(member), 0);
}

function write(g: WkbGeometry, view: DataView, start: number): number {
  let offset = start;
  const dims = dimensions(g);
  const coord = (point: number[]) => {
    for (let i = 0; i < dims; i++) {
      view.setFloat64(offset, point[i] ?? NaN, true);
      offset += 8;
    }
  };
  view.setUint8(offset, 1);
  view.setUint32(offset + 1, g.base + (g.z ? 1000 : 0) + (g.m ? 2000 : 0), true);
  offset += 5;
  if (g.base === 1) {
    coord(g.points?.[0] ?? []);
  } else if (g.points) {
    view.setUint32(offset, g.points.length, true);
    offset += 4;
    g.points.forEach(coord);
  } else if (g.rings) {
    view.setUint32(offset, g.rings.length, true);
    offset += 4;
    for (const ring of g.rings) {
      view.setUint32(offset, ring.length, true);
      offset += 4;
      ring.forEach(coord);
    }
  } else {
    const members = g.members ?? [];
    view.setUint32(offset, members.length, true);
    offset += 4;
    for (const member of members) offset = write(member, view, offset);
  }
  return offset;
}

/** ISO WKB of a geometry, little endian. */
export function writeWkb(g: WkbGeometry): Buffer {
  const bytes = Buffer.alloc(wkbLength(g));
  write(g, new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), 0);
  return bytes;
}

/**
 * A GeoPackage geometry blob: version 0, little endian, the xy envelope
 * `[minx, miny, maxx, maxy]` when given (none for an empty geometry), then the WKB.
 */
export function geoPackageBlob(
  g: WkbGeometry,
  srsId: number,
  envelope: readonly number[] | null,
): Buffer {
  const wkb = writeWkb(g);
  const header = Buffer.alloc(envelope ? 40 : 8);
  header.write('GP', 0, 'ascii');
  header.writeUInt8(0, 2);
  header.writeUInt8(envelope ? 0b0000_0011 : 0b0001_0001, 3);
  header.writeInt32LE(srsId, 4);
  if (envelope) {
    const [minx, miny, maxx, maxy] = envelope as [number, number, number, number];
    [minx, maxx, miny, maxy].forEach((value, i) => header.writeDoubleLE(value, 8 + i * 8));
  }
  return Buffer.concat([header, wkb]);
}
