/**
 * The editable tables of a GeoPackage: every gpkg_contents row of data_type `features`
 * (with its gpkg_geometry_columns row) or `attributes`, with its columns as SQLite declares
 * them (type, length, NOT NULL, SQL default), its integer primary key (the fid) and, for
 * feature tables, the geometry column, type and srs_id with the CRS transform.
 */
import type Database from 'better-sqlite3';
import { columnType } from '../../lib/sqlite-diff';
import type { MapColumn } from '../../schemas/map';
import { crsCode, layerTransform, type LayerTransform, type SrsRow } from '../map/crs';
import { q } from '../map/gpkg';

export interface TableColumn {
  name: string;
  declared: string;
  type: MapColumn['type'];
  /** `TEXT(50)` → 50. */
  length: number | null;
  notNull: boolean;
  /** The SQL default as declared, or null. */
  sqlDefault: string | null;
}

export interface GpkgTable {
  name: string;
  /** The integer primary key, or null when the table has none. */
  fid: string | null;
  geometry: {
    column: string;
    type: string;
    srsId: number;
    /** gpkg_geometry_columns z / m: 0 prohibited, 1 mandatory, 2 optional. */
    z: number;
    m: number;
    crs: string | null;
    transform: LayerTransform | null;
  } | null;
  /** Attribute columns: not the fid, not the geometry. */
  columns: TableColumn[];
}

function lengthOf(declared: string): number | null {
  const match = /\(\s*(\d+)\s*\)/.exec(declared);
  return match ? Number(match[1]) : null;
}

const has = (db: Database.Database, name: string) =>
  db
    .prepare(`SELECT 1 FROM sqlite_master WHERE type IN ('table', 'view') AND name = ?`)
    .get(name) !== undefined;

/** The file's tables (features and attributes), in gpkg_contents order by name. */
export function gpkgTables(db: Database.Database): GpkgTable[] {
  if (!has(db, 'gpkg_contents')) return [];
  const contents = db
    .prepare(
      `SELECT table_name AS name, data_type AS type FROM gpkg_contents
        WHERE data_type IN ('features', 'attributes') ORDER BY table_name`,
    )
    .all() as { name: string; type: string }[];
  const geometryRows = has(db, 'gpkg_geometry_columns')
    ? (db
        .prepare(
          `SELECT table_name, column_name, geometry_type_name, srs_id, z, m FROM gpkg_geometry_columns`,
        )
        .all() as {
        table_name: string;
        column_name: string;
        geometry_type_name: string;
        srs_id: number;
        z: number;
        m: number;
      }[])
    : [];
  const srs = new Map<number, SrsRow>(
    has(db, 'gpkg_spatial_ref_sys')
      ? (
          db
            .prepare(
              `SELECT srs_id, srs_name, organization, organization_coordsys_id, definition
                 FROM gpkg_spatial_ref_sys`,
            )
            .all() as SrsRow[]
        ).map((row) => [Number(row.srs_id), row])
      : [],
  );
  const tables: GpkgTable[] = [];
  for (const { name } of contents) {
    if (!has(db, name)) continue;
    const info = db
      .prepare('SELECT name, type, "notnull" AS nn, dflt_value, pk FROM pragma_table_info(?)')
      .all(name) as {
      name: string;
      type: string;
      nn: number;
      dflt_value: string | null;
      pk: number;
    }[];
    const pks = info.filter((c) => c.pk > 0);
    const fid = pks.length === 1 && /^INTEGER$/i.test(pks[0]!.type) ? pks[0]!.name : null;
    const g = geometryRows.find((row) => row.table_name.toLowerCase() === name.toLowerCase());
    const srsId = g ? Number(g.srs_id) : 0;
    tables.push({
      name,
      fid,
      geometry: g
        ? {
            column: g.column_name,
            type: g.geometry_type_name.toUpperCase(),
            srsId,
            z: Number(g.z) || 0,
            m: Number(g.m) || 0,
            crs: crsCode(srs.get(srsId)),
            transform: layerTransform(srsId, srs.get(srsId)),
          }
        : null,
      columns: info
        .filter((c) => c.name !== fid && c.name.toLowerCase() !== g?.column_name.toLowerCase())
        .map((c) => {
          const type = columnType(c.type, false);
          return {
            name: c.name,
            declared: c.type,
            type: type === 'geometry' ? 'blob' : type,
            length: lengthOf(c.type),
            notNull: c.nn === 1,
            sqlDefault: c.dflt_value,
          };
        }),
    });
  }
  return tables;
}

export { q };
