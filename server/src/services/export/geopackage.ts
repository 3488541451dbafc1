/**
 * The GeoPackage of one layer (GeoPackage 1.3): the layer's table alone, in its own CRS, with
 * its fids, its columns' declared types, its CRS definition, gpkg_contents with the extent of
 * the rows written, and an R-tree spatial index (gpkg_rtree_index) with the standard
 * triggers, so the file stays indexed when a GIS edits it. Geometries that are not
 * GeoPackage blobs (SpatiaLite, plain WKB) are written as GeoPackage blobs.
 */
import Database from 'better-sqlite3';
import { registerSpatialFunctions } from '../../geodiff/st-functions';
import { geoPackageBlob } from '../../lib/wkb-writer';
import { decodeGeometry, geometryExtent, headerEnvelope } from '../map/geometry';
import { q, type LayerInfo } from '../map/gpkg';
import type { Rows } from './formats';

const GPKG_APPLICATION_ID = 0x47504b47;
const GPKG_1_3 = 10300;

const SCHEMA = `
  CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER PRIMARY KEY,
    organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL,
    definition TEXT NOT NULL, description TEXT);
  CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL,
    identifier TEXT UNIQUE, description TEXT DEFAULT '',
    last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
    min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
    CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
  CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
    geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL,
    m TINYINT NOT NULL, CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name),
    CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
    CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
  CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
    definition TEXT NOT NULL, scope TEXT NOT NULL,
    CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
`;

const WGS84 =
  'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]';

/** The R-tree triggers of GeoPackage 1.3 (Annex F.3). */
function rtreeTriggers(table: string, column: string, fid: string): string {
  const t = q(table);
  const c = q(column);
  const i = q(fid);
  const rtree = q(`rtree_${table}_${column}`);
  const name = (suffix: string) => q(`rtree_${table}_${column}_${suffix}`);
  const upsert = (row: string) =>
    `INSERT OR REPLACE INTO ${rtree} VALUES (${row}.${i}, ST_MinX(${row}.${c}), ST_MaxX(${row}.${c}), ST_MinY(${row}.${c}), ST_MaxY(${row}.${c}));`;
  return `
    CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t}
      WHEN (new.${c} NOT NULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN ${upsert('NEW')} END;
    CREATE TRIGGER ${name('update1')} AFTER UPDATE OF ${c} ON ${t}
      WHEN OLD.${i} = NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN ${upsert('NEW')} END;
    CREATE TRIGGER ${name('update2')} AFTER UPDATE OF ${c} ON ${t}
      WHEN OLD.${i} = NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${rtree} WHERE id = OLD.${i}; END;
    CREATE TRIGGER ${name('update3')} AFTER UPDATE ON ${t}
      WHEN OLD.${i} != NEW.${i} AND (NEW.${c} NOTNULL AND NOT ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${rtree} WHERE id = OLD.${i}; ${upsert('NEW')} END;
    CREATE TRIGGER ${name('update4')} AFTER UPDATE ON ${t}
      WHEN OLD.${i} != NEW.${i} AND (NEW.${c} ISNULL OR ST_IsEmpty(NEW.${c}))
    BEGIN DELETE FROM ${rtree} WHERE id IN (OLD.${i}, NEW.${i}); END;
    CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t}
      WHEN old.${c} NOT NULL
    BEGIN DELETE FROM ${rtree} WHERE id = OLD.${i}; END;
  `;
}

/** The box of a geometry blob (its header's, else its coordinates'), or null. */
function boxOf(blob: unknown): number[] | null {
  const box = headerEnvelope(blob);
  if (box && box.every(Number.isFinite)) return box;
  const geometry = decodeGeometry(blob);
  return geometry ? geometryExtent(geometry, (x, y) => [x, y]) : null;
}

/** A row's geometry as a GeoPackage blob (as it is when it already is one). */
function geoPackageGeometry(blob: unknown, srsId: number): Buffer | null {
  if (!(blob instanceof Uint8Array)) return null;
  if (blob[0] === 0x47 && blob[1] === 0x50) return Buffer.from(blob);
  const geometry = decodeGeometry(blob);
  if (!geometry) return null;
  return geoPackageBlob(
    geometry,
    srsId,
    geometryExtent(geometry, (x, y) => [x, y]),
  );
}

/** Writes the GeoPackage of `layer` with `rows` to `path`; returns the number of features. */
export function writeLayerGeoPackage(path: string, layer: LayerInfo, rows: Rows): number {
  const db = new Database(path);
  try {
    db.pragma('journal_mode = OFF');
    db.pragma('synchronous = OFF');
    db.pragma(`application_id = ${GPKG_APPLICATION_ID}`);
    db.pragma(`user_version = ${GPKG_1_3}`);
    registerSpatialFunctions(db);
    db.exec(SCHEMA);
    const srs = db.prepare('INSERT OR REPLACE INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
    srs.run(
      'Undefined cartesian SRS',
      -1,
      'NONE',
      -1,
      'undefined',
      'undefined cartesian coordinate reference system',
    );
    srs.run(
      'Undefined geographic SRS',
      0,
      'NONE',
      0,
      'undefined',
      'undefined geographic coordinate reference system',
    );
    srs.run(
      'WGS 84 geodetic',
      4326,
      'EPSG',
      4326,
      WGS84,
      'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
    );
    // The layer's CRS as its file defines it; a layer whose file does not define it is
    // written with the undefined cartesian CRS.
    let srsId = layer.srsId;
    const own = layer.srs;
    if (own && own.srs_id === srsId && srsId !== -1 && srsId !== 0) {
      srs.run(
        own.srs_name ?? `srs ${srsId}`,
        srsId,
        own.organization ?? 'NONE',
        own.organization_coordsys_id ?? srsId,
        own.definition ?? 'undefined',
        null,
      );
    } else if (srsId !== 4326 && srsId !== 0) srsId = -1;

    const fid = layer.fidColumn === 'rowid' ? freeColumn('fid', layer) : layer.fidColumn;
    const geometry = layer.geometryColumn;
    const columns = layer.columns.map((c) => `, ${q(c.name)} ${c.declared.trim() || 'TEXT'}`);
    db.exec(
      `CREATE TABLE ${q(layer.name)} (${q(fid)} INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, ${q(
        geometry,
      )} ${/^[A-Z]+$/.test(layer.geometryType) ? layer.geometryType : 'GEOMETRY'}${columns.join('')})`,
    );
    db.prepare(
      `INSERT INTO gpkg_contents (table_name, data_type, identifier, srs_id) VALUES (?, 'features', ?, ?)`,
    ).run(layer.name, layer.title ?? layer.name, srsId);
    db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, ?, ?, ?, 2, 2)`).run(
      layer.name,
      geometry,
      layer.geometryType,
      srsId,
    );
    const rtree = `rtree_${layer.name}_${geometry}`;
    db.exec(`CREATE VIRTUAL TABLE ${q(rtree)} USING rtree(id, minx, maxx, miny, maxy)`);
    db.prepare(
      `INSERT INTO gpkg_extensions VALUES (?, ?, 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')`,
    ).run(layer.name, geometry);

    const insert = db.prepare(
      `INSERT INTO ${q(layer.name)} (${[fid, geometry, ...layer.columns.map((c) => c.name)]
        .map(q)
        .join(', ')}) VALUES (${['?', '?', ...layer.columns.map(() => '?')].join(', ')})`,
    );
    const index = db.prepare(`INSERT INTO ${q(rtree)} VALUES (?, ?, ?, ?, ?)`);
    let count = 0;
    db.transaction(() => {
      for (const [id, blob, ...values] of rows) {
        const written = geoPackageGeometry(blob, srsId);
        insert.run(id, written, ...values.map(bindable));
        const box = written && boxOf(written);
        if (box) index.run(id, box[0], box[2], box[1], box[3]);
        count++;
      }
    })();
    // The triggers keep the index as the file is edited later (by a GIS).
    db.exec(rtreeTriggers(layer.name, geometry, fid));
    db.prepare(
      `UPDATE gpkg_contents SET (min_x, min_y, max_x, max_y) =
         (SELECT min(minx), min(miny), max(maxx), max(maxy) FROM ${q(rtree)}) WHERE table_name = ?`,
    ).run(layer.name);
    return count;
  } finally {
    db.close();
  }
}

/** A value better-sqlite3 binds as it was read. */
function bindable(value: unknown): unknown {
  return value instanceof Uint8Array ? Buffer.from(value) : value;
}

/** `wanted` unless an attribute column has the name (then with `_` added). */
function freeColumn(wanted: string, layer: LayerInfo): string {
  const taken = new Set(layer.columns.map((c) => c.name.toLowerCase()));
  let name = wanted;
  while (taken.has(name.toLowerCase())) name = `${name}_`;
  return name;
}
