/**
 * GeoPackages for the map's tests and bench, written with better-sqlite3 (GeoPackage 1.3:
 * gpkg_spatial_ref_sys with real WKT definitions, gpkg_contents, gpkg_geometry_columns,
 * geometries as GP headers with an xy envelope followed by little-endian WKB, and the rtree
 * spatial index when asked for).
 */
import Database from 'better-sqlite3';

/** EPSG:2180 (Poland CS92), as GDAL writes it into gpkg_spatial_ref_sys. */
export const EPSG_2180_WKT =
  'PROJCS["ETRF2000-PL / CS92",GEOGCS["ETRF2000-PL",DATUM["ETRF2000_Poland",SPHEROID["GRS 1980",6378137,298.257222101,AUTHORITY["EPSG","7019"]],TOWGS84[0,0,0,0,0,0,0],AUTHORITY["EPSG","1305"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AUTHORITY["EPSG","9702"]],PROJECTION["Transverse_Mercator"],PARAMETER["latitude_of_origin",0],PARAMETER["central_meridian",19],PARAMETER["scale_factor",0.9993],PARAMETER["false_easting",500000],PARAMETER["false_northing",-5300000],UNIT["metre",1,AUTHORITY["EPSG","9001"]],AXIS["northing",NORTH],AXIS["easting",EAST],AUTHORITY["EPSG","2180"]]';

const EPSG_4326_WKT =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

export type Ring = [number, number][];
export type TestGeometry = { point: [number, number] } | { polygon: Ring[] } | null;

export interface TestLayer {
  name: string;
  srsId: 4326 | 2180;
  type: 'POINT' | 'POLYGON';
  /** Attribute columns (name → SQL type). */
  columns: Record<string, string>;
  rows: { fid: number; geometry: TestGeometry; values: Record<string, unknown> }[];
  rtree?: boolean;
}

function wkb(geometry: NonNullable<TestGeometry>): Buffer {
  if ('point' in geometry) {
    const b = Buffer.alloc(21);
    b.writeUInt8(1, 0);
    b.writeUInt32LE(1, 1);
    b.writeDoubleLE(geometry.point[0], 5);
    b.writeDoubleLE(geometry.point[1], 13);
    return b;
  }
  const parts: Buffer[] = [];
  const head = Buffer.alloc(9);
  head.writeUInt8(1, 0);
  head.writeUInt32LE(3, 1);
  head.writeUInt32LE(geometry.polygon.length, 5);
  parts.push(head);
  for (const ring of geometry.polygon) {
    const b = Buffer.alloc(4 + ring.length * 16);
    b.writeUInt32LE(ring.length, 0);
    ring.forEach(([x, y], i) => {
      b.writeDoubleLE(x, 4 + i * 16);
      b.writeDoubleLE(y, 12 + i * 16);
    });
    parts.push(b);
  }
  return Buffer.concat(parts);
}

export function envelope(geometry: NonNullable<TestGeometry>): [number, number, number, number] {
  const points = 'point' in geometry ? [geometry.point] : geometry.polygon.flat();
  const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const [x, y] of points) {
    box[0] = Math.min(box[0], x);
    box[1] = Math.min(box[1], y);
    box[2] = Math.max(box[2], x);
    box[3] = Math.max(box[3], y);
  }
  return box;
}

/** A GeoPackage geometry blob (GP header with an xy envelope, then WKB). */
export function gpkgGeometry(geometry: NonNullable<TestGeometry>, srsId: number): Buffer {
  const header = Buffer.alloc(40);
  header.write('GP', 0, 'ascii');
  header.writeUInt8(0, 2);
  header.writeUInt8(0b0000_0011, 3); // little endian, xy envelope
  header.writeInt32LE(srsId, 4);
  const [minx, miny, maxx, maxy] = envelope(geometry);
  [minx, maxx, miny, maxy].forEach((v, i) => header.writeDoubleLE(v, 8 + i * 8));
  return Buffer.concat([header, wkb(geometry)]);
}

const q = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Writes a GeoPackage with the layers to `file`. */
export function writeGeoPackage(file: string, layers: TestLayer[]): void {
  const db = new Database(file);
  try {
    db.pragma('application_id = 1196444487');
    db.pragma('user_version = 10300');
    db.exec(`
      CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY,
        organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL,
        definition TEXT NOT NULL, description TEXT);
      CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
        identifier TEXT UNIQUE, description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT
        (strftime('%Y-%m-%dT%H:%M:%fZ','now')), min_x DOUBLE, min_y DOUBLE, max_x DOUBLE,
        max_y DOUBLE, srs_id INTEGER);
      CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
        geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL,
        m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name));
    `);
    const srs = db.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
    srs.run('Undefined cartesian SRS', -1, 'NONE', -1, 'undefined', null);
    srs.run('Undefined geographic SRS', 0, 'NONE', 0, 'undefined', null);
    srs.run('WGS 84 geodetic', 4326, 'EPSG', 4326, EPSG_4326_WKT, null);
    srs.run('ETRF2000-PL / CS92', 2180, 'EPSG', 2180, EPSG_2180_WKT, null);
    for (const layer of layers) {
      const columns = Object.entries(layer.columns)
        .map(([name, type]) => `, ${q(name)} ${type}`)
        .join('');
      db.exec(
        `CREATE TABLE ${q(layer.name)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom ${layer.type}${columns})`,
      );
      db.prepare(
        `INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ?)`,
      ).run(layer.name, layer.name, layer.srsId);
      db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, ?, 0, 0)`).run(
        layer.name,
        layer.type,
        layer.srsId,
      );
      const names = Object.keys(layer.columns);
      const insert = db.prepare(
        `INSERT INTO ${q(layer.name)} (fid, geom${names.map((n) => `, ${q(n)}`).join('')}) VALUES (?, ?${names.map(() => ', ?').join('')})`,
      );
      const rtree = layer.rtree ? `rtree_${layer.name}_geom` : null;
      if (rtree) {
        db.exec(`CREATE VIRTUAL TABLE ${q(rtree)} USING rtree(id, minx, maxx, miny, maxy)`);
      }
      const index = rtree && db.prepare(`INSERT INTO ${q(rtree)} VALUES (?, ?, ?, ?, ?)`);
      db.transaction(() => {
        for (const row of layer.rows) {
          insert.run(
            row.fid,
            row.geometry ? gpkgGeometry(row.geometry, layer.srsId) : null,
            ...names.map((n) => row.values[n] ?? null),
          );
          if (index && row.geometry) {
            const [minx, miny, maxx, maxy] = envelope(row.geometry);
            index.run(row.fid, minx, maxx, miny, maxy);
          }
        }
      })();
    }
  } finally {
    db.close();
  }
}

/** `count` points in a grid over [west, south, east, north] (lon/lat), fids from 1. */
export function gridPoints(
  count: number,
  box: [number, number, number, number],
): TestLayer['rows'] {
  const side = Math.ceil(Math.sqrt(count));
  const [west, south, east, north] = box;
  return Array.from({ length: count }, (_, i) => ({
    fid: i + 1,
    geometry: {
      point: [
        west + ((east - west) * ((i % side) + 0.5)) / side,
        south + ((north - south) * (Math.floor(i / side) + 0.5)) / side,
      ] as [number, number],
    },
    values: { name: `point ${i + 1}` },
  }));
}
