/**
 * SQLite files with geometry for the map's tests, written with better-sqlite3 byte by byte
 * (no SpatiaLite or GDAL binaries): SpatiaLite geometry blobs (MBR header, class types with
 * Z/M, compressed lines and polygons, collections), the SpatiaLite 4+ and legacy metadata
 * layouts, and GDAL's plain WKB layout.
 */
import Database from 'better-sqlite3';

export type Dims = 'XY' | 'XYZ' | 'XYM' | 'XYZM';
export type Coord = number[];
export type SlGeometry =
  | { point: Coord }
  | { line: Coord[]; compressed?: boolean }
  | { polygon: Coord[][]; compressed?: boolean }
  | {
      collection: 'MULTIPOINT' | 'MULTILINESTRING' | 'MULTIPOLYGON' | 'GEOMETRYCOLLECTION';
      members: SlGeometry[];
    };

const COLLECTIONS = { MULTIPOINT: 4, MULTILINESTRING: 5, MULTIPOLYGON: 6, GEOMETRYCOLLECTION: 7 };
const DIMS_CODE: Record<Dims, number> = { XY: 0, XYZ: 1000, XYM: 2000, XYZM: 3000 };

/** EPSG:2180 (Poland CS92) as SpatiaLite's spatial_ref_sys holds it. */
export const EPSG_2180_PROJ4 =
  '+proj=tmerc +lat_0=0 +lon_0=19 +k=0.9993 +x_0=500000 +y_0=-5300000 +ellps=GRS80 +towgs84=0,0,0,0,0,0,0 +units=m +no_defs';
const EPSG_4326_PROJ4 = '+proj=longlat +datum=WGS84 +no_defs';

class Writer {
  private readonly bytes: number[] = [];
  constructor(private readonly le: boolean) {}
  byte(v: number) {
    this.bytes.push(v);
  }
  private put(size: number, write: (view: DataView) => void) {
    const view = new DataView(new ArrayBuffer(size));
    write(view);
    this.bytes.push(...new Uint8Array(view.buffer));
  }
  int32(v: number) {
    this.put(4, (d) => d.setInt32(0, v, this.le));
  }
  float(v: number) {
    this.put(4, (d) => d.setFloat32(0, v, this.le));
  }
  double(v: number) {
    this.put(8, (d) => d.setFloat64(0, v, this.le));
  }
  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

function classOf(g: SlGeometry, dims: Dims): number {
  const base = 'point' in g ? 1 : 'line' in g ? 2 : 'polygon' in g ? 3 : COLLECTIONS[g.collection];
  const compressed = ('line' in g || 'polygon' in g) && g.compressed ? 1_000_000 : 0;
  return base + DIMS_CODE[dims] + compressed;
}

function coords(g: SlGeometry): Coord[] {
  if ('point' in g) return [g.point];
  if ('line' in g) return g.line;
  if ('polygon' in g) return g.polygon.flat();
  return g.members.flatMap(coords);
}

function writePoints(w: Writer, points: Coord[], dims: Dims, compressed: boolean) {
  const z = dims.includes('Z');
  const m = dims.includes('M');
  w.int32(points.length);
  points.forEach((p, i) => {
    const full = !compressed || i === 0 || i === points.length - 1;
    if (full) {
      for (const v of p) w.double(v);
      return;
    }
    const last = points[i - 1]!;
    w.float(p[0]! - last[0]!);
    w.float(p[1]! - last[1]!);
    if (z) w.float(p[2]! - last[2]!);
    if (m) w.double(p[z ? 3 : 2]!);
  });
}

function writeBody(w: Writer, g: SlGeometry, dims: Dims) {
  if ('point' in g) for (const v of g.point) w.double(v);
  else if ('line' in g) writePoints(w, g.line, dims, g.compressed === true);
  else if ('polygon' in g) {
    w.int32(g.polygon.length);
    for (const ring of g.polygon) writePoints(w, ring, dims, g.compressed === true);
  } else {
    w.int32(g.members.length);
    for (const member of g.members) {
      w.byte(0x69);
      w.int32(classOf(member, dims));
      writeBody(w, member, dims);
    }
  }
}

/** A SpatiaLite geometry blob (coordinates as `dims` says: x, y[, z][, m]). */
export function spatiaLiteBlob(
  g: SlGeometry,
  { srid, dims = 'XY', littleEndian = true }: { srid: number; dims?: Dims; littleEndian?: boolean },
): Buffer {
  const w = new Writer(littleEndian);
  w.byte(0x00);
  w.byte(littleEndian ? 1 : 0);
  w.int32(srid);
  const all = coords(g);
  const xs = all.map((c) => c[0]!);
  const ys = all.map((c) => c[1]!);
  for (const v of [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]) {
    w.double(v);
  }
  w.byte(0x7c);
  w.int32(classOf(g, dims));
  writeBody(w, g, dims);
  w.byte(0xfe);
  return w.done();
}

/** Little-endian ISO WKB of a point or polygon (XY). */
export function wkbBlob(g: { point: Coord } | { polygon: Coord[][] }): Buffer {
  const w = new Writer(true);
  w.byte(1);
  w.int32('point' in g ? 1 : 3);
  writeBody(w, g, 'XY');
  return w.done();
}

export interface SlLayer {
  /** The table's name (SpatiaLite 4 keeps it in lower case in geometry_columns). */
  name: string;
  geometryColumn?: string;
  /** SpatiaLite 4 class code (1 POINT … 7, +1000s for Z/M), or the legacy text type. */
  type: number | string;
  dims?: Dims;
  srid: number;
  columns: Record<string, string>;
  rows: { fid: number; geometry: Buffer | null; values: Record<string, unknown> }[];
}

export type Layout = 'spatialite4' | 'legacy' | 'gdal-wkb';

/** A SQLite file with these layers and the metadata of `layout`. */
export function writeSpatiaLite(file: string, layout: Layout, layers: SlLayer[]): void {
  const db = new Database(file);
  try {
    if (layout === 'spatialite4') {
      db.exec(`CREATE TABLE spatial_ref_sys (srid INTEGER PRIMARY KEY, auth_name TEXT,
        auth_srid INTEGER, ref_sys_name TEXT, proj4text TEXT, srtext TEXT);
        CREATE TABLE geometry_columns (f_table_name TEXT, f_geometry_column TEXT,
        geometry_type INTEGER, coord_dimension INTEGER, srid INTEGER,
        spatial_index_enabled INTEGER)`);
    } else if (layout === 'legacy') {
      db.exec(`CREATE TABLE spatial_ref_sys (srid INTEGER PRIMARY KEY, auth_name TEXT,
        auth_srid INTEGER, ref_sys_name TEXT, proj4text TEXT);
        CREATE TABLE geometry_columns (f_table_name TEXT, f_geometry_column TEXT, type TEXT,
        coord_dimension TEXT, srid INTEGER, spatial_index_enabled INTEGER)`);
    } else {
      db.exec(`CREATE TABLE spatial_ref_sys (srid INTEGER UNIQUE, auth_name TEXT,
        auth_srid INTEGER, srtext TEXT);
        CREATE TABLE geometry_columns (f_table_name VARCHAR, f_geometry_column VARCHAR,
        geometry_type INTEGER, coord_dimension INTEGER, srid INTEGER,
        geometry_format VARCHAR)`);
    }
    const srs = [
      [4326, 'epsg', 4326, 'WGS 84', EPSG_4326_PROJ4],
      [2180, 'epsg', 2180, 'ETRF2000-PL / CS92', EPSG_2180_PROJ4],
    ];
    for (const [srid, auth, code, name, proj4] of srs) {
      if (layout === 'spatialite4') {
        db.prepare('INSERT INTO spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)').run(
          srid,
          auth,
          code,
          name,
          proj4,
          'Undefined',
        );
      } else if (layout === 'legacy') {
        db.prepare('INSERT INTO spatial_ref_sys VALUES (?, ?, ?, ?, ?)').run(
          srid,
          auth,
          code,
          name,
          proj4,
        );
      } else {
        db.prepare('INSERT INTO spatial_ref_sys VALUES (?, ?, ?, ?)').run(srid, auth, code, proj4);
      }
    }
    for (const layer of layers) {
      const geom = layer.geometryColumn ?? 'geometry';
      const columns = Object.entries(layer.columns).map(([name, type]) => `"${name}" ${type}`);
      db.exec(
        `CREATE TABLE "${layer.name}" (pk_uid INTEGER PRIMARY KEY AUTOINCREMENT, ${[
          ...columns,
          `"${geom}" BLOB`,
        ].join(', ')})`,
      );
      const dims = layer.dims ?? 'XY';
      const metaName = layout === 'spatialite4' ? layer.name.toLowerCase() : layer.name;
      const metaColumn = layout === 'spatialite4' ? geom.toLowerCase() : geom;
      if (layout === 'gdal-wkb') {
        db.prepare('INSERT INTO geometry_columns VALUES (?, ?, ?, ?, ?, ?)').run(
          metaName,
          metaColumn,
          layer.type,
          2,
          layer.srid,
          'WKB',
        );
      } else {
        db.prepare('INSERT INTO geometry_columns VALUES (?, ?, ?, ?, ?, 0)').run(
          metaName,
          metaColumn,
          layer.type,
          layout === 'legacy' ? dims : dims.length,
          layer.srid,
        );
      }
      const names = ['pk_uid', ...Object.keys(layer.columns), geom];
      const insert = db.prepare(
        `INSERT INTO "${layer.name}" (${names.map((n) => `"${n}"`).join(', ')})
         VALUES (${names.map(() => '?').join(', ')})`,
      );
      for (const row of layer.rows) {
        insert.run(
          row.fid,
          ...Object.keys(layer.columns).map((c) => row.values[c] ?? null),
          row.geometry,
        );
      }
    }
  } finally {
    db.close();
  }
}
