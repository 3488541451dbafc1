/**
 * The geometry layers of a SQLite file that is not a GeoPackage (gpkg.ts reads those), from
 * the metadata the tools that write them keep:
 *
 * - SpatiaLite 4+: `geometry_columns` (f_table_name, f_geometry_column, geometry_type as a
 *   number: 1-7, +1000 Z, +2000 M, +3000 ZM, 0 any; names stored in lower case), CRS from
 *   `spatial_ref_sys` (srid, auth_name, auth_srid, ref_sys_name, proj4text, srtext).
 * - SpatiaLite 2/3 (legacy): `geometry_columns` with `type` as text ('POINT', …) and a
 *   `spatial_ref_sys` with proj4text (srs_wkt or none for WKT).
 * - GDAL's plain SQLite layout: `geometry_columns` with `geometry_format` ('WKB' or
 *   'SpatiaLite' are read; 'WKT' and 'FGF' layers are left out) and OGR geometry type codes.
 * - No `geometry_columns` at all: tables with a column declared as a geometry type (POINT,
 *   GEOMETRY, …) holding WKB; their CRS is unknown, so they are listed, counted and shown
 *   in the table but not drawn (srs -1).
 *
 * SpatiaLite's spatial index (`idx_<table>_<column>`, an R*Tree of pkid, xmin, xmax, ymin,
 * ymax, present when geometry_columns.spatial_index_enabled = 1) is used as a GeoPackage's
 * rtree is (gpkg.ts `SpatialIndex`): for tiles, point indexes and extents.
 *
 * Geometries are decoded by their form (geometry.ts), so each layer then goes through the
 * same tiles and attribute code as a GeoPackage layer. Identifiers come from the file's own
 * metadata and are resolved to its real table and column names.
 */
import type Database from 'better-sqlite3';
import { TYPE_NAMES } from '../../lib/gpkg-geometry';
import { columnType } from '../../lib/sqlite-diff';
import type { SrsRow } from './crs';

/** What listing a layer needs to know from the file's metadata. */
export interface LayerSource {
  /** The table, as sqlite_master names it. */
  name: string;
  /** The geometry column, as the metadata names it (matched without case). */
  geometryColumn: string;
  /** POINT, MULTIPOLYGON, GEOMETRY, … */
  geometryType: string;
  srsId: number;
  srs: SrsRow | undefined;
  title: string | null;
  /** The spatial index's table (an R*Tree, gpkg.ts), as the metadata names it; null: none. */
  indexTable: string | null;
}

/** A geometry type code (SpatiaLite's or OGR's, with Z/M as +1000s or flag bits) as a name. */
export function geometryTypeName(code: number): string {
  const base = (code & 0x0fffffff) % 1000;
  return TYPE_NAMES[base] ?? 'GEOMETRY';
}

function columnsOf(db: Database.Database, table: string): Set<string> {
  const rows = db.prepare('SELECT name FROM pragma_table_info(?)').all(table) as {
    name: string;
  }[];
  return new Set(rows.map((row) => row.name.toLowerCase()));
}

/** The CRS rows of spatial_ref_sys as gpkg_spatial_ref_sys names them, by srid. */
function srsReader(
  db: Database.Database,
  tables: Set<string>,
): (srid: number) => SrsRow | undefined {
  if (!tables.has('spatial_ref_sys')) return () => undefined;
  const columns = columnsOf(db, 'spatial_ref_sys');
  const has = (name: string) => columns.has(name);
  if (!has('srid')) return () => undefined;
  // proj4 reads PROJ strings more reliably than WKT; WKT when there is none.
  const definition = ['proj4text', 'srtext', 'srs_wkt']
    .filter(has)
    .reduceRight((rest, column) => `coalesce(nullif(trim(${column}), ''), ${rest})`, 'NULL');
  const select = db.prepare(
    `SELECT srid AS srs_id, ${has('ref_sys_name') ? 'ref_sys_name' : 'NULL'} AS srs_name,
            ${has('auth_name') ? 'auth_name' : 'NULL'} AS organization,
            ${has('auth_srid') ? 'auth_srid' : 'NULL'} AS organization_coordsys_id,
            ${definition} AS definition
       FROM spatial_ref_sys WHERE srid = ?`,
  );
  return (srid) => select.get(srid) as SrsRow | undefined;
}

/** The file's real name of `name` (metadata may change its case), or undefined. */
export function realName(tables: Set<string>, name: unknown): string | undefined {
  if (typeof name !== 'string') return undefined;
  if (tables.has(name)) return name;
  const lower = name.toLowerCase();
  return [...tables].find((table) => table.toLowerCase() === lower);
}

const READABLE_FORMATS = new Set(['WKB', 'SPATIALITE']);

function fromGeometryColumns(db: Database.Database, tables: Set<string>): LayerSource[] {
  const columns = columnsOf(db, 'geometry_columns');
  if (!columns.has('f_table_name') || !columns.has('f_geometry_column')) return [];
  const type = columns.has('geometry_type')
    ? 'geometry_type'
    : columns.has('type')
      ? 'type'
      : 'NULL';
  const format = columns.has('geometry_format') ? 'geometry_format' : 'NULL';
  const srid = columns.has('srid') ? 'srid' : '-1';
  const indexed = columns.has('spatial_index_enabled') ? 'spatial_index_enabled' : '0';
  const rows = db
    .prepare(
      `SELECT f_table_name AS name, f_geometry_column AS geom, ${type} AS type,
              ${srid} AS srid, ${format} AS format, ${indexed} AS indexed
         FROM geometry_columns ORDER BY f_table_name, f_geometry_column`,
    )
    .all() as {
    name: unknown;
    geom: unknown;
    type: unknown;
    srid: unknown;
    format: unknown;
    indexed: unknown;
  }[];
  const srsOf = srsReader(db, tables);
  const out: LayerSource[] = [];
  for (const row of rows) {
    const name = realName(tables, row.name);
    if (!name || typeof row.geom !== 'string') continue;
    if (typeof row.format === 'string' && !READABLE_FORMATS.has(row.format.toUpperCase())) {
      continue;
    }
    const srsId = Number.isInteger(Number(row.srid)) ? Number(row.srid) : -1;
    out.push({
      name,
      geometryColumn: row.geom,
      geometryType:
        typeof row.type === 'string'
          ? row.type.toUpperCase().replace(/\s*(XYZM|XYZ|XYM|Z|M|ZM)$/, '')
          : geometryTypeName(Number(row.type ?? 0)),
      srsId,
      srs: srsOf(srsId),
      title: null,
      // SpatiaLite's R*Tree (1; 2 is its MBR cache, another kind of table).
      indexTable: Number(row.indexed) === 1 ? `idx_${name}_${row.geom}` : null,
    });
  }
  return out;
}

/** Tables with a column declared as a geometry type, when the file has no metadata. */
function fromDeclaredTypes(db: Database.Database, tables: Set<string>): LayerSource[] {
  const out: LayerSource[] = [];
  const names = db
    .prepare(
      `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
        ORDER BY name`,
    )
    .pluck()
    .all() as string[];
  for (const name of names) {
    if (!tables.has(name)) continue;
    const columns = db.prepare('SELECT name, type FROM pragma_table_info(?)').all(name) as {
      name: string;
      type: string;
    }[];
    for (const column of columns) {
      if (columnType(column.type.trim(), false) !== 'geometry') continue;
      out.push({
        name,
        geometryColumn: column.name,
        geometryType: column.type.trim().toUpperCase(),
        srsId: -1,
        srs: undefined,
        title: null,
        indexTable: null,
      });
    }
  }
  return out;
}

/** The geometry layers of a SQLite (SpatiaLite or GDAL) file; none when it has none. */
export function sqliteLayerSources(db: Database.Database, tables: Set<string>): LayerSource[] {
  return tables.has('geometry_columns')
    ? fromGeometryColumns(db, tables)
    : fromDeclaredTypes(db, tables);
}
